import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { createOrg } from '../helpers/factories';
import { localPath, uploadDocument, uploadObject } from '../helpers/documents';
import { postMultipart } from '../helpers/assessments';
import { checkIntegrity } from '../../server/ops/integrity';
import { documents, uploadLinks } from '../../server/db/schema';
import { sweepExpiredUploads } from '../../server/worker/sweep';

// Issue 16, findings 2, 5, 11 and 13 and the upload "info" items: single-use links under concurrency, quotas,
// re-registration, NUL and invisible characters, workspace deletion, and a chunked body over the limit.
let app: TestApp;
let limited: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
  limited = await createTestApp({ worker: false, env: { STORAGE_QUOTA_MB: '1', UPLOAD_LINKS_MAX: '3' } });
});
afterAll(async () => {
  await app.close();
  await limited.close();
});

const objectFile = (key: string) => path.join(inject('objectsDir'), key);
const keyOf = (url: string) => /org\/[^?]+/.exec(new URL(url).pathname)?.[0] ?? '';
const put = (target: TestApp, url: string, body: Buffer) =>
  target.inject({ method: 'PUT', url: localPath(url), payload: body, headers: { 'content-type': 'text/plain' } });
const partFiles = (key: string) => fs.readdirSync(path.dirname(objectFile(key))).filter((f) => f.endsWith('.part'));

