import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, createTenant, createTenantPair, type Tenant } from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';
import { localPath, settledDocument, uploadDocument, uploadObject } from './helpers/documents';
import { signUpload } from '../server/storage/signing';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

/** A small real PDF, one string per page. */
function pdf(pages: string[], opts: { userPassword?: string } = {}): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      autoFirstPage: false,
      ...(opts.userPassword && { userPassword: opts.userPassword }),
    });
    const parts: Buffer[] = [];
    doc.on('data', (b: Buffer) => parts.push(b));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(parts))));
    doc.on('error', reject);
    for (const text of pages) {
      doc.addPage();
      doc.fontSize(12).text(text);
    }
    doc.end();
  });
}

const policyText =
  'Access Control Policy. All employees must use multi-factor authentication. Access is reviewed every quarter.';
const objectFile = (key: string) => path.join(inject('objectsDir'), key);
const keyOf = (url: string) => /org\/[^?]+/.exec(new URL(url).pathname)?.[0] ?? '';

describe('upload and processing', () => {
  it('uploads through a signed URL, registers, extracts per page, and counts the document in stats', async () => {
    const org = await createOrg(app);
    const bytes = await pdf([policyText, 'Encryption Policy. Data at rest is encrypted with AES-256.']);
    const res = await uploadDocument(app, org.admin, bytes, 'Security Policies.pdf', { tags: ['uploaded', 'policy'] });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({
      originalName: 'Security Policies.pdf',
      mimeType: 'application/pdf',
      kind: 'pdf',
      size: bytes.length,
      tags: ['uploaded', 'policy'],
      status: 'processing',
      uploadedBy: { id: org.admin.id },
    });
    const done = await settledDocument(app, org.admin, res.data.id);
    expect(done).toMatchObject({ status: 'ready', error: null, pageCount: 2 });
    expect(done.extractedChunks).toBeGreaterThanOrEqual(2);

    const chunks = await call(app, 'GET', `/api/documents/${res.data.id}/chunks`, { as: org.admin });
    expect(chunks.headers['x-total-count']).toBe(String(done.extractedChunks));
    expect(chunks.data[0]).toMatchObject({ ordinal: 0, page: 1 });
    expect(chunks.data.map((c: { text: string }) => c.text).join(' ')).toContain('AES-256');
    expect(chunks.data.at(-1).page).toBe(2);

    const list = await call(app, 'GET', '/api/documents', { as: org.admin });
    expect(list.data.map((d: { id: string }) => d.id)).toEqual([res.data.id]);
    const stats = await call(app, 'GET', '/api/organizations/stats', { as: org.admin });
    expect(stats.data.documentCount).toBe(1);
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data[0]).toMatchObject({ action: 'document_uploaded', entityId: res.data.id });
  });

  it('takes the type from the content: a text file with a .md name is Markdown, a PDF named .txt is a PDF', async () => {
    const org = await createOrg(app);
    const md = await uploadDocument(app, org.admin, Buffer.from('# Backups\n\nDaily backups, kept 35 days.\n'), 'b.md');
    expect(md.data).toMatchObject({ kind: 'markdown' });
    const disguised = await uploadDocument(app, org.admin, await pdf([policyText]), 'notes.txt');
    expect(disguised.data).toMatchObject({ kind: 'pdf', mimeType: 'application/pdf' });
    expect((await settledDocument(app, org.admin, md.data.id)).status).toBe('ready');
  });

  it('marks a password-protected or corrupt PDF failed with a reason', async () => {
    const org = await createOrg(app);
    const locked = await uploadDocument(app, org.admin, await pdf([policyText], { userPassword: 'secret' }), 'l.pdf');
    const corrupt = await uploadDocument(
      app,
      org.admin,
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 7)]),
      'c.pdf',
    );
    const l = await settledDocument(app, org.admin, locked.data.id);
    expect(l).toMatchObject({ status: 'failed', extractedChunks: 0 });
    expect(l.error).toContain('password-protected');
    const c = await settledDocument(app, org.admin, corrupt.data.id);
    expect(c.status).toBe('failed');
    expect(c.error).toMatch(/damaged|not a valid PDF/);
  });
});

