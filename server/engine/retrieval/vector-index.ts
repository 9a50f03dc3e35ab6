import { and, asc, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import { inTenant } from '../../tenancy';
import { canonicalAnswers as ca, documentChunks as dc } from '../../db/schema';
import type { Scope } from './retrieve';
import { VectorTable, type VectorHit } from '../../embedding/vector-table';
import { changeCount } from './change-count';

export type { VectorHit };

/**
 * Nearest-neighbour search over a workspace's stored embeddings without pgvector (STACK-NOTES: it is not available
 * everywhere). Each process keeps, per workspace, every embedded library entry and chunk in an int8 VectorTable
 * (server/embedding/vector-table.ts: 100,000 chunks in 38 MB, scanned in milliseconds). The index follows the
 * database: the workspace's change count for embedded rows (change-count.ts, one indexed lookup) is checked at most
 * every CHECK_EVERY_MS, and when it moved only the rows that changed are fetched, so a library being embedded batch
 * by batch is never reloaded whole.
 */

type WorkspaceIndex = {
  organizationId: string;
  model: string;
  entries: VectorTable | null;
  chunks: VectorTable | null;
  fingerprint: string;
  checkedAt: number;
  refreshing: Promise<void> | null;
  /** Resolves when a first load turns out too big to wait for (WAIT_FOR_ROWS). */
  tooBig: Promise<void>;
  releaseWaiters: () => void;
};

/** How stale the index may be: an edit or a newly embedded document is searchable this long after it lands. */
const CHECK_EVERY_MS = 500;
/**
 * A request waits this long for the first load of a workspace's index before searching what it holds so far. Later
 * refreshes run in the background: a request searches the index as it was, the next one sees the refresh.
 */
const MAX_WAIT_MS = 3000;
/**
 * A first load that has more rows than this to fetch does not make the request wait at all: it is answered from the
 * lexical index meanwhile (100,000 chunks take tens of seconds on the embedded database). A small workspace's first
 * load takes milliseconds and its first question waits for it.
 */
const WAIT_FOR_ROWS = 2000;
/** Vectors per query: ~25 ms of the embedded database's thread for 100 rows of 384 floats. */
const FETCH_PAGE = 100;
/** Chunk ids per listing query, in id order. */
const LIST_PAGE = 5000;
const MAX_WORKSPACES = 100;

const indexes = new Map<string, WorkspaceIndex>();

/** The vector scaled to length 1, or null for a zero or non-finite vector (it would match nothing meaningfully). */
export function normalize(values: ArrayLike<number>): Float32Array | null {
  let norm = 0;
  for (let i = 0; i < values.length; i += 1) norm += (values[i] ?? 0) * (values[i] ?? 0);
  norm = Math.sqrt(norm);
  if (!Number.isFinite(norm) || norm === 0) return null;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i += 1) out[i] = (values[i] ?? 0) / norm;
  return out;
}

const entryFilter = (s: Scope, model: string) =>
  and(
    inTenant(ca, s),
    inArray(ca.status, ['approved', 'draft']),
    eq(ca.embeddingModel, model),
    isNotNull(ca.embedding),
  );
const chunkFilter = (s: Scope, model: string) =>
  and(inTenant(dc, s), eq(dc.embeddingModel, model), isNotNull(dc.embedding));

/** Brings one table in line with the database: drops rows that left, fetches rows that are new or changed. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function sync(
  table: VectorTable | null,
  keys: Array<{ id: string; key: string }>,
  fetch: (ids: string[]) => Promise<Array<{ id: string; key: string; embedding: number[] | null }>>,
  onWanted: (rows: number) => void,
): Promise<VectorTable | null> {
  const live = new Set<string>();
  const wanted: string[] = [];
  for (const { id, key } of keys) {
    live.add(id);
    if (table?.key(id) !== key) wanted.push(id);
  }
  if (table) for (const id of table.heldIds()) if (!live.has(id)) table.delete(id);
  onWanted(wanted.length);
  for (let i = 0; i < wanted.length; i += FETCH_PAGE) {
    // A page's query resolves as a microtask: without a turn of the event loop between pages, loading a large
    // workspace (100,000 chunks: ~30 s on the embedded database) would hold every other tenant's requests.
    if (i > 0) await nextTurn();
    for (const row of await fetch(wanted.slice(i, i + FETCH_PAGE))) {
      if (!row.embedding || row.embedding.length === 0) {
        table?.delete(row.id);
        continue;
      }
      // One model gives one dimension; a table is made for the first vector it sees.
      table ??= new VectorTable(row.embedding.length);
      if (!table.set(row.id, row.key, row.embedding)) table.delete(row.id);
    }
  }
  return table;
}

async function refresh(s: Scope, ix: WorkspaceIndex, known: string | undefined) {
  const fp = known ?? (await changeCount(s, 'vectors'));
  ix.checkedAt = Date.now();
  if (fp === ix.fingerprint) return;
  let wanted = 0;
  const onWanted = (rows: number) => {
    wanted += rows;
    if (wanted > WAIT_FOR_ROWS) ix.releaseWaiters();
  };
  const entryKeys = await s.db.select({ id: ca.id, version: ca.version }).from(ca).where(entryFilter(s, ix.model));
  ix.entries = await sync(
    ix.entries,
    entryKeys.map((r) => ({ id: r.id, key: `${r.id}:${r.version}` })),
    async (ids) =>
      (
        await s.db
          .select({ id: ca.id, version: ca.version, embedding: ca.embedding })
          .from(ca)
          .where(and(entryFilter(s, ix.model), inArray(ca.id, ids)))
      ).map((r) => ({ id: r.id, key: `${r.id}:${r.version}`, embedding: r.embedding })),
    onWanted,
  );
  const chunkKeys = await listChunkIds(s, ix.model);
  ix.chunks = await sync(
    ix.chunks,
    chunkKeys.map((r) => ({ id: r.id, key: r.id })),
    async (ids) =>
      (
        await s.db
          .select({ id: dc.id, embedding: dc.embedding })
          .from(dc)
          .where(and(chunkFilter(s, ix.model), inArray(dc.id, ids)))
      ).map((r) => ({ id: r.id, key: r.id, embedding: r.embedding })),
    onWanted,
  );
  ix.fingerprint = fp;
}

/**
 * The ids of the workspace's embedded chunks, a page at a time in id order (document_chunks_ws_id_idx), with a turn
 * of the event loop between pages: one query for 100,000 ids held the embedded database's thread for ~0.6 s.
 */
