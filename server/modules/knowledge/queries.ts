import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { canonicalAnswers as ca, users } from '../../db/schema';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import type { LibraryFilterQuery } from '../../../common/schemas/knowledge';
import type { AnswerRecord } from './presenters';
import { isStale } from './freshness';

const owner = alias(users, 'owner');
const creator = alias(users, 'creator');
const verifier = alias(users, 'verifier');

/** Every column the API shows (never the search vector), with the people's names joined in. */
const answerColumns = {
  id: ca.id,
  organizationId: ca.organizationId,
  workspaceId: ca.workspaceId,
  question: ca.question,
  questionNorm: ca.questionNorm,
  answer: ca.answer,
  tags: ca.tags,
  status: ca.status,
  confidence: ca.confidence,
  source: ca.source,
  ownerId: ca.ownerId,
  createdBy: ca.createdBy,
  lastVerifiedAt: ca.lastVerifiedAt,
  lastVerifiedBy: ca.lastVerifiedBy,
  reviewIntervalDays: ca.reviewIntervalDays,
  version: ca.version,
  createdAt: ca.createdAt,
  updatedAt: ca.updatedAt,
  owner: { id: owner.id, username: owner.username },
  creator: { id: creator.id, username: creator.username },
  verifier: { id: verifier.id, username: verifier.username },
};

/** Entries of the tenant matching `where`, with names joined. */
export function selectAnswers(t: TenantCtx, where?: SQL) {
  return t.db
    .select(answerColumns)
    .from(ca)
    .leftJoin(owner, eq(owner.id, ca.ownerId))
    .leftJoin(creator, eq(creator.id, ca.createdBy))
    .leftJoin(verifier, eq(verifier.id, ca.lastVerifiedBy))
    .where(where ? and(inTenant(ca, t), where) : inTenant(ca, t));
}

export async function loadAnswer(t: TenantCtx, id: string): Promise<AnswerRecord | undefined> {
  const [row] = await selectAnswers(t, eq(ca.id, id));
  return row;
}

export async function loadAnswers(t: TenantCtx, ids: string[]): Promise<AnswerRecord[]> {
  if (ids.length === 0) return [];
  return selectAnswers(t, inArray(ca.id, ids));
}

/**
 * The search box's query: every word must match, each as a prefix (so "encr" finds "encryption"), stemmed by
 * the English configuration. Only letters and digits reach to_tsquery, so user text can never break its syntax.
 * Null when the text has no words.
 */
export function prefixTsQuery(text: string): string | null {
  const words =
    text
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 32) ?? [];
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Search, status, tag, freshness and owner filters. A text search matches the ranked full-text index or, for text
 * the index cannot hold (stop words only, punctuation, part of a word in the middle), a plain substring of the
 * question. `mine` needs the caller (`userId`); the tab counts ignore the status and freshness tabs.
 */
export function filterConditions(filter: LibraryFilterQuery, opts: { ignoreStatus?: boolean; userId?: string } = {}) {
  const conditions: SQL[] = [];
  let rank: SQL | null = null;
  if (!opts.ignoreStatus) {
    conditions.push(filter.status ? eq(ca.status, filter.status) : inArray(ca.status, ['approved', 'draft']));
    if (filter.reverify) conditions.push(isStale);
  }
  if (filter.mine) {
    if (!opts.userId) throw new Error('the "mine" filter needs the caller');
    conditions.push(eq(ca.ownerId, opts.userId));
  }
  if (filter.tag) conditions.push(sql`${ca.tags} @> ARRAY[${filter.tag}]::text[]`);
  const q = filter.q?.trim();
  if (q) {
    const tsq = prefixTsQuery(q);
    const like = `%${escapeLike(q)}%`;
    if (tsq) {
      const query = sql`to_tsquery('english', ${tsq})`;
      conditions.push(sql`(${ca.searchVector} @@ ${query} OR ${ca.question} ILIKE ${like})`);
      rank = sql`ts_rank_cd(${ca.searchVector}, ${query})`;
    } else {
      conditions.push(sql`${ca.question} ILIKE ${like}`);
    }
  }
  return { where: conditions.length ? and(...conditions) : undefined, rank };
}
