import { documents } from '../../server/db/schema';
import { newUploadKey } from '../../server/storage/keys';
import type { TestApp } from './app';
import { call, type Session } from './api';
import { waitUntil } from './wait';

/** The path and query of an absolute upload URL, for app.inject. */
export function localPath(uploadURL: string): string {
  const u = new URL(uploadURL);
  return `${u.pathname}${u.search}`;
}

/** Asks for an upload URL and PUTs the bytes to it, as Uppy does. Returns the URL. */
export async function uploadObject(app: TestApp, as: Session, bytes: Uint8Array): Promise<string> {
  const res = await call(app, 'POST', '/api/objects/upload', { as });
  if (res.statusCode !== 200) throw new Error(`upload url failed: ${res.statusCode} ${res.body}`);
  const put = await app.inject({
    method: 'PUT',
    url: localPath(res.data.uploadURL),
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(bytes),
  });
  if (put.statusCode !== 200) throw new Error(`PUT failed: ${put.statusCode} ${put.body}`);
  return res.data.uploadURL as string;
}

/** Uploads and registers a document (PRODUCT §6 Upload), returning the registration response. */
export async function uploadDocument(
  app: TestApp,
  as: Session,
  bytes: Uint8Array,
  originalName: string,
  extra: { tags?: string[]; mimeType?: string; size?: number } = {},
) {
  const documentURL = await uploadObject(app, as, bytes);
  return call(app, 'PUT', '/api/documents', {
    as,
    body: {
      documentURL,
      originalName,
      mimeType: extra.mimeType ?? 'application/octet-stream',
      size: extra.size ?? bytes.length,
      tags: extra.tags ?? ['uploaded'],
    },
  });
}

/** Waits until the worker has finished with a document (ready or failed) and returns it. */
export async function settledDocument(app: TestApp, as: Session, id: string) {
  return waitUntil(
    async () => {
      const res = await call(app, 'GET', `/api/documents/${id}`, { as });
      if (res.data?.status === 'processing') throw new Error('still processing');
      return res.data as {
        id: string;
        status: 'ready' | 'failed';
        error: string | null;
        extractedChunks: number;
        pageCount: number | null;
        kind: string;
        mimeType: string;
        originalName: string;
      };
    },
    { interval: 50 },
  );
}

/**
 * A document row written straight into the database as the worker leaves it (ready, by default), without a file:
 * for states no API call makes on demand (a claim, an exhausted try, a broken row).
 */
export async function plantDocument(
  app: TestApp,
  org: { organizationId: string; workspaceId: string },
  values: Partial<typeof documents.$inferInsert> = {},
) {
  const [doc] = await app.database.db
    .insert(documents)
    .values({
      organizationId: org.organizationId,
      workspaceId: org.workspaceId,
      storageKey: newUploadKey(org.organizationId),
      originalName: 'policy.txt',
      mimeType: 'text/plain',
      kind: 'text',
      size: 10,
      status: 'ready',
      ...values,
    })
    .returning();
  if (!doc) throw new Error('no document');
  return doc;
}