async function listChunkIds(s: Scope, model: string): Promise<Array<{ id: string }>> {
  const ids: Array<{ id: string }> = [];
  for (;;) {
    const last = ids.at(-1)?.id;
    const page = await s.db
      .select({ id: dc.id })
      .from(dc)
      .where(last === undefined ? chunkFilter(s, model) : and(chunkFilter(s, model), gt(dc.id, last)))
      .orderBy(asc(dc.id))
      .limit(LIST_PAGE);
    ids.push(...page);
    if (page.length < LIST_PAGE) return ids;
    await nextTurn();
  }
}

/** The workspace's index for `model`, refreshed if due. */
async function indexFor(
  s: Scope,
  model: string,
  onError: (err: unknown) => void,
  known: string | undefined,
): Promise<WorkspaceIndex> {
  let ix = indexes.get(s.workspaceId);
  // A workspace id belongs to one organization; the check keeps a mix-up from ever serving another tenant's rows.
  if (!ix || ix.model !== model || ix.organizationId !== s.organizationId) {
    let releaseWaiters = () => {};
    const tooBig = new Promise<void>((resolve) => {
      releaseWaiters = resolve;
    });
    ix = {
      organizationId: s.organizationId,
      model,
      entries: null,
      chunks: null,
      fingerprint: '',
      checkedAt: 0,
      refreshing: null,
      tooBig,
      releaseWaiters,
    };
    if (indexes.size >= MAX_WORKSPACES) indexes.delete(indexes.keys().next().value ?? '');
    indexes.set(s.workspaceId, ix);
  }
  // A count the caller just read says whether anything changed without a query; either way the index is brought in
  // line at most every CHECK_EVERY_MS (while a library is being embedded, the count moves with every batch).
  const due = (known === undefined || known !== ix.fingerprint) && Date.now() - ix.checkedAt >= CHECK_EVERY_MS;
  if (!ix.refreshing && due) {
    const current = ix;
    // A failed refresh leaves the index as it was; the next check tries again.
    current.refreshing = refresh(s, current, known)
      .catch(onError)
      .finally(() => {
        current.refreshing = null;
      });
  }
  if (ix.refreshing && ix.fingerprint === '') {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, MAX_WAIT_MS);
    });
    await Promise.race([ix.refreshing, waited, ix.tooBig]);
    clearTimeout(timer);
  }
  return ix;
}

/** The workspace's library entries and chunks nearest to a question's embedding, best first. */
export async function searchVectors(
  s: Scope,
  model: string,
  queryEmbedding: ArrayLike<number>,
  k: { entries: number; chunks: number },
  onError: (err: unknown) => void = () => {},
  /** The workspace's vectors change count, when the caller has just read it (workspaceChanges). */
  changes?: string,
): Promise<{
  entries: VectorHit[];
  chunks: VectorHit[];
  /** Similarity of any embedded entry / chunk of the workspace (undefined: not embedded yet). */
  entrySimilarity: (id: string) => number | undefined;
  chunkSimilarity: (id: string) => number | undefined;
}> {
  const query = normalize(queryEmbedding);
  const ix = await indexFor(s, model, onError, changes);
  const { entries, chunks } = ix;
  const similarity = (table: VectorTable | null) => (id: string) =>
    query && table ? table.similarity(id, query) : undefined;
  return {
    entries: query && entries ? await entries.nearest(query, k.entries) : [],
    chunks: query && chunks ? await chunks.nearest(query, k.chunks) : [],
    entrySimilarity: similarity(entries),
    chunkSimilarity: similarity(chunks),
  };
}
