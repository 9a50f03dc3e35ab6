import { IMPORT_MAX_ENTRIES } from '../../common/constants';
import { makeDocx, makePdf } from '../../test/fixtures/ingest/make-documents';
import { call, cookieOf, UnexpectedReply, type Session } from './http';
import { libraryEntries } from '../fixtures';

const PASSWORD = 'bench-scale-pass';

async function register(base: string, body: Record<string, string>): Promise<Session> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD, ...body }),
  });
  if (res.status !== 201) throw new UnexpectedReply(`register ${body.username}: ${res.status} ${await res.text()}`);
  return { base, cookie: cookieOf(res), username: body.username ?? '' };
}

/** Runs `fn` over `items`, `width` at a time. */
async function inParallel<T, R>(items: T[], width: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T, i);
    }),
  );
  return out;
}

/**
 * An organization (its admin signs up on the first API process) and `count` contributors who accept invitations,
 * each signing up on the API process its number picks (round-robin), so each user's session lives there.
 */
export async function seedUsers(bases: string[], count: number): Promise<{ admin: Session; users: Session[] }> {
  const stamp = Date.now().toString(36);
  const first = bases[0] ?? '';
  const admin = await register(first, {
    username: `scale-admin-${stamp}`,
    email: `scale-admin-${stamp}@example.com`,
    organizationName: 'Scale Bench',
  });
  const users = await inParallel(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const email = `scale-user-${i}-${stamp}@example.com`;
      const invite = await call<{ token: string }>(admin, 'POST', '/api/organizations/invitations', {
        body: { email, role: 'contributor' },
        expect: 201,
      });
      return register(bases[i % bases.length] ?? first, {
        username: `scale-user-${i}-${stamp}`,
        email,
        invitationToken: invite.data.token,
      });
    },
  );
  return { admin, users };
}

/**
 * Imports `n` generated library entries through `POST /api/canonical-answers/import`, in one call up to the API's
 * IMPORT_MAX_ENTRIES, else in as many as that takes.
 */
export async function seedLibrary(admin: Session, n: number): Promise<{ imported: number; seconds: number }> {
  const t0 = performance.now();
  const entries = libraryEntries(n);
  let imported = 0;
  for (let i = 0; i < entries.length; i += IMPORT_MAX_ENTRIES) {
    const res = await call<{ imported: number }>(admin, 'POST', '/api/canonical-answers/import', {
      body: { entries: entries.slice(i, i + IMPORT_MAX_ENTRIES) },
      expect: 200,
    });
    imported += res.data.imported;
  }
  return { imported, seconds: (performance.now() - t0) / 1000 };
}

type DocumentFile = { name: string; mimeType: string; bytes: Uint8Array };

/** A few policy documents (PDF and DOCX) of generated policy prose. */
export async function policyDocuments(): Promise<DocumentFile[]> {
  return [
    { name: 'security-policy.pdf', mimeType: 'application/pdf', bytes: await makePdf(12, { seed: 1 }) },
    { name: 'operations-handbook.pdf', mimeType: 'application/pdf', bytes: await makePdf(8, { seed: 2 }) },
    {
      name: 'hr-and-continuity.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: await makeDocx(6, { seed: 3 }),
    },
  ];
}

/**
 * Uploads each document as the browser does with the S3 driver — an upload URL from Verity, a PUT of the bytes
 * straight to the bucket, then registration — and waits until the workers (reading the bucket) extracted them.
 */
export async function seedDocuments(as: Session, files: DocumentFile[]): Promise<{ chunks: number; seconds: number }> {
  const t0 = performance.now();
  const ids: string[] = [];
  for (const f of files) {
    const upload = await call<{ uploadURL: string }>(as, 'POST', '/api/objects/upload', {
      body: { size: f.bytes.length },
      expect: 200,
    });
    if (!upload.data.uploadURL.startsWith('http://127.0.0.1')) {
      throw new Error(`the upload URL is not the local S3 server's: ${upload.data.uploadURL}`);
    }
    const put = await fetch(upload.data.uploadURL, { method: 'PUT', body: f.bytes });
    if (put.status !== 200) throw new UnexpectedReply(`PUT to S3: ${put.status} ${await put.text()}`);
    const doc = await call<{ id: string }>(as, 'PUT', '/api/documents', {
      body: {
        documentURL: upload.data.uploadURL,
        originalName: f.name,
        mimeType: f.mimeType,
        size: f.bytes.length,
        tags: ['policy'],
      },
      expect: 201,
    });
    ids.push(doc.data.id);
  }
  let chunks = 0;
  for (const id of ids) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const d = await call<{ status: string; error: string | null; extractedChunks: number }>(
        as,
        'GET',
        `/api/documents/${id}`,
        { expect: 200 },
      );
      if (d.data.status === 'ready') {
        chunks += d.data.extractedChunks;
        break;
      }
      if (d.data.status === 'failed') throw new Error(`document ${id} failed: ${d.data.error}`);
      if (Date.now() > deadline) throw new Error(`document ${id} still ${d.data.status} after 120 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { chunks, seconds: (performance.now() - t0) / 1000 };
}
