import { sql, type SQL } from 'drizzle-orm';
import { ANSWER_STATUSES } from '../../common/schemas/knowledge';
import { BATCH_STATUSES, QUESTION_STATUSES } from '../../common/schemas/assessments';
import { DOCUMENT_STATUSES } from '../../common/schemas/documents';

/** What every database check is given: which organizations to look at and how long a live claim may be. */
export type CheckScope = {
  /** Only rows of these organizations (all when undefined). */
  organizationIds: string[] | undefined;
  quiescent: boolean;
  questionClaimMs: number;
  documentClaimMs: number;
};

export type DbCheck = {
  check: string;
  /** A query selecting one `id` per problem row. */
  query: (s: CheckScope) => SQL;
  message: (count: number) => string;
};

/** `alias.organization_id` limited to the scope's organizations. */
function inScope(s: CheckScope, alias: string): SQL {
  if (!s.organizationIds) return sql`true`;
  if (s.organizationIds.length === 0) return sql`false`;
  const ids = sql.join(
    s.organizationIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return sql`${sql.raw(`${alias}.organization_id`)} in (${ids})`;
}

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** "1 document is" / "3 documents are". */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
const isAre = (n: number) => (n === 1 ? 'is' : 'are');
const hasHave = (n: number) => (n === 1 ? 'has' : 'have');

/** A claim older than `ms` by the database's own clock (the one that wrote it). */
const olderThan = (column: string, ms: number) =>
  sql`${sql.raw(column)} < clock_timestamp() - ${ms} * interval '1 millisecond'`;

/** Tables whose rows carry their organization and workspace, with the words a message uses for them. */
const TENANT_TABLES: Array<{ table: string; one: string; many: string }> = [
  { table: 'canonical_answers', one: 'library entry', many: 'library entries' },
  { table: 'documents', one: 'document', many: 'documents' },
  { table: 'document_chunks', one: 'document chunk', many: 'document chunks' },
  { table: 'qa_sessions', one: 'chat', many: 'chats' },
  { table: 'qa_entries', one: 'chat answer', many: 'chat answers' },
  { table: 'assessment_batches', one: 'assessment', many: 'assessments' },
  { table: 'assessment_questions', one: 'assessment question', many: 'assessment questions' },
  { table: 'review_outcomes', one: 'review outcome', many: 'review outcomes' },
];

const RESTORE_HINT = 'Restore the database from a backup taken before the damage, or contact support.';

/** The database's checks, in the order a report lists them. */
export const DB_CHECKS: DbCheck[] = [
  {
    check: 'chunk_without_document',
    query: (s) => sql`
      select c.id from document_chunks c
      where not exists (select 1 from documents d where d.id = c.document_id) and ${inScope(s, 'c')}`,
    message: (n) =>
      `${count(n, 'document chunk belongs', 'document chunks belong')} to no document: never searched, only taking space. ${RESTORE_HINT}`,
  },
  {
    check: 'chunks_of_unready_document',
    query: (s) => sql`
      select d.id from documents d
      where d.status <> 'ready' and exists (select 1 from document_chunks c where c.document_id = d.id)
        and ${inScope(s, 'd')}`,
    message: (n) =>
      `${count(n, 'document', 'documents')} that ${isAre(n)} not ready ${hasHave(n)} extracted chunks, left from an interrupted extraction. Delete ${n === 1 ? 'it' : 'them'} and upload again.`,
  },
  {
    check: 'chunk_tenant_mismatch',
    query: (s) => sql`
      select c.id from document_chunks c join documents d on d.id = c.document_id
      where (c.organization_id <> d.organization_id or c.workspace_id <> d.workspace_id)
        and (${inScope(s, 'c')} or ${inScope(s, 'd')})`,
    message: (n) =>
      `${count(n, 'document chunk is', 'document chunks are')} filed under another organization or workspace than ${n === 1 ? 'its' : 'their'} document, so answers could cite them across tenants. ${RESTORE_HINT}`,
  },
  {
    check: 'chunk_count_mismatch',
    query: (s) => sql`
      select d.id from documents d
      cross join lateral (
        select count(*)::int as n, coalesce(min(c.ordinal), 0) as first, coalesce(max(c.ordinal), -1) as last
        from document_chunks c where c.document_id = d.id
      ) c
      where d.status = 'ready' and ${inScope(s, 'd')}
        and (c.n <> d.chunk_count or c.first <> 0 or c.last <> d.chunk_count - 1)`,
    message: (n) =>
      `${count(n, 'ready document has', 'ready documents have')} missing or duplicated chunks (their chunk count and stored chunks disagree). Delete ${n === 1 ? 'it' : 'them'} and upload again.`,
  },
  {
    check: 'document_stuck',
    query: (s) => sql`
      select d.id from documents d
      where d.status = 'processing' and ${inScope(s, 'd')}
        and ${s.quiescent ? sql`true` : olderThan('d.claimed_at', s.documentClaimMs)}`,
    message: (n) =>
      `${count(n, 'document is', 'documents are')} stuck in processing: the worker that claimed ${n === 1 ? 'it' : 'them'} stopped. A running worker takes ${n === 1 ? 'it' : 'them'} over; if none runs, start Verity or \`npm run worker\`.`,
  },
  {
    check: 'question_stuck',
    query: (s) => sql`
      select q.id from assessment_questions q
      where q.status = 'processing' and ${inScope(s, 'q')}
        and ${s.quiescent ? sql`true` : sql`(q.claimed_at is null or ${olderThan('q.claimed_at', s.questionClaimMs)})`}`,
    message: (n) =>
      `${count(n, 'assessment question is', 'assessment questions are')} stuck in processing with no live claim: ${n === 1 ? 'its' : 'their'} worker stopped. A running worker takes ${n === 1 ? 'it' : 'them'} over; if none runs, start Verity or \`npm run worker\`.`,
  },
  {
    check: 'question_waiting',
    query: (s) =>
      s.quiescent
        ? sql`select q.id from assessment_questions q where q.status = 'pending' and ${inScope(s, 'q')}`
        : sql`select null::uuid as id where false`,
    message: (n) =>
      `${count(n, 'assessment question is', 'assessment questions are')} still waiting for an answer although all work should have finished. Check that a worker runs (WORKER_CONCURRENCY, \`npm run worker\`).`,
  },
  {
    check: 'question_tenant_mismatch',
    query: (s) => sql`
      select q.id from assessment_questions q left join assessment_batches b on b.id = q.batch_id
      where (b.id is null or q.organization_id <> b.organization_id or q.workspace_id <> b.workspace_id)
        and ${inScope(s, 'q')}`,
    message: (n) =>
      `${count(n, 'assessment question belongs', 'assessment questions belong')} to no assessment, or to another organization's or workspace's. ${RESTORE_HINT}`,
  },
  {
    check: 'batch_count_mismatch',
    query: (s) => sql`
      select b.id from assessment_batches b
      cross join lateral (select count(*)::int as n from assessment_questions q where q.batch_id = b.id) q
      where b.total_questions <> q.n and ${inScope(s, 'b')}`,
    message: (n) =>
      `${count(n, 'assessment has', 'assessments have')} a question count that disagrees with ${n === 1 ? 'its' : 'their'} stored questions. Import ${n === 1 ? 'it' : 'them'} again.`,
  },
  {
    check: 'batch_status_mismatch',
    // settleBatch runs in the transaction that changes a question, so one statement never sees these half-done.
    query: (s) => sql`
      select b.id from assessment_batches b
      cross join lateral (
        select count(*) filter (where q.status in ('pending', 'processing'))::int as waiting,
          count(*) filter (where q.status = 'completed')::int as answered
        from assessment_questions q where q.batch_id = b.id
      ) q
      where ${inScope(s, 'b')} and (
        (b.status <> 'processing' and q.waiting > 0)
        or (b.status = 'processing' and q.waiting = 0)
        or (b.status = 'completed' and q.answered = 0)
        or (b.status = 'failed' and q.answered > 0))`,
    message: (n) =>
      `${count(n, 'assessment has', 'assessments have')} a status that disagrees with ${n === 1 ? 'its' : 'their'} questions (completed with questions still waiting, or processing with none). Use Retry failed or Regenerate on one of ${n === 1 ? 'its' : 'their'} questions to settle ${n === 1 ? 'it' : 'them'}.`,
  },
  {
    check: 'unknown_status',
    query: (s) => sql`
      select id from documents d where d.status not in (${list(DOCUMENT_STATUSES)}) and ${inScope(s, 'd')}
      union all
      select id from assessment_batches b where b.status not in (${list(BATCH_STATUSES)}) and ${inScope(s, 'b')}
      union all
      select id from assessment_questions q where q.status not in (${list(QUESTION_STATUSES)}) and ${inScope(s, 'q')}
      union all
      select id from canonical_answers a where a.status not in (${list(ANSWER_STATUSES)}) and ${inScope(s, 'a')}`,
    message: (n) =>
      `${count(n, 'row has', 'rows have')} a status Verity does not know, so no screen or worker will handle ${n === 1 ? 'it' : 'them'}. ${RESTORE_HINT}`,
  },
  ...TENANT_TABLES.map(({ table, one, many }): DbCheck => ({
    check: 'workspace_mismatch',
    query: (s) => sql`
        select t.id from ${sql.raw(table)} t left join workspaces w on w.id = t.workspace_id
        where (w.id is null or w.organization_id <> t.organization_id) and ${inScope(s, 't')}`,
    message: (n) =>
      `${count(n, `${one} points`, `${many} point`)} to a workspace that is missing or belongs to another organization (${table}). ${RESTORE_HINT}`,
  })),
  {
    check: 'session_mismatch',
    query: (s) => sql`
      select e.id from qa_entries e join qa_sessions c on c.id = e.session_id
      where (c.organization_id <> e.organization_id or c.workspace_id <> e.workspace_id) and ${inScope(s, 'e')}
      union all
      select b.id from assessment_batches b join qa_sessions c on c.id = b.session_id
      where (c.organization_id <> b.organization_id or c.workspace_id <> b.workspace_id) and ${inScope(s, 'b')}`,
    message: (n) =>
      `${count(n, 'chat answer or assessment is', 'chat answers or assessments are')} linked to a chat of another organization or workspace. ${RESTORE_HINT}`,
  },
  {
    check: 'version_mismatch',
    query: (s) => sql`
      select v.id from canonical_answer_versions v join canonical_answers a on a.id = v.answer_id
      where v.organization_id <> a.organization_id and (${inScope(s, 'v')} or ${inScope(s, 'a')})`,
    message: (n) =>
      `${count(n, 'library entry version is', 'library entry versions are')} filed under another organization than ${n === 1 ? 'its' : 'their'} entry. ${RESTORE_HINT}`,
  },
];
