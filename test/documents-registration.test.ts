import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createOrg, createTenant, createUser } from './helpers/factories';
import { settledDocument, uploadDocument, uploadObject } from './helpers/documents';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const POLICY = Buffer.from('Backups run every night and are kept for 35 days in a second region.');

/** Uploads and registers as the upload widget does: asking when the bytes are already a document. */
async function uploadAsking(as: Session, bytes: Buffer, originalName: string) {
  const documentURL = await uploadObject(app, as, bytes);
  return call(app, 'PUT', '/api/documents', {
    as,
    body: { documentURL, originalName, size: bytes.length, tags: ['uploaded'], ifDuplicate: 'ask' },
  });
}

async function listNames(as: Session) {
  const res = await call(app, 'GET', '/api/documents', { as });
  return (res.data as Array<{ originalName: string }>).map((d) => d.originalName).sort();
}

describe('registering a file the workspace already has (same SHA-256)', () => {
  it('is refused with 409 duplicate_document naming the existing document, and the upload can be registered again', async () => {
    const org = await createOrg(app);
    const first = await uploadDocument(app, org.admin, POLICY, 'backup-policy.txt');
    expect(first.statusCode).toBe(201);

    const documentURL = await uploadObject(app, org.admin, POLICY);
    const body = {
      documentURL,
      originalName: 'backup-policy (1).txt',
      size: POLICY.length,
      tags: ['uploaded'],
      ifDuplicate: 'ask',
    };
    const again = await call(app, 'PUT', '/api/documents', { as: org.admin, body });
    expect(again.statusCode).toBe(409);
    expect(again.data).toMatchObject({
      code: 'duplicate_document',
      error: 'This file is already in the library as "backup-policy.txt". Replace it or keep both.',
      details: { documentId: first.data.id, originalName: 'backup-policy.txt' },
    });
    expect(await listNames(org.admin)).toEqual(['backup-policy.txt']);

    // Keep both: the same upload link registers as a second document.
    const kept = await call(app, 'PUT', '/api/documents', { as: org.admin, body: { ...body, ifDuplicate: 'keep' } });
    expect(kept.statusCode).toBe(201);
    expect(kept.data.id).not.toBe(first.data.id);
    expect(await listNames(org.admin)).toEqual(['backup-policy (1).txt', 'backup-policy.txt']);
  });

  it('replace keeps the existing document (id and text) under the new name and tags, without a second copy', async () => {
    const org = await createOrg(app);
    const first = await uploadDocument(app, org.admin, POLICY, 'old-name.txt', { tags: ['uploaded', 'old'] });
    await settledDocument(app, org.admin, first.data.id);

    const documentURL = await uploadObject(app, org.admin, POLICY);
    const body = {
      documentURL,
      originalName: 'backups.txt',
      size: POLICY.length,
      tags: ['uploaded', 'backup'],
      ifDuplicate: 'ask',
    };
    const asked = await call(app, 'PUT', '/api/documents', { as: org.admin, body });
    expect(asked.statusCode).toBe(409);
    const replaced = await call(app, 'PUT', '/api/documents', {
      as: org.admin,
      body: { ...body, ifDuplicate: 'replace' },
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.data).toMatchObject({
      id: first.data.id,
      originalName: 'backups.txt',
      tags: ['uploaded', 'backup'],
      status: 'ready',
    });
    expect(await listNames(org.admin)).toEqual(['backups.txt']);
    const chunks = await call(app, 'GET', `/api/documents/${String(first.data.id)}/chunks`, { as: org.admin });
    expect(chunks.data[0].text).toContain('Backups run every night');
    // The upload link is used up: it cannot register a third time.
    const reused = await call(app, 'PUT', '/api/documents', { as: org.admin, body: { ...body, ifDuplicate: 'keep' } });
    expect(reused.statusCode).toBe(409);
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data[0]).toMatchObject({ action: 'document_replaced', entityId: first.data.id });
  });

  it('different bytes, or the same bytes in another organization or workspace, are not duplicates', async () => {
    const org = await createOrg(app);
    const other = await createOrg(app);
    await uploadDocument(app, org.admin, POLICY, 'a.txt');
    expect((await uploadAsking(org.admin, Buffer.from(`${POLICY.toString()} Extra.`), 'b.txt')).statusCode).toBe(201);
    expect((await uploadAsking(other.admin, POLICY, 'a.txt')).statusCode).toBe(201);

    const ws = await call(app, 'POST', '/api/workspaces', { as: org.admin, body: { name: 'Second workspace' } });
    expect(ws.statusCode).toBe(201);
    const inSecond = { ...org.admin, workspaceId: ws.data.id as string };
    expect((await uploadAsking(inSecond, POLICY, 'a.txt')).statusCode).toBe(201);
  });

  it('a client that sends no choice keeps both, as registration always did', async () => {
    const org = await createOrg(app);
    expect((await uploadDocument(app, org.admin, POLICY, 'a.txt')).statusCode).toBe(201);
    expect((await uploadDocument(app, org.admin, POLICY, 'b.txt')).statusCode).toBe(201);
    expect(await listNames(org.admin)).toEqual(['a.txt', 'b.txt']);
  });

  it('refuses an unknown choice', async () => {
    const org = await createOrg(app);
    const documentURL = await uploadObject(app, org.admin, POLICY);
    const res = await call(app, 'PUT', '/api/documents', {
      as: org.admin,
      body: { documentURL, originalName: 'a.txt', size: POLICY.length, ifDuplicate: 'overwrite' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toContain('ifDuplicate must be ask, replace or keep');
  });

  it('a contributor may upload and choose too; a viewer may not register at all', async () => {
    const tenant = await createTenant(app);
    await uploadDocument(app, tenant.admin, POLICY, 'a.txt');
    const contributor = tenant.users.contributor;
    const asked = await uploadAsking(contributor, POLICY, 'c.txt');
    expect(asked.statusCode).toBe(409);
    const viewer = await createUser(app, tenant.admin, 'viewer');
    const documentURL = await uploadObject(app, tenant.admin, POLICY);
    const res = await call(app, 'PUT', '/api/documents', {
      as: viewer,
      body: { documentURL, originalName: 'v.txt', size: POLICY.length, ifDuplicate: 'keep' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('duplicates registered at the same time, and replacing someone else’s document', () => {
  it('two registrations of the same bytes at once keep one document and ask about the other', async () => {
    const org = await createOrg(app);
    const [a, b] = await Promise.all([
      uploadAsking(org.admin, POLICY, 'policy-a.txt'),
      uploadAsking(org.admin, POLICY, 'policy-b.txt'),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect(await listNames(org.admin)).toHaveLength(1);
  });

  it('a contributor replaces only a document they uploaded; a manager may replace anyone’s, keeping its uploader', async () => {
    const tenant = await createTenant(app);
    const first = await uploadDocument(app, tenant.admin, POLICY, 'admin-policy.txt');
    const contributor = tenant.users.contributor;
    const documentURL = await uploadObject(app, contributor, POLICY);
    const body = { documentURL, originalName: 'renamed.txt', size: POLICY.length, tags: ['x'], ifDuplicate: 'replace' };
    const refused = await call(app, 'PUT', '/api/documents', { as: contributor, body });
    expect(refused.statusCode).toBe(403);
    expect(refused.data.error).toBe(
      '"admin-policy.txt" was uploaded by someone else: only a manager or admin can replace it. Keep both instead.',
    );
    expect(await listNames(tenant.admin)).toEqual(['admin-policy.txt']);
    // The upload was given back: the contributor may still keep both.
    const kept = await call(app, 'PUT', '/api/documents', { as: contributor, body: { ...body, ifDuplicate: 'keep' } });
    expect(kept.statusCode).toBe(201);

    const managerUrl = await uploadObject(app, tenant.users.manager, POLICY);
    const replaced = await call(app, 'PUT', '/api/documents', {
      as: tenant.users.manager,
      body: { ...body, documentURL: managerUrl, originalName: 'policy-2026.txt' },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    // The newest copy (the contributor's) is the one replaced: renamed, still theirs, no third copy.
    expect(replaced.data.id).toBe(kept.data.id);
    expect(await listNames(tenant.admin)).toEqual(['admin-policy.txt', 'policy-2026.txt']);
    expect(first.data.id).not.toBe(kept.data.id);
  });
});

describe('a file whose content is refused', () => {
  it('is refused with code file_refused and a sentence, so the widget knows a retry cannot help', async () => {
    const org = await createOrg(app);
    const corrupt = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]);
    const res = await uploadDocument(app, org.admin, corrupt, 'policy.docx');
    expect(res.statusCode).toBe(400);
    expect(res.data.code).toBe('file_refused');
    expect(res.data.error).toMatch(/\.$/);
  });
});
