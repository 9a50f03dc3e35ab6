import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { stagedQueries } from './query';

export type Scope = { db: DbOrTx; organizationId: string; workspaceId: string };

export type EntryCandidate = {
  id: string;
  question: string;
  answer: string;
  status: 'approved' | 'draft';
  tags: string[];
  updatedAt: Date;
  lastVerifiedAt: Date | null;
  rank: number;
  trigram: number;
};

export type ChunkCandidate = {
  id: string;
  documentId: string;
  documentName: string;
  page: number | null;
  section: string | null;
  text: string;
  rank: number;
};

/** Rows a stage may hand to ranking; ranking reads each row's tsvector, so this bounds the cost of a query. */
const STAGE_CAP = 150;
/** A stage finding at least this many rows is enough: looser stages would only add weaker candidates. */
const ENOUGH = 8;

type Rows<T> = { rows: T[] };
const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
function rowsOf<T>(res: unknown): T[] {
  return (res as Rows<T>).rows;
}

/**
 * Library entries that may answer the question (approved and drafts), by staged full-text queries over question,
 * tags and answer; each candidate also gets its question's trigram similarity to this one for the ranker.
 */
export async function retrieveEntries(s: Scope, question: string, limit = 25): Promise<EntryCandidate[]> {
  const found = new Map<string, EntryCandidate>();
  for (const q of stagedQueries(question)) {
    const res = await s.db.execute(sql`
      select a.id, a.question, a.answer, a.status, a.tags, a.updated_at as "updatedAt",
        a.last_verified_at as "lastVerifiedAt",
        ts_rank_cd(a.search_vector, to_tsquery('english', ${q}), 1) as rank,
        similarity(a.question, ${question}) as trigram
      from canonical_answers a
      join (
        select id from canonical_answers
        where organization_id = ${s.organizationId} and workspace_id = ${s.workspaceId}
          and status in ('approved', 'draft') and search_vector @@ to_tsquery('english', ${q})
        limit ${STAGE_CAP}
      ) c on c.id = a.id
      order by rank desc
      limit ${limit}`);
    for (const r of rowsOf<Record<string, unknown>>(res)) {
      const id = String(r.id);
      if (found.has(id)) continue;
      found.set(id, {
        id,
        question: String(r.question),
        answer: String(r.answer),
        status: r.status === 'draft' ? 'draft' : 'approved',
        tags: Array.isArray(r.tags) ? r.tags.map(String) : [],
        updatedAt: toDate(r.updatedAt),
        lastVerifiedAt: r.lastVerifiedAt ? toDate(r.lastVerifiedAt) : null,
        rank: Number(r.rank),
        trigram: Number(r.trigram),
      });
    }
    if (found.size >= ENOUGH) break;
  }
  return [...found.values()];
}

/** Document chunks of ready documents, by the same staged queries (never trigram: too slow on long text). */
export async function retrieveChunks(s: Scope, question: string, limit = 20): Promise<ChunkCandidate[]> {
  const found = new Map<string, ChunkCandidate>();
  for (const q of stagedQueries(question)) {
    const res = await s.db.execute(sql`
      select ch.id, ch.document_id as "documentId", d.original_name as "documentName", ch.page, ch.section, ch.text,
        ts_rank_cd(ch.search_vector, to_tsquery('english', ${q}), 1) as rank
      from document_chunks ch
      join (
        select id from document_chunks
        where organization_id = ${s.organizationId} and workspace_id = ${s.workspaceId}
          and search_vector @@ to_tsquery('english', ${q})
        limit ${STAGE_CAP}
      ) c on c.id = ch.id
      join documents d on d.id = ch.document_id and d.status = 'ready'
      order by rank desc
      limit ${limit}`);
    for (const r of rowsOf<Record<string, unknown>>(res)) {
      const id = String(r.id);
      if (found.has(id)) continue;
      found.set(id, {
        id,
        documentId: String(r.documentId),
        documentName: String(r.documentName),
        page: r.page === null || r.page === undefined ? null : Number(r.page),
        section: r.section === null || r.section === undefined ? null : String(r.section),
        text: String(r.text),
        rank: Number(r.rank),
      });
    }
    if (found.size >= ENOUGH) break;
  }
  return [...found.values()].sort((a, b) => b.rank - a.rank).slice(0, limit);
}
