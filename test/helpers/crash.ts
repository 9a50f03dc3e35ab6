import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inArray } from 'drizzle-orm';

import { documentChunks, documents } from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { makeDocx, makePdf } from '../fixtures/ingest/make-documents';
import { extractDocument } from '../../server/ingest/pipeline';
import { waitUntil } from './wait';

/** A file to upload and what its extraction must end in. */
export type CrashFixture = { name: string; bytes: Uint8Array; expected: 'ready' | 'failed' };

/**
 * `count` files of the kinds users upload, most of them several pages long so that extraction is still under way
 * when the process is killed: PDFs and DOCX of 3–18 pages, short text and Markdown, and two password-protected
 * PDFs that must end `failed`.
 */
export async function crashFixtures(count = 30): Promise<CrashFixture[]> {
  const files: CrashFixture[] = [];
  for (let i = 0; files.length < count; i += 1) {
    const pages = 3 + 3 * (i % 6);
    const kind = i % 5;
    if (i === 7 || i === 19) {
      files.push({ name: `locked-${i}.pdf`, bytes: await makePdf(2, { userPassword: 'x' }), expected: 'failed' });
    } else if (kind === 0 || kind === 3) {
      files.push({ name: `policy-${i}.pdf`, bytes: await makePdf(pages, { seed: i }), expected: 'ready' });
    } else if (kind === 1) {
      files.push({ name: `handbook-${i}.docx`, bytes: await makeDocx(pages, { seed: i }), expected: 'ready' });
    } else {
      const text = `# Control ${i}\n\nBackups run daily and are kept ${i + 7} days. Restores are tested every quarter.\n`;
      files.push({ name: `note-${i}.${kind === 2 ? 'md' : 'txt'}`, bytes: Buffer.from(text), expected: 'ready' });
    }
  }
  return files;
}

/** What a fresh extraction of each fixture gives: the chunk count a document must end with, no more, no fewer. */
export async function freshChunkCounts(fixtures: CrashFixture[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const f of fixtures) {
    if (f.expected === 'ready') counts.set(f.name, (await extractDocument(f.bytes, f.name)).chunks.length);
  }
  return counts;
}

/** Every file under a local storage root, half-written uploads (`.part`) included, as storage keys. */
export function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** How many of a crash test's documents are settled (ready or failed) and how many are still being extracted. */
export type ExtractionCounts = { settled: number; processing: number };

/**
 * Waits for the moment a crash test kills its process: some documents settled and several still being extracted,
 * so the kill cuts extractions short. Returns the counts at that moment.
 */
export function midExtraction(counts: () => Promise<ExtractionCounts>): Promise<ExtractionCounts> {
  return waitUntil(
    async () => {
      const c = await counts();
      if (c.settled < 4 || c.processing < 6) throw new Error(`not the moment yet: ${JSON.stringify(c)}`);
      return c;
    },
    { interval: 20 },
  );
}

/** Waits until no document is being extracted any more (after the restart or the takeover). */
export async function extractionsSettled(counts: () => Promise<ExtractionCounts>): Promise<void> {
  await waitUntil(
    async () => {
      const c = await counts();
      if (c.processing > 0) throw new Error(`still processing: ${JSON.stringify(c)}`);
    },
    { interval: 100 },
  );
}

/** Per document: its row and what its stored chunks look like. */
export async function documentState(db: Db, ids: string[]) {
  const rows = await db.select().from(documents).where(inArray(documents.id, ids));
  const chunks = await db
    .select({ documentId: documentChunks.documentId, ordinal: documentChunks.ordinal })
    .from(documentChunks)
    .where(inArray(documentChunks.documentId, ids));
  return rows.map((row) => {
    const ordinals = chunks.filter((c) => c.documentId === row.id).map((c) => c.ordinal);
    return {
      ...row,
      chunks: ordinals.length,
      distinctOrdinals: new Set(ordinals).size,
      maxOrdinal: ordinals.length > 0 ? Math.max(...ordinals) : -1,
    };
  });
}

/** Signs up over HTTP against a server process; returns the session cookie. */
export async function signUpOverHttp(base: string, name: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: name,
      email: `${name}@example.com`,
      password: 'secret-1234',
      organizationName: name,
    }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** Uploads and registers a document over HTTP as a browser does (upload URL, PUT, registration). Returns its id. */
export async function uploadOverHttp(base: string, cookie: string, file: CrashFixture): Promise<string> {
  const link = await fetch(`${base}/api/objects/upload`, { method: 'POST', headers: { cookie } });
  if (link.status !== 200) throw new Error(`upload URL failed: ${link.status} ${await link.text()}`);
  const { uploadURL } = (await link.json()) as { uploadURL: string };
  const put = await fetch(uploadURL, { method: 'PUT', body: Buffer.from(file.bytes) });
  if (put.status !== 200) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  const reg = await fetch(`${base}/api/documents`, {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      documentURL: uploadURL,
      originalName: file.name,
      mimeType: 'application/octet-stream',
      size: file.bytes.length,
      tags: [],
    }),
  });
  if (reg.status !== 201) throw new Error(`registration failed: ${reg.status} ${await reg.text()}`);
  return ((await reg.json()) as { id: string }).id;
}

/** `npm run worker` in its own process (DATABASE_URL in env), its output kept for failure messages. */
export function startWorkerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, output: () => output, kill };
}
