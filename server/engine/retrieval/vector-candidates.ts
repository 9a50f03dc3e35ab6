import { and, eq, inArray } from 'drizzle-orm';
import { inTenant } from '../../tenancy';
import { documentChunks as dc, documents } from '../../db/schema';
import type { Embedder } from '../../embedding/embedder';
import type { ChunkCandidate, EntryCandidate, Scope } from './retrieve';
import { searchVectors, type VectorHit } from './vector-index';
import type { LibraryIndex } from './library-index';
import { trigramSimilarity } from '../text/trigram';

/** Nearest entries and chunks added to the lexical candidates of a question. */
const VECTOR_K = { entries: 20, chunks: 12 };

export type VectorMatches = {
  /** How similar a text is to the question by meaning (cosine), or undefined when embedding the text fails. */
  similarityTo: (text: string) => Promise<number | undefined>;
  entries: VectorHit[];
  chunks: VectorHit[];
  entrySimilarity: (id: string) => number | undefined;
  chunkSimilarity: (id: string) => number | undefined;
};

/**
 * The question's nearest library entries and chunks by embedding, when an embedder is configured; null otherwise,
 * or when embedding the question failed (logged: retrieval then stays lexical, as without embeddings).
 */
export async function vectorMatches(
  scope: Scope,
  question: string,
  embedder: Embedder | null | undefined,
  /** The workspace's vectors change count, when the caller has just read it (workspaceChanges). */
  changes?: string,
  /** The question's vector, embedded ahead by the caller (a promise that never rejects; null: embed it here). */
  given?: Promise<ArrayLike<number> | null>,
): Promise<VectorMatches | null> {
  if (!embedder) return null;
  let embedding: ArrayLike<number>;
  try {
    embedding = (await given) ?? (await embedder.embedQuery(question, { key: scope.organizationId }));
  } catch (err) {
    embedder.log.warn(
      { err, reason: err instanceof Error ? err.message : String(err), workspaceId: scope.workspaceId },
      'embedding the question failed; answering from full-text retrieval only',
    );
    return null;
  }
  const found = await searchVectors(
    scope,
    embedder.model,
    embedding,
    VECTOR_K,
    (err) => embedder.log.warn({ err, workspaceId: scope.workspaceId }, 'loading embeddings from the database failed'),
    changes,
  );
  return {
    ...found,
    async similarityTo(text) {
      try {
        return cosine(embedding, await embedder.embedQuery(text, { key: scope.organizationId }));
      } catch (err) {
        embedder.log.warn({ err, workspaceId: scope.workspaceId }, 'embedding an extractive answer failed');
        return undefined;
      }
    },
  };
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * The lexical candidates plus the vector-nearest entries they missed, taken from the library index (which holds every
 * approved and draft entry of the workspace, so no query is needed), each with its embedding similarity in `vector`
 * when the entry is embedded. A hit the index does not hold (archived or deleted since it was embedded) is left out.
 */
export function withVectorEntries(
  index: LibraryIndex,
  question: string,
  lexical: EntryCandidate[],
  vm: VectorMatches | null,
): EntryCandidate[] {
  if (!vm) return lexical;
  const have = new Set(lexical.map((c) => c.id));
  const extra: EntryCandidate[] = [];
  for (const hit of vm.entries) {
    const at = index.byId.get(hit.id);
    const entry = at === undefined ? undefined : index.entries[at];
    if (!entry || have.has(hit.id)) continue;
    have.add(hit.id);
    // Not found by the term search: no rank of its own.
    extra.push({ ...entry, rank: 0, trigram: trigramSimilarity(question, entry.question) });
  }
  return withSimilarity([...lexical, ...extra], vm.entrySimilarity);
}

/** The lexical chunks plus the vector-nearest chunks of ready documents they missed, each with `vector`. */
export async function withVectorChunks(
  s: Scope,
  lexical: ChunkCandidate[],
  vm: VectorMatches | null,
): Promise<ChunkCandidate[]> {
  if (!vm) return lexical;
  return withMissedHits(lexical, vm.chunks, vm.chunkSimilarity, async (missing) => {
    const rows = await s.db
      .select({
        id: dc.id,
        documentId: dc.documentId,
        documentName: documents.originalName,
        page: dc.page,
        section: dc.section,
        text: dc.text,
      })
      .from(dc)
      .innerJoin(documents, and(eq(documents.id, dc.documentId), eq(documents.status, 'ready')))
      .where(and(inTenant(dc, s), inArray(dc.id, missing)));
    const order = new Map(missing.map((id, i) => [id, i]));
    rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return rows.map((r) => ({ ...r, rank: 0 }));
  });
}

/**
 * The lexical candidates plus the vector hits they missed, which `load` fetches by id (in the tenant, with the
 * candidates' own filters), each with its similarity to the question in `vector` when it has one.
 */
async function withMissedHits<T extends { id: string; vector?: number }>(
  lexical: T[],
  hits: VectorHit[],
  similarity: (id: string) => number | undefined,
  load: (missing: string[]) => Promise<T[]>,
): Promise<T[]> {
  const have = new Set(lexical.map((c) => c.id));
  const missing = hits.map((h) => h.id).filter((id) => !have.has(id));
  const extra = missing.length > 0 ? await load(missing) : [];
  return withSimilarity([...lexical, ...extra], similarity);
}

function withSimilarity<T extends { id: string; vector?: number }>(
  candidates: T[],
  similarity: (id: string) => number | undefined,
): T[] {
  return candidates.map((c) => {
    const vector = similarity(c.id);
    return vector === undefined ? c : { ...c, vector };
  });
}
