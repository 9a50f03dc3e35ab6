import { and, eq, inArray, sql } from 'drizzle-orm';
import { canonicalAnswers as ca, documentChunks as dc, documents } from '../db/schema';
import type { DbOrTx } from '../db/client';
import { tsqueryTerms } from './terms';

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

/**
 * Library entries that may answer the question: full-text OR query over question, tags and answer, or a question
 * trigram-similar to this one (pg_trgm's `%`, served by the trigram index). Approved and draft entries only.
 */
export async function retrieveEntries(s: Scope, question: string, limit = 25): Promise<EntryCandidate[]> {
  const terms = tsqueryTerms(question);
  const tsq = terms.length ? sql`to_tsquery('english', ${terms.join(' | ')})` : sql`''::tsquery`;
  const rank = sql<number>`ts_rank_cd(${ca.searchVector}, ${tsq}, 1)`;
  const trigram = sql<number>`similarity(${ca.question}, ${question})`;
  const rows = await s.db
    .select({
      id: ca.id,
      question: ca.question,
      answer: ca.answer,
      status: ca.status,
      tags: ca.tags,
      updatedAt: ca.updatedAt,
      lastVerifiedAt: ca.lastVerifiedAt,
      rank,
      trigram,
    })
    .from(ca)
    .where(
      and(
        eq(ca.organizationId, s.organizationId),
        eq(ca.workspaceId, s.workspaceId),
        inArray(ca.status, ['approved', 'draft']),
        sql`(${ca.searchVector} @@ ${tsq} OR ${ca.question} % ${question})`,
      ),
    )
    .orderBy(sql`greatest(${rank} * 2, ${trigram}) desc`)
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    status: r.status as 'approved' | 'draft',
    rank: Number(r.rank),
    trigram: Number(r.trigram),
  }));
}

/** Document chunks ranked by full-text OR query (never trigram: far too slow over long text, STACK-NOTES). */
export async function retrieveChunks(s: Scope, question: string, limit = 20): Promise<ChunkCandidate[]> {
  const terms = tsqueryTerms(question);
  if (terms.length === 0) return [];
  const tsq = sql`to_tsquery('english', ${terms.join(' | ')})`;
  const rank = sql<number>`ts_rank_cd(${dc.searchVector}, ${tsq}, 1)`;
  const rows = await s.db
    .select({
      id: dc.id,
      documentId: dc.documentId,
      documentName: documents.originalName,
      page: dc.page,
      section: dc.section,
      text: dc.text,
      rank,
    })
    .from(dc)
    .innerJoin(documents, eq(documents.id, dc.documentId))
    .where(
      and(
        eq(dc.organizationId, s.organizationId),
        eq(dc.workspaceId, s.workspaceId),
        eq(documents.status, 'ready'),
        sql`${dc.searchVector} @@ ${tsq}`,
      ),
    )
    .orderBy(sql`${rank} desc`)
    .limit(limit);
  return rows.map((r) => ({ ...r, rank: Number(r.rank) }));
}