describe('POST /api/objects/upload and the signed PUT', () => {
  it('refuses a tampered, re-targeted or expired signature with 403, and a used link with 409', async () => {
    const res = await call(app, 'POST', '/api/objects/upload', { as: t.users.contributor });
    expect(res.data.uploadURL).toMatch(/\/api\/objects\/local\/org\/.+\?expires=\d+&max=52428800&sig=/);
    const url = new URL(res.data.uploadURL);
    const put = (u: string) =>
      app.inject({ method: 'PUT', url: u, payload: Buffer.from('hello'), headers: { 'content-type': 'text/plain' } });

    const tampered = new URL(url);
    tampered.searchParams.set('sig', `${url.searchParams.get('sig')?.slice(0, -2)}xx`);
    expect((await put(`${tampered.pathname}${tampered.search}`)).statusCode).toBe(403);
    const bigger = new URL(url);
    bigger.searchParams.set('max', '999999999');
    expect((await put(`${bigger.pathname}${bigger.search}`)).statusCode).toBe(403);
    const other = await createOrg(app);
    const moved = `${url.pathname.replace(t.organizationId, other.organizationId)}${url.search}`;
    expect((await put(moved)).statusCode).toBe(403);

    const key = keyOf(res.data.uploadURL);
    const expires = Math.floor(Date.now() / 1000) - 1;
    const sig = signUpload(app.config.sessionSecret ?? '', { key, expires, maxBytes: 100 });
    const expired = await put(`/api/objects/local/${key}?expires=${expires}&max=100&sig=${sig}`);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toBe('The upload link has expired. Start the upload again.');

    expect((await put(localPath(res.data.uploadURL))).statusCode).toBe(200);
    expect((await put(localPath(res.data.uploadURL))).statusCode).toBe(409);
  });

  it('refuses a body over the signed maximum with 413 and keeps nothing', async () => {
    const res = await call(app, 'POST', '/api/objects/upload', { as: t.users.admin });
    const key = keyOf(res.data.uploadURL);
    const expires = Math.floor(Date.now() / 1000) + 60;
    const sig = signUpload(app.config.sessionSecret ?? '', { key, expires, maxBytes: 1000 });
    const over = await app.inject({
      method: 'PUT',
      url: `/api/objects/local/${key}?expires=${expires}&max=1000&sig=${sig}`,
      payload: Buffer.alloc(5000, 1),
    });
    expect(over.statusCode).toBe(413);
    expect(fs.existsSync(objectFile(key))).toBe(false);
    expect(fs.readdirSync(path.dirname(objectFile(key))).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('gives upload URLs to contributors and up only', async () => {
    await expectRolePolicy(app, t, 'documents:upload', () => ({ method: 'POST', url: '/api/objects/upload' }));
    expect((await call(app, 'POST', '/api/objects/upload')).statusCode).toBe(401);
  });
});

describe('PUT /api/documents (registration) with bad input', () => {
  it('refuses unknown, foreign, missing, mismatched, empty and disguised uploads, leaving no file behind', async () => {
    const org = await createOrg(app);
    const other = await createOrg(app);
    const foreignUrl = await uploadObject(app, other.admin, Buffer.from('their file'));
    const never = (await call(app, 'POST', '/api/objects/upload', { as: org.admin })).data.uploadURL as string;
    const mismatch = await uploadObject(app, org.admin, Buffer.from('twelve bytes'));
    const empty = await uploadObject(app, org.admin, new Uint8Array());
    const exe = await uploadObject(app, org.admin, Buffer.concat([Buffer.from('MZ'), Buffer.alloc(3000, 0x90)]));
    const register = (documentURL: string, originalName: string, size: number) =>
      call(app, 'PUT', '/api/documents', { as: org.admin, body: { documentURL, originalName, size, tags: [] } });

    const cases: Array<[Promise<{ statusCode: number; data: { error: string } }>, number, RegExp]> = [
      [register('https://evil.example/file.pdf', 'a.pdf', 10), 400, /not an upload link made by Verity/],
      [register(foreignUrl, 'a.txt', 10), 404, /not found/],
      [register(never, 'a.txt', 10), 400, /never uploaded/],
      [register(mismatch, 'a.txt', 999), 400, /has 12 bytes, not the 999 stated/],
      [register(empty, 'a.txt', 0), 400, /The file is empty/],
      [register(exe, 'policy.pdf', 3002), 400, /not a PDF|not supported/],
    ];
    for (const [pending, status, message] of cases) {
      const res = await pending;
      expect(res.statusCode, res.data.error).toBe(status);
      expect(res.data.error).toMatch(message);
    }
    for (const url of [mismatch, empty, exe]) expect(fs.existsSync(objectFile(keyOf(url)))).toBe(false);
    expect(fs.existsSync(objectFile(keyOf(foreignUrl)))).toBe(true);
    expect((await call(app, 'GET', '/api/documents', { as: org.admin })).data).toEqual([]);
    expect((await call(app, 'GET', '/api/documents', { as: other.admin })).data).toEqual([]);
  });

  it('keeps only the file name of a path-like name and refuses a second registration', async () => {
    const org = await createOrg(app);
    const url = await uploadObject(app, org.admin, Buffer.from('Plain text policy about backups.'));
    const body = { documentURL: url, originalName: '../../etc/passwd.txt', size: 32, tags: [] };
    const first = await call(app, 'PUT', '/api/documents', { as: org.admin, body });
    expect(first.data.originalName).toBe('passwd.txt');
    expect((await call(app, 'PUT', '/api/documents', { as: org.admin, body })).statusCode).toBe(409);
  });

  it('validates the payload', async () => {
    const cases: Array<[unknown, string]> = [
      [{ originalName: 'a.pdf' }, 'documentURL is required'],
      [{ documentURL: 'x', originalName: '', size: 1 }, 'originalName is required'],
      [{ documentURL: 'x', originalName: 'a.pdf', size: 60_000_000 }, 'Files can be at most 50 MB'],
      [{ documentURL: 'x', originalName: 'a.pdf', tags: 'uploaded' }, 'Tags must be a list'],
    ];
    for (const [body, message] of cases) {
      const res = await call(app, 'PUT', '/api/documents', { as: t.users.admin, body });
      expect(res.statusCode).toBe(400);
      expect(res.data.error).toContain(message);
    }
  });
});

describe('list, download, export and delete', () => {
  it('searches by name or tag, filters by type, downloads the original, and exports a dated CSV', async () => {
    const org = await createOrg(app);
    const p = await uploadDocument(app, org.admin, await pdf([policyText]), 'Access Policy.pdf', {
      tags: ['uploaded', 'iam'],
    });
    const text = Buffer.from('Incident response runbook: page the on-call engineer within 15 minutes.');
    const txt = await uploadDocument(app, org.admin, text, 'runbook.txt');
    const names = async (query: string) =>
      (await call(app, 'GET', `/api/documents${query}`, { as: org.admin })).data.map(
        (d: { originalName: string }) => d.originalName,
      );
    expect(await names('?q=access')).toEqual(['Access Policy.pdf']);
    expect(await names('?q=IAM')).toEqual(['Access Policy.pdf']);
    expect(await names('?type=pdf')).toEqual(['Access Policy.pdf']);
    expect(await names('?type=text')).toEqual(['runbook.txt']);
    expect(await names('?type=image')).toEqual([]);
    expect((await call(app, 'GET', '/api/documents?type=exe', { as: org.admin })).statusCode).toBe(400);

    const dl = await app.inject({
      method: 'GET',
      url: `/api/documents/${txt.data.id}/download`,
      headers: { cookie: org.admin.cookie },
    });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(text)).toBe(true);
    expect(dl.headers['content-type']).toContain('text/plain');
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="runbook.txt"; filename*=UTF-8''runbook.txt`);

    const csv = await call(app, 'POST', '/api/documents/export', {
      as: org.admin,
      body: { documentIds: [p.data.id, txt.data.id] },
    });
    expect(csv.headers['content-disposition']).toMatch(/filename="documents-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(csv.body).toContain('Access Policy.pdf');
    expect(csv.body).toContain('uploaded; iam');
  });

  it('deletes one or many (managers and admins), removing files and chunks', async () => {
    const org = await createTenant(app);
    const docs = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      docs.push((await uploadDocument(app, org.admin, Buffer.from(`Policy text for ${name}.`), name)).data);
    }
    await settledDocument(app, org.admin, docs[0].id);
    await expectRolePolicy(app, org, 'documents:delete', async () => {
      const d = (await uploadDocument(app, org.admin, Buffer.from('Role matrix file text.'), 'r.txt')).data;
      return { method: 'DELETE', url: `/api/documents/${d.id}` };
    });
    const one = await call(app, 'DELETE', `/api/documents/${docs[0].id}`, { as: org.users.manager });
    expect(one.statusCode).toBe(200);
    const urls = (await call(app, 'GET', `/api/documents/${docs[0].id}`, { as: org.admin })).statusCode;
    expect(urls).toBe(404);
    const bulk = await call(app, 'POST', '/api/documents/bulk-delete', {
      as: org.admin,
      body: { documentIds: [docs[1].id, docs[2].id] },
    });
    expect(bulk.data).toEqual({ deleted: 2 });
    // Only the role matrix's files that viewer and contributor could not delete are left.
    const left = (await call(app, 'GET', '/api/documents', { as: org.admin })).data;
    expect(left.map((d: { originalName: string }) => d.originalName)).toEqual(['r.txt', 'r.txt']);
    const keys = fs.readdirSync(path.join(inject('objectsDir'), 'org', org.organizationId, 'uploads'));
    expect(keys).toHaveLength(2);
    const again = await call(app, 'POST', '/api/documents/bulk-delete', {
      as: org.admin,
      body: { documentIds: [docs[1].id] },
    });
    expect(again.statusCode).toBe(404);
    const chunks = await call(app, 'GET', `/api/documents/${docs[0].id}/chunks`, { as: org.admin });
    expect(chunks.statusCode).toBe(404);
  });
});

describe('tenant isolation', () => {
  it("never lists, reads, downloads, exports or deletes another organization's documents", async () => {
    const { a, b } = await createTenantPair(app);
    const doc = (await uploadDocument(app, a.admin, Buffer.from('Organization A confidential policy.'), 'a.txt')).data;
    const tries = await Promise.all([
      call(app, 'GET', `/api/documents/${doc.id}`, { as: b.admin }),
      call(app, 'GET', `/api/documents/${doc.id}/chunks`, { as: b.admin }),
      call(app, 'GET', `/api/documents/${doc.id}/download`, { as: b.admin }),
      call(app, 'DELETE', `/api/documents/${doc.id}`, { as: b.admin }),
      call(app, 'POST', '/api/documents/bulk-delete', { as: b.admin, body: { documentIds: [doc.id] } }),
      call(app, 'POST', '/api/documents/export', { as: b.admin, body: { documentIds: [doc.id] } }),
    ]);
    for (const res of tries) expect(res.statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/documents', { as: b.admin })).data).toEqual([]);
    expect((await call(app, 'GET', `/api/documents/${doc.id}`, { as: a.users.viewer })).statusCode).toBe(200);
    await expectRolePolicy(app, a, 'documents:read', () => ({ method: 'GET', url: `/api/documents/${doc.id}` }));
  });
});
