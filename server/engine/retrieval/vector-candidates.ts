import { and, eq, inArray, sql } from 'drizzle-orm';
import { inTenant } from '../../tenancy';
import { canonicalAnswers as ca, documentChunks as dc, documents } from '../../db/schema';
import type { Embedder } from '../../embedding/embedder';
import type { ChunkCandidate, EntryCandidate, Scope } from './retrieve';
import { searchVectors, type VectorHit } from './vector-index';

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
): Promise<VectorMatches | null> {
  if (!embedder) return null;
  let embedding: ArrayLike<number>;
  try {
    embedding = await embedder.embedQuery(question, { key: scope.organizationId });
  } catch (err) {
    embedder.log.warn(
      { err, reason: err instanceof Error ? err.message : String(err), workspaceId: scope.workspaceId },
      'embedding the question failed; answering from full-text retrieval only',
    );
    return null;
  }
  const found = await searchVectors(scope, embedder.model, embedding, VECTOR_K, (err) =>
    embedder.log.warn({ err, workspaceId: scope.workspaceId }, 'loading embeddings from the database failed'),
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

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/**
 * The lexical candidates plus the vector-nearest entries they missed (loaded by id, in this tenant only), each
 * with its embedding similarity in `vector` when the entry is embedded.
 */
export async function withVectorEntries(
  s: Scope,
  question: string,
  lexical: EntryCandidate[],
  vm: VectorMatches | null,
): Promise<EntryCandidate[]> {
  if (!vm) return lexical;
  return withMissedHits(lexical, vm.entries, vm.entrySimilarity, async (missing) => {
    const rows = await s.db
      .select({
        id: ca.id,
        question: ca.question,
        answer: ca.answer,
        status: ca.status,
        tags: ca.tags,
        updatedAt: ca.updatedAt,
        lastVerifiedAt: ca.lastVerifiedAt,
        trigram: sql<number>`similarity(${ca.question}, ${question})`,
      })
      .from(ca)
      .where(and(inTenant(ca, s), inArray(ca.status, ['approved', 'draft']), inArray(ca.id, missing)));
    return rows.map((r) => ({
      id: r.id,
      question: r.question,
      answer: r.answer,
      status: r.status === 'draft' ? 'draft' : 'approved',
      tags: r.tags,
      updatedAt: toDate(r.updatedAt),
      lastVerifiedAt: r.lastVerifiedAt ? toDate(r.lastVerifiedAt) : null,
      // Not found by the full-text queries: no rank of its own.
      rank: 0,
      trigram: Number(r.trigram),
    }));
  });
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
  return [...lexical, ...extra].map((c) => {
    const vector = similarity(c.id);
    return vector === undefined ? c : { ...c, vector };
  });
}
