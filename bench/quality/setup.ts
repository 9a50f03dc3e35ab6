/**
 * The companies of bench:quality (README.md), each loaded into a fresh embedded database through the real API,
 * shared by the runner (`run.ts`) and the model fitting (`fit.ts`).
 *
 * - `companies/<slug>/`: a fictional company with its own library (in its own writing style), documents, and
 *   questions whose text is verbatim from real public questionnaires, each with its family (caiq, hecvat, samm, sig).
 * - The folder itself holds Northwind Ledger, the first dataset, whose questions were written to imitate
 *   questionnaire styles by the same hand as its library: it is used for fitting, reported apart, never as a
 *   held-out family.
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
import type { Scope } from '../../server/engine/retrieval/retrieve';
import { embedPending } from '../../server/worker/embed-sweep';
import type { Embedder } from '../../server/embedding/embedder';
import { signUpOverHttp } from '../over-http';

export type LibraryItem = { id: string; question: string; answer: string; tags: string[] };
export type Expect =
  | { kind: 'library'; entries: string[] }
  /** A right document answer carries every fact, and most of the words of `passage` when one is labelled. */
  | { kind: 'document'; document: string; facts: string[]; passage?: string }
  | { kind: 'none' };
export type Question = { id: string; question: string; family: string; company: string; expect: Expect };
export type Company = {
  slug: string;
  /** Written by the same hand as its library: fitted on, reported apart. */
  synthetic: boolean;
  /** A training company (training-companies.ts): its questions are fitted on, never judged. */
  fitOnly?: boolean;
  library: LibraryItem[];
  docDir: string;
  docFiles: string[];
  questions: Question[];
};

const dir = path.dirname(new URL(import.meta.url).pathname);
const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;
const docsIn = (docDir: string) => fs.readdirSync(docDir).filter((f) => /\.(md|txt|html)$/.test(f));

type RawQuestion = {
  id: string;
  question: string;
  family?: string;
  style?: string;
  expect: { kind: 'library'; entry?: string; entries?: string[] } | Exclude<Expect, { kind: 'library' }>;
};

function toQuestion(q: RawQuestion, company: string, family: string): Question {
  const expect: Expect =
    q.expect.kind === 'library'
      ? { kind: 'library', entries: q.expect.entries ?? (q.expect.entry ? [q.expect.entry] : []) }
      : q.expect;
  return { id: `${company}/${q.id}`, question: q.question, family, company, expect };
}

function northwind(): Company {
  const raw = [
    ...readJson<RawQuestion[]>(path.join(dir, 'questions.json')),
    ...readJson<RawQuestion[]>(path.join(dir, 'questions-tune-extra.json')),
  ];
  const docDir = path.join(dir, 'documents');
  return {
    slug: 'northwind',
    synthetic: true,
    library: readJson<LibraryItem[]>(path.join(dir, 'library.json')),
    docDir,
    docFiles: docsIn(docDir),
    questions: raw.map((q) => toQuestion(q, 'northwind', 'synthetic')),
  };
}

/** Every company, Northwind first; ONLY=slug,slug limits them. */
export function loadCompanies(): Company[] {
  const root = path.join(dir, 'companies');
  const slugs = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((s) => fs.existsSync(path.join(root, s, 'questions.json')))
        .sort()
    : [];
  const all = [
    northwind(),
    ...slugs.map((slug): Company => {
      const docDir = path.join(root, slug, 'documents');
      return {
        slug,
        synthetic: false,
        library: readJson<LibraryItem[]>(path.join(root, slug, 'library.json')),
        docDir,
        docFiles: docsIn(docDir),
        questions: readJson<RawQuestion[]>(path.join(root, slug, 'questions.json')).map((q) =>
          toQuestion(q, slug, q.family ?? 'unknown'),
        ),
      };
    }),
  ];
  const only = process.env.ONLY?.split(',').filter(Boolean);
  return only ? all.filter((c) => only.includes(c.slug)) : all;
}

export type Bench = {
  api: (method: string, url: string, body?: unknown) => Promise<unknown>;
  /** The workspace the data went into, for calling the engine directly. */
  scope: Scope;
  /** Database id of an imported entry → its dataset id (L001…). */
  labelOf: Map<string, string | null>;
  close: () => Promise<void>;
};

/**
 * A fresh embedded database with the company's library and documents loaded through the API; with an embedder,
 * every entry and chunk is embedded (by the same sweep the worker runs) before it returns.
 */
export async function openBench(company: Company, embedder: Embedder | null = null): Promise<Bench> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-quality-'));
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-secret-bench-secret-bench',
    EMBEDDING_PROVIDER: 'none',
  });
  const log = pino({ level: 'silent' });
  const storage = createStorage(config);
  const worker = startWorker({ db: database.db, storage, log, extract: extractInThread, concurrency: 1, pollMs: 100 });
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage, wakeWorker: worker.wake, embedder });
  const close = async () => {
    await app.close();
    await worker.stop();
    await closeExtractionThreads();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const { cookie } = await signUpOverHttp(base, {
      username: 'bench',
      email: 'bench@example.com',
      organizationName: 'Bench',
    });
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
      entries: company.library.map((l) => ({ question: l.question, answer: l.answer, tags: l.tags, source: 'bench' })),
    });
    const rows = (await api('GET', '/api/canonical-answers?limit=10000')) as Array<{ id: string; question: string }>;
    const labelOf = new Map(
      rows.map((r) => [r.id, company.library.find((l) => l.question === r.question)?.id ?? null]),
    );

    for (const f of company.docFiles) {
      const bytes = fs.readFileSync(path.join(company.docDir, f));
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
    if (embedder) {
      for (;;) {
        const r = await embedPending(database.db, embedder, { log });
        if (r.embedded === 0 && !r.more) break;
      }
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
