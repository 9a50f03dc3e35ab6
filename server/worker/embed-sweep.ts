import { and, eq, inArray, isNull, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { inTenant } from '../tenancy';
import type { FastifyBaseLogger } from 'fastify';
import { canonicalAnswers as ca, documentChunks as dc } from '../db/schema';
import { inTransaction, type Db } from '../db/client';
import { wakeableSleep } from './wakeable-sleep';
import { EMBED_BATCH, LlmError } from '../llm/client';
import type { Embedder } from '../embedding/embedder';
import { workspaceChanges } from '../engine/retrieval/change-count';

/**
 * Embeddings are computed here, in the background (ARCHITECTURE §7), never while a user waits: an import of 10,000
 * entries or a 300-page policy only makes rows whose `embedding` is null (or of another model), and this sweep
 * fills them in batches, one workspace at a time, so one request to the endpoint never mixes two tenants' text.
 *
 * Several workers may sweep at once. Rows are not claimed (that would mean a transaction held open across an HTTP
 * call, which on the embedded database blocks every other query); instead each worker takes a random batch of a
 * workspace's waiting rows, and the write is idempotent and content-checked: it stores the vector only if the
 * row still has the text that was embedded. Two workers on the same rows waste a call, never store a wrong vector.
 */

/** Batches for one workspace before the sweep moves on to the next, so one big import does not starve others. */
const BATCHES_PER_WORKSPACE = 16;
/** A row the endpoint refused on its own is left alone this long (per process), then tried again. */
const SKIP_FOR_MS = 3600_000;
const SKIP_MAX = 1000;

export type EmbedSweepResult = { embedded: number; more: boolean };

type Workspace = { organizationId: string; workspaceId: string };
type Pending = { id: string; text: string; check: SQL | undefined };

/** Rows refused by the endpoint one by one (e.g. a provider's content filter), with when to try them again. */
export class SkipList {
  private readonly until = new Map<string, number>();
  add(id: string) {
    if (this.until.size >= SKIP_MAX) this.until.delete(this.until.keys().next().value ?? '');
    this.until.set(id, Date.now() + SKIP_FOR_MS);
  }
  ids(): string[] {
    const now = Date.now();
    for (const [id, t] of this.until) if (t <= now) this.until.delete(id);
    return [...this.until.keys()];
  }
}

const needsEntry = (model: string) =>
  and(
    inArray(ca.status, ['approved', 'draft']),
    or(isNull(ca.embedding), isNull(ca.embeddingModel), ne(ca.embeddingModel, model)),
  );
const needsChunk = (model: string) => or(isNull(dc.embedding), isNull(dc.embeddingModel), ne(dc.embeddingModel, model));

async function pendingWorkspaces(db: Db, model: string): Promise<Workspace[]> {
  const cols = (t: typeof ca | typeof dc) => ({ organizationId: t.organizationId, workspaceId: t.workspaceId });
  const a = await db.selectDistinct(cols(ca)).from(ca).where(needsEntry(model)).limit(1000);
  const c = await db.selectDistinct(cols(dc)).from(dc).where(needsChunk(model)).limit(1000);
  const seen = new Map<string, Workspace>();
  for (const w of [...a, ...c]) seen.set(w.workspaceId, w);
  // Shuffled, so that two workers starting together tend to work on different workspaces.
  return [...seen.values()].sort(() => Math.random() - 0.5);
}

async function pendingEntries(db: Db, ws: Workspace, model: string, skip: string[], limit: number): Promise<Pending[]> {
  const rows = await db
    .select({ id: ca.id, question: ca.question, answer: ca.answer })
    .from(ca)
    .where(and(inTenant(ca, ws), needsEntry(model), skip.length ? notInArray(ca.id, skip) : undefined))
    .orderBy(sql`random()`)
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    text: `${r.question}\n${r.answer}`,
    // Stored only if the entry still says what was embedded (an edit meanwhile waits for the next sweep).
    check: and(eq(ca.question, r.question), eq(ca.answer, r.answer)),
  }));
}

async function pendingChunks(db: Db, ws: Workspace, model: string, skip: string[], limit: number): Promise<Pending[]> {
  const rows = await db
    .select({ id: dc.id, section: dc.section, text: dc.text })
    .from(dc)
    .where(and(inTenant(dc, ws), needsChunk(model), skip.length ? notInArray(dc.id, skip) : undefined))
    .orderBy(sql`random()`)
    .limit(limit);
  // A chunk's text never changes (reprocessing makes new rows), so no content check is needed.
  return rows.map((r) => ({ id: r.id, text: r.section ? `${r.section}\n${r.text}` : r.text, check: undefined }));
}

/** A failure of the endpoint itself (try the batch later), as opposed to one it has with these texts. */
function isTransient(err: unknown): boolean {
  // The built-in model fails a text only for the text itself, unless its thread went away.
  if (!(err instanceof LlmError))
    return /embedding thread|ECONN|ETIMEDOUT/i.test(err instanceof Error ? err.message : '');
  if (err.reason === 'timeout' || err.reason === 'network' || err.reason === 'not_configured') return true;
  return (
    err.reason === 'http' && (err.status === undefined || err.status >= 500 || [408, 409, 429].includes(err.status))
  );
}

/**
 * Embeds the rows; a batch the endpoint refuses for its content is split until the refused rows are found and
 * skipped. Transient failures (timeout, network, 5xx, 429) are thrown: the whole sweep backs off.
 */
type SweepOptions = { log: FastifyBaseLogger; skip?: SkipList; shouldStop?: () => boolean; signal?: AbortSignal };

