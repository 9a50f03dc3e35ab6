/**
 * The dataset of bench:quality loaded into a fresh embedded database through the real API, shared by the runner
 * (`run.ts`) and the model fitting (`fit.ts`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { createMailer } from '../../server/mail/mailer';
import { createStorage } from '../../server/storage/create';
import { startWorker } from '../../server/worker/worker';
import { closeExtractionThreads, extractInThread } from '../../server/ingest/thread';
import type { Scope } from '../../server/engine/retrieve';

export type LibraryItem = { id: string; question: string; answer: string; tags: string[] };
export type Expect =
  { kind: 'library'; entry: string } | { kind: 'document'; document: string; facts: string[] } | { kind: 'none' };
export type Question = { id: string; question: string; style: string; expect: Expect; split: 'tune' | 'test' };

const dir = path.dirname(new URL(import.meta.url).pathname);
export const library = JSON.parse(fs.readFileSync(path.join(dir, 'library.json'), 'utf8')) as LibraryItem[];

function loadQuestions(): Question[] {
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Question[];
  const all = read('questions.json');
  const extraFile = 'questions-tune-extra.json';
  if (fs.existsSync(path.join(dir, extraFile))) {
    for (const q of read(extraFile)) {
      if (q.split !== 'tune') throw new Error(`${extraFile}: ${q.id} must be in split "tune"`);
      all.push(q);
    }
  }
  const seen = new Set<string>();
  for (const q of all) {
    if (seen.has(q.id)) throw new Error(`bench/quality: question id ${q.id} is used more than once`);
    seen.add(q.id);
  }
  return all;
}

/**
 * questions.json, followed by the extra tuning questions of questions-tune-extra.json (ids X001…, all split "tune")
 * when that file is present.
 */
export const questions = loadQuestions();
export const docDir = path.join(dir, 'documents');
export const docFiles = fs.readdirSync(docDir).filter((f) => /\.(md|txt|html)$/.test(f));

export type Bench = {
  api: (method: string, url: string, body?: unknown) => Promise<unknown>;
  /** The workspace the data went into, for calling the engine directly. */
  scope: Scope;
  /** Database id of an imported entry → its dataset id (L001…). */
  labelOf: Map<string, string | null>;
  close: () => Promise<void>;
};

export async function openBench(env: NodeJS.ProcessEnv = {}): Promise<Bench> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-quality-'));
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = loadConfig({ ...env, DATA_DIR: dataDir, SESSION_SECRET: 'bench-secret-bench-secret-bench' });
  const log = pino({ level: 'silent' });
  const storage = createStorage(config);
  const worker = startWorker({ db: database.db, storage, log, extract: extractInThread, concurrency: 1, pollMs: 100 });
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage, wakeWorker: worker.wake });
  const close = async () => {
    await app.close();
    await worker.stop();
    await closeExtractionThreads();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'bench',
        email: 'bench@example.com',
        password: 'bench-pass',
        organizationName: 'Bench',
      }),
    });
    const cookie = (reg.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { cookie, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<unknown>;
    };

    await api('POST', '/api/canonical-answers/import', {
      entries: library.map((l) => ({ question: l.question, answer: l.answer, tags: l.tags, source: 'bench' })),
    });
    const rows = (await api('GET', '/api/canonical-answers?limit=10000')) as Array<{ id: string; question: string }>;
    const labelOf = new Map(rows.map((r) => [r.id, library.find((l) => l.question === r.question)?.id ?? null]));

    for (const f of docFiles) {
      const bytes = fs.readFileSync(path.join(docDir, f));
      const { uploadURL } = (await api('POST', '/api/objects/upload')) as { uploadURL: string };
      // The URL names PUBLIC_URL's port; this server listens on a free one.
      const target = new URL(uploadURL);
      await fetch(`${base}${target.pathname}${target.search}`, { method: 'PUT', body: bytes });
      await api('PUT', '/api/documents', { documentURL: uploadURL, originalName: f, size: bytes.length, tags: [] });
    }
    for (;;) {
      const docs = (await api('GET', '/api/documents')) as Array<{
        status: string;
        originalName: string;
        error: string;
      }>;
      const failed = docs.find((d) => d.status === 'failed');
      if (failed) throw new Error(`${failed.originalName} failed: ${failed.error}`);
      if (docs.every((d) => d.status === 'ready')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const me = (await api('GET', '/api/auth/me')) as { user: { organizationId: string } };
    const ws = (await api('GET', '/api/workspaces')) as Array<{ id: string }>;
    const scope = { db: database.db, organizationId: me.user.organizationId, workspaceId: ws[0]?.id ?? '' };
    return { api, scope, labelOf, close };
  } catch (err) {
    await close();
    throw err;
  }
}
