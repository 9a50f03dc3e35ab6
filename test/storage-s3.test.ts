import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../server/storage/s3';
import { newUploadKey } from '../server/storage/keys';
import { freePort } from './helpers/processes';
import { createTestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg } from './helpers/factories';
import { checkIntegrity } from '../server/ops/integrity';
import { documents } from '../server/db/schema';

// The S3 driver against a real local server speaking the S3 protocol (s3rver), never a mock of the SDK.
let server: S3rver;
let dir: string;
let storage: S3Storage;
let endpoint = '';
const storageEndpoint = () => endpoint;
const orgId = '2f1c9a3e-5b7d-4c1e-9f0a-1b2c3d4e5f60';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-s3rver-'));
  const port = await freePort();
  server = new S3rver({
    port,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: 'docs' }],
  });
  await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  storage = new S3Storage({
    endpoint,
    region: 'us-east-1',
    bucket: 'docs',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('S3 storage driver', () => {
  it('takes a browser PUT on a presigned URL, then heads, reads, lists, streams and deletes the object', async () => {
    const key = newUploadKey(orgId);
    const body = Buffer.from('Access Control Policy: MFA everywhere.');
    const url = await storage.createUploadUrl(key, { maxBytes: 1000, expiresInSeconds: 60, size: body.length });
    expect(url).toContain('X-Amz-Signature=');
    const put = await fetch(url, { method: 'PUT', body });
    expect(put.status).toBe(200);

    expect(await storage.head(key)).toEqual({ size: body.length });
    expect(Buffer.from(await storage.read(key)).toString()).toBe(body.toString());
    expect(Buffer.from(await storage.readStart(key, 6)).toString()).toBe('Access');
    const chunks: Buffer[] = [];
    for await (const c of await storage.stream(key)) chunks.push(Buffer.from(c as Uint8Array));
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
    expect((await storage.list(`org/${orgId}/`)).map((o) => o.key)).toEqual([key]);

    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
  });

  it('never reads or writes a key outside the upload layout', async () => {
    // (Signature checks are the store's job; s3rver does not enforce them, AWS and MinIO do.)
    await expect(storage.head('../../etc/passwd')).rejects.toThrow('Invalid object key');
    await expect(storage.createUploadUrl(`org/${orgId}/other/x`, { maxBytes: 1, expiresInSeconds: 1 })).rejects.toThrow(
      'Invalid object key',
    );
  });
});

describe('documents on the S3 driver', () => {
  it('seals a registered upload: a replayed presigned PUT changes neither the download nor integrity', async () => {
    const app = await createTestApp({
      worker: false,
      env: {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: storageEndpoint(),
        S3_BUCKET: 'docs',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    try {
      const org = await createOrg(app);
      // The store limits a presigned PUT only by the signed length, so a link without the size is refused.
      const unsized = await call(app, 'POST', '/api/objects/upload', { as: org.admin });
      expect(unsized.statusCode).toBe(400);
      expect(unsized.data.error).toMatch(/file's size/);
      const original = Buffer.from('Backups are encrypted and kept for 35 days.');
      const link = await call(app, 'POST', '/api/objects/upload', { as: org.admin, body: { size: original.length } });
      const uploadURL = link.data.uploadURL as string;
      expect((await fetch(uploadURL, { method: 'PUT', body: original })).status).toBe(200);
      const body = { documentURL: uploadURL, originalName: 'backups.txt', size: original.length, tags: [] };
      const reg = await call(app, 'PUT', '/api/documents', { as: org.admin, body });
      expect(reg.statusCode).toBe(201);
      expect((await call(app, 'PUT', '/api/documents', { as: org.admin, body })).statusCode).toBe(409);

      // The presigned URL still works at the store until it expires; it now writes a key no document uses.
      const replaced = Buffer.from('Backups are optional and kept for 1 day..');
      expect((await fetch(uploadURL, { method: 'PUT', body: replaced })).status).toBe(200);
      const dl = await app.inject({
        method: 'GET',
        url: `/api/documents/${reg.data.id}/download`,
        headers: { cookie: org.admin.cookie },
      });
      expect(dl.rawPayload.equals(original)).toBe(true);
      const problems = await checkIntegrity(app.database.db, app.deps.storage, {
        organizationIds: [org.organizationId],
        uploadGraceMs: 3600_000,
      });
      expect(problems).toEqual([]);
      const [row] = await app.database.db.select().from(documents).where(eq(documents.id, reg.data.id));
      expect(row?.sha256).toBe(crypto.createHash('sha256').update(original).digest('hex'));
    } finally {
      await app.close();
    }
  });
});