async function embedRows(
  embedder: Embedder,
  rows: Pending[],
  skip: SkipList,
  opts: SweepOptions,
): Promise<Array<{ row: Pending; vector: number[] | undefined }>> {
  try {
    const vectors = await embedder.embedPassages(
      rows.map((r) => r.text),
      { signal: opts.signal },
    );
    return rows.map((row, i) => {
      const v = vectors[i];
      return { row, vector: v ? Array.from(v) : undefined };
    });
  } catch (err) {
    if (isTransient(err)) throw err;
    if (rows.length === 1) {
      const [row] = rows;
      if (row) skip.add(row.id);
      opts.log.warn({ err, id: row?.id }, 'this text could not be embedded; skipping it for an hour');
      return [];
    }
    const half = Math.ceil(rows.length / 2);
    return [
      ...(await embedRows(embedder, rows.slice(0, half), skip, opts)),
      ...(await embedRows(embedder, rows.slice(half), skip, opts)),
    ];
  }
}

async function embedBatch(
  db: Db,
  embedder: Embedder,
  model: string,
  ws: Workspace,
  kind: 'entries' | 'chunks',
  skip: SkipList,
  opts: SweepOptions,
): Promise<{ embedded: number; full: boolean }> {
  const rows =
    kind === 'entries'
      ? await pendingEntries(db, ws, model, skip.ids(), EMBED_BATCH)
      : await pendingChunks(db, ws, model, skip.ids(), EMBED_BATCH);
  if (rows.length === 0) return { embedded: 0, full: false };
  const done = await embedRows(embedder, rows, skip, opts);
  let embedded = 0;
  // Rows are written in id order: two workers whose random batches overlap then lock the shared rows in the
  // same order, and PostgreSQL never sees the wait cycle it would report as a deadlock.
  const ordered = [...done].sort((a, b) => (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
  await inTransaction(db, async (tx) => {
    for (const { row, vector } of ordered) {
      if (!vector) continue;
      const set = { embedding: vector, embeddingModel: model };
      const res =
        kind === 'entries'
          ? await tx
              .update(ca)
              .set(set)
              .where(and(eq(ca.id, row.id), inTenant(ca, ws), row.check))
              .returning({ id: ca.id })
          : await tx
              .update(dc)
              .set(set)
              .where(and(eq(dc.id, row.id), inTenant(dc, ws)))
              .returning({ id: dc.id });
      embedded += res.length;
    }
  });
  // Each row written above added a change row for the workspace; folded here, batch by batch, rather than by the
  // first question after a long sweep.
  await workspaceChanges({ db, workspaceId: ws.workspaceId });
  return { embedded, full: rows.length === EMBED_BATCH };
}

/**
 * One pass: for each workspace with waiting rows, up to BATCHES_PER_WORKSPACE batches of entries, then of chunks.
 * `more` says whether rows are probably still waiting (a batch came back full), so the caller goes on at once.
 */
export async function embedPending(db: Db, embedder: Embedder, opts: SweepOptions): Promise<EmbedSweepResult> {
  const model = embedder.model;
  const skip = opts.skip ?? new SkipList();
  let embedded = 0;
  let more = false;
  for (const ws of await pendingWorkspaces(db, model)) {
    for (const kind of ['entries', 'chunks'] as const) {
      for (let i = 0; i < BATCHES_PER_WORKSPACE; i += 1) {
        if (opts.shouldStop?.()) return { embedded, more: true };
        const r = await embedBatch(db, embedder, model, ws, kind, skip, opts);
        embedded += r.embedded;
        if (!r.full) break;
        if (i === BATCHES_PER_WORKSPACE - 1) more = true;
      }
    }
  }
  return { embedded, more };
}

export type EmbedLoop = { wake: () => void; stop: () => Promise<void> };

/**
 * The sweep as a background loop beside the document worker (its own loop, so a slow endpoint never holds up
 * document extraction): sweeps every `everyMs`, at once while rows keep coming, and backs off exponentially (up to
 * five minutes) while the endpoint fails.
 */
export function startEmbedLoop(opts: {
  db: Db;
  embedder: Embedder;
  log: FastifyBaseLogger;
  everyMs: number;
}): EmbedLoop {
  let stopped = false;
  let failures = 0;
  const skip = new SkipList();
  // Stopping aborts a call in flight instead of waiting out the endpoint's timeout.
  const abort = new AbortController();

  const idle = wakeableSleep();
  const pause = idle.sleep;

  const loop = async () => {
    while (!stopped) {
      let delay = opts.everyMs;
      try {
        const r = await embedPending(opts.db, opts.embedder, {
          log: opts.log,
          skip,
          shouldStop: () => stopped,
          signal: abort.signal,
        });
        if (r.embedded > 0) opts.log.debug({ embedded: r.embedded }, 'embeddings computed');
        failures = 0;
        if (r.more) delay = 0;
      } catch (err) {
        failures += 1;
        delay = Math.min(opts.everyMs * 2 ** failures, 5 * 60_000);
        if (!stopped)
          opts.log.warn(
            { err, reason: err instanceof Error ? err.message : String(err), retryInMs: delay },
            'computing embeddings failed; trying again later',
          );
      }
      if (!stopped) await (delay > 0 ? pause(delay) : Promise.resolve());
    }
  };
  const done = loop();
  return {
    wake: idle.wake,
    stop: async () => {
      stopped = true;
      abort.abort();
      idle.wake();
      await done;
    },
  };
}
