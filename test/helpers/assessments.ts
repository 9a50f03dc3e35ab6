import { expect } from 'vitest';
import type { TestApp } from './app';
import { call, type Session } from './api';
import { waitUntil } from './wait';

/** A multipart body as a browser's FormData would send it, for app.inject. */
export async function multipartBody(
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array | string; type?: string },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) {
    const data = typeof file.bytes === 'string' ? new TextEncoder().encode(file.bytes) : file.bytes;
    form.append('file', new Blob([data], { type: file.type ?? 'application/octet-stream' }), file.name);
  }
  const req = new Request('http://multipart.invalid', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type') ?? '' },
  };
}

/** POSTs a multipart form through the real HTTP stack as the given user. */
export async function postMultipart(
  app: TestApp,
  url: string,
  as: Session,
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array | string; type?: string },
) {
  const { payload, headers } = await multipartBody(fields, file);
  return call(app, 'POST', url, {
    as,
    body: payload,
    headers: { ...headers, ...(as.workspaceId && { 'x-workspace-id': as.workspaceId }) },
  });
}

export async function importCsv(app: TestApp, as: Session, csvContent: string, name = 'Vendor review') {
  const res = await call(app, 'POST', '/api/assessments/import-csv', {
    as,
    body: { csvContent, name, metadata: { customerName: 'Acme', assessmentType: 'SIG Lite', sourceFile: 'q.csv' } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data as { id: string; totalQuestions: number; estimatedTime: string };
}

export type Detail = {
  batch: { id: string; status: string; completedAt: string | null; processedQuestions: number; error: string | null };
  questions: Array<{
    id: string;
    orderIndex: number;
    question: string;
    answer: string | null;
    answerType: string | null;
    confidence: number | null;
    status: string;
    errorMessage: string | null;
    sources: Array<{ type: string; canonicalAnswerId?: string; confidence: number }>;
    sourceChanged: boolean;
    conflictsWith: number[];
    edited: boolean;
    reviewState: string;
    savedToLibrary: { status: string } | null;
  }>;
  progress: { completed: number; pending: number; failed: number; total: number; percentage: number };
};

export async function detail(app: TestApp, as: Session, id: string): Promise<Detail> {
  const res = await call(app, 'GET', `/api/assessments/${id}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as Detail;
}

/** Waits (polling, no fixed sleep) until the worker has finished the batch, for as long as the test may run. */
export function waitForBatch(app: TestApp, as: Session, id: string): Promise<Detail> {
  return waitUntil(
    async () => {
      const d = await detail(app, as, id);
      if (d.batch.status === 'processing') throw new Error(`batch still processing: ${JSON.stringify(d.progress)}`);
      return d;
    },
    { interval: 50 },
  );
}