describe('a single-use upload link (finding 2)', () => {
  it('takes exactly one of several PUTs sent at once, leaving no temporary file and no 500', async () => {
    const org = await createOrg(app);
    const { uploadURL } = (await call(app, 'POST', '/api/objects/upload', { as: org.admin })).data;
    const bodies = ['first body of text', 'second body, longer', 'third'].map((t) => Buffer.from(t));
    const results = await Promise.all(bodies.map((b) => put(app, uploadURL, b)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    const winner = bodies[results.findIndex((r) => r.statusCode === 200)];
    expect(fs.readFileSync(objectFile(keyOf(uploadURL))).equals(winner as Buffer)).toBe(true);
    expect(partFiles(keyOf(uploadURL))).toEqual([]);
  });

  it('refuses a second PUT on the same URL once the first is registered', async () => {
    const org = await createOrg(app);
    const original = Buffer.from('Encryption at rest uses AES-256.');
    const url = await uploadObject(app, org.admin, original);
    const reg = await call(app, 'PUT', '/api/documents', {
      as: org.admin,
      body: { documentURL: url, originalName: 'enc.txt', size: original.length, tags: [] },
    });
    expect(reg.statusCode).toBe(201);
    const replay = await put(app, url, Buffer.from('Encryption is optional.'));
    expect(replay.statusCode).toBe(409);
    expect(fs.readFileSync(objectFile(keyOf(url))).equals(original)).toBe(true);
    const dl = await app.inject({
      method: 'GET',
      url: `/api/documents/${reg.data.id}/download`,
      headers: { cookie: org.admin.cookie },
    });
    expect(dl.rawPayload.equals(original)).toBe(true);
    const problems = await checkIntegrity(app.database.db, app.deps.storage, { organizationIds: [org.organizationId] });
    expect(problems).toEqual([]);
  });

  it('stores size and SHA-256 on the row, and integrity reports a file whose size or content changed', async () => {
    const org = await createOrg(app);
    const text = Buffer.from('Incident response: page the on-call engineer within 15 minutes.');
    const a = await uploadDocument(app, org.admin, text, 'a.txt');
    const b = await uploadDocument(app, org.admin, Buffer.from(text), 'b.txt');
    const docs = await app.database.db
      .select({ id: documents.id, storageKey: documents.storageKey, size: documents.size, sha256: documents.sha256 })
      .from(documents)
      .where(eq(documents.organizationId, org.organizationId));
    const sha = crypto.createHash('sha256').update(text).digest('hex');
    expect(docs.map((d) => [d.size, d.sha256])).toEqual([
      [text.length, sha],
      [text.length, sha],
    ]);
    const byId = new Map(docs.map((d) => [d.id, d]));
    const fileA = objectFile(byId.get(a.data.id)?.storageKey ?? '');
    const fileB = objectFile(byId.get(b.data.id)?.storageKey ?? '');
    // Same length, other content; then other length.
    fs.writeFileSync(fileA, Buffer.from(text.toString().replace('15', '99')));
    fs.writeFileSync(fileB, Buffer.from('short'));
    const problems = await checkIntegrity(app.database.db, app.deps.storage, { organizationIds: [org.organizationId] });
    expect(problems.map((p) => [p.check, p.ids])).toEqual([
      ['object_size_mismatch', [b.data.id]],
      ['object_checksum_mismatch', [a.data.id]],
    ]);
  });
});

describe('registration (finding 11)', () => {
  it('answers 409 to a second registration with a wrong size, and keeps the file', async () => {
    const org = await createOrg(app);
    const bytes = Buffer.from('Vendor risk reviews happen every year.');
    const url = await uploadObject(app, org.admin, bytes);
    const body = { documentURL: url, originalName: 'vendors.txt', size: bytes.length, tags: [] };
    const first = await call(app, 'PUT', '/api/documents', { as: org.admin, body });
    expect(first.statusCode).toBe(201);
    const second = await call(app, 'PUT', '/api/documents', { as: org.admin, body: { ...body, size: 999 } });
    expect(second.statusCode).toBe(409);
    expect(second.data.error).toBe('This upload is already registered as a document.');
    expect(fs.existsSync(objectFile(keyOf(url)))).toBe(true);
    const dl = await app.inject({
      method: 'GET',
      url: `/api/documents/${first.data.id}/download`,
      headers: { cookie: org.admin.cookie },
    });
    expect(dl.statusCode).toBe(200);
  });

  it('needs the signed URL: the key alone (or a forged query) registers nothing and deletes nothing', async () => {
    const org = await createOrg(app);
    const bytes = Buffer.from('Access reviews are quarterly.');
    const url = await uploadObject(app, org.admin, bytes);
    const bare = new URL(url);
    const forged = new URL(url);
    forged.searchParams.set('sig', 'forged');
    for (const documentURL of [`${bare.origin}${bare.pathname}`, keyOf(url), forged.toString()]) {
      const res = await call(app, 'PUT', '/api/documents', {
        as: org.admin,
        body: { documentURL, originalName: 'access.txt', size: 1, tags: [] },
      });
      expect(res.statusCode, documentURL).toBe(400);
      expect(res.data.error).toMatch(/upload link Verity gave/);
    }
    expect(fs.existsSync(objectFile(keyOf(url)))).toBe(true);
    const ok = await call(app, 'PUT', '/api/documents', {
      as: org.admin,
      body: { documentURL: url, originalName: 'access.txt', size: bytes.length, tags: [] },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('registers an upload once when two registrations race', async () => {
    const org = await createOrg(app);
    const bytes = Buffer.from('Logs are kept for one year.');
    const url = await uploadObject(app, org.admin, bytes);
    const body = { documentURL: url, originalName: 'logs.txt', size: bytes.length, tags: [] };
    const results = await Promise.all([1, 2, 3].map(() => call(app, 'PUT', '/api/documents', { as: org.admin, body })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect((await call(app, 'GET', '/api/documents', { as: org.admin })).data).toHaveLength(1);
    expect(fs.existsSync(objectFile(keyOf(url)))).toBe(true);
  });
});

describe('storage quota and outstanding links (finding 5)', () => {
  it('refuses upload links past the outstanding maximum with 429 and Retry-After, until one is used', async () => {
    const org = await createOrg(limited);
    const urls: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await call(limited, 'POST', '/api/objects/upload', { as: org.admin });
      expect(res.statusCode).toBe(200);
      urls.push(res.data.uploadURL);
    }
    const fourth = await call(limited, 'POST', '/api/objects/upload', { as: org.admin });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.data.error).toMatch(/3 uploads in progress/);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    // Another organization is not held up by this one.
    const other = await createOrg(limited);
    expect((await call(limited, 'POST', '/api/objects/upload', { as: other.admin })).statusCode).toBe(200);

    expect((await put(limited, urls[0] ?? '', Buffer.from('one small file'))).statusCode).toBe(200);
    expect((await call(limited, 'POST', '/api/objects/upload', { as: org.admin })).statusCode).toBe(200);
  });

  it("refuses uploads, links and registrations past the organization's quota with 413 and a sentence", async () => {
    const org = await createOrg(limited);
    const quotaMessage = "Your organization's storage quota of 1 MB is used up; delete documents to make room.";
    const big = Buffer.alloc(700 * 1024, 'a');
    const first = await uploadDocument(limited, org.admin, big, 'big.txt');
    expect(first.statusCode).toBe(201);

    const announced = await call(limited, 'POST', '/api/objects/upload', { as: org.admin, body: { size: big.length } });
    expect(announced.statusCode).toBe(413);
    expect(announced.data.error).toBe(quotaMessage);

    const link = (await call(limited, 'POST', '/api/objects/upload', { as: org.admin })).data.uploadURL as string;
    const over = await put(limited, link, big);
    expect(over.statusCode).toBe(413);
    expect(over.json().error).toBe(quotaMessage);
    expect(fs.existsSync(objectFile(keyOf(link)))).toBe(false);
    expect(partFiles(keyOf(link))).toEqual([]);

    // Questionnaire originals count too.
    const csv = `Question\n${'Do you encrypt data at rest? '.repeat(12_000)}\n`;
    const imported = await postMultipart(
      limited,
      '/api/assessments/import',
      org.admin,
      { name: 'Big' },
      {
        name: 'q.csv',
        bytes: csv,
        type: 'text/csv',
      },
    );
    expect(imported.statusCode).toBe(413);
    expect(imported.data.error).toBe(quotaMessage);

    // Deleting makes room again.
    expect((await call(limited, 'DELETE', `/api/documents/${first.data.id}`, { as: org.admin })).statusCode).toBe(200);
    expect((await put(limited, link, big)).statusCode).toBe(200);
  });

  it('sweeps uploads never registered once their link has expired, not a day later', async () => {
    const org = await createOrg(app);
    const abandoned = await uploadObject(app, org.admin, Buffer.from('never registered'));
    const kept = await uploadDocument(app, org.admin, Buffer.from('registered text file'), 'kept.txt');
    const prefix = `org/${org.organizationId}/`;
    expect(await sweepExpiredUploads(app.database.db, app.deps.storage)).not.toContain(keyOf(abandoned));
    await app.database.db
      .update(uploadLinks)
      .set({ expiresAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(uploadLinks.organizationId, org.organizationId));
    await sweepExpiredUploads(app.database.db, app.deps.storage);
    expect(fs.existsSync(objectFile(keyOf(abandoned)))).toBe(false);
    const left = fs.readdirSync(path.join(inject('objectsDir'), prefix, 'uploads'));
    expect(left).toHaveLength(1);
    const dl = await app.inject({
      method: 'GET',
      url: `/api/documents/${kept.data.id}/download`,
      headers: { cookie: org.admin.cookie },
    });
    expect(dl.statusCode).toBe(200);
    // The link is gone with its file: registering it now is refused, and nothing breaks.
    const late = await call(app, 'PUT', '/api/documents', {
      as: org.admin,
      body: { documentURL: abandoned, originalName: 'late.txt', size: 16, tags: [] },
    });
    expect(late.statusCode).toBe(400);
  });
});

describe('names and form fields (finding 13 and the invisible-character item)', () => {
  it('answers 400, not 500, to NUL in a multipart field or file name', async () => {
    const org = await createOrg(app);
    const csv = 'Question\nDo you encrypt data at rest?\n';
    const cases = [
      postMultipart(
        app,
        '/api/assessments/import',
        org.admin,
        { name: 'Vendor\u0000review' },
        {
          name: 'q.csv',
          bytes: csv,
          type: 'text/csv',
        },
      ),
      postMultipart(
        app,
        '/api/assessments/import',
        org.admin,
        { name: 'Vendor review' },
        {
          name: 'q\u0000.csv',
          bytes: csv,
          type: 'text/csv',
        },
      ),
      postMultipart(app, '/api/assessments/preview', org.admin, {}, { name: 'q\u0000.csv', bytes: csv }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.data.error).not.toMatch(/insert|select|\$\d/i);
    }
  });

  it('refuses bidirectional overrides and other invisible characters in file names', async () => {
    const org = await createOrg(app);
    const bytes = Buffer.from('Plain text policy about patching.');
    for (const originalName of ['invoice\u202Efdp.txt', 'a\u200Bb.txt', 'x\u2066y.txt', 'bell\u0007.txt']) {
      const url = await uploadObject(app, org.admin, bytes);
      const res = await call(app, 'PUT', '/api/documents', {
        as: org.admin,
        body: { documentURL: url, originalName, size: bytes.length, tags: [] },
      });
      expect(res.statusCode, JSON.stringify(originalName)).toBe(400);
      expect(res.data.error).toMatch(/invisible|control/);
    }
    const csv = 'Question\nDo you patch monthly?\n';
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      org.admin,
      { name: 'Review' },
      {
        name: 'q\u202Evsc.xlsx',
        bytes: csv,
        type: 'text/csv',
      },
    );
    expect(res.statusCode).toBe(400);
    // Ordinary non-Latin names still pass.
    const ok = await uploadDocument(app, org.admin, bytes, 'Richtlinie – Änderungen 日本.txt');
    expect(ok.statusCode).toBe(201);
  });
});

describe('workspace deletion', () => {
  it("deletes the workspace's stored files at once", async () => {
    const org = await createOrg(app);
    const ws = await call(app, 'POST', '/api/workspaces', { as: org.admin, body: { name: 'Doomed' } });
    expect(ws.statusCode).toBe(201);
    const inWs = { ...org.admin, workspaceId: ws.data.id as string };
    const doc = await uploadDocument(app, inWs, Buffer.from('A policy in the doomed workspace.'), 'p.txt');
    expect(doc.statusCode).toBe(201);
    const csv = 'Question\nDo you encrypt backups?\n';
    const batch = await postMultipart(
      app,
      '/api/assessments/import',
      inWs,
      { name: 'Doomed review' },
      {
        name: 'q.csv',
        bytes: csv,
        type: 'text/csv',
      },
    );
    expect(batch.statusCode).toBe(201);
    const dir = path.join(inject('objectsDir'), 'org', org.organizationId, 'uploads');
    expect(fs.readdirSync(dir)).toHaveLength(2);
    const del = await call(app, 'DELETE', `/api/workspaces/${ws.data.id}`, { as: org.admin });
    expect(del.statusCode).toBe(200);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('a chunked upload over 50 MB (info item)', () => {
  it('gets a 413 with its sentence, not a reset connection', async () => {
    const org = await createOrg(app);
    const { uploadURL } = (await call(app, 'POST', '/api/objects/upload', { as: org.admin })).data;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: localPath(uploadURL),
          headers: { 'transfer-encoding': 'chunked' },
        },
        (r) => {
          let body = '';
          r.setEncoding('utf8');
          r.on('data', (d: string) => (body += d));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      let sent = 0;
      const pump = () => {
        while (sent < 51) {
          sent += 1;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toBe('Files can be at most 50 MB.');
    expect(fs.existsSync(objectFile(keyOf(uploadURL)))).toBe(false);
    expect(partFiles(keyOf(uploadURL))).toEqual([]);
  });
});
