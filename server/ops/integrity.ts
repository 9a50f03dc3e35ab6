import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { ObjectStorage } from '../storage/types';
import { DB_CHECKS, type CheckScope } from './integrity-queries';

export type IntegrityProblem = {
  /** Machine name of the check (`document_stuck`, `orphaned_upload`…). */
  check: string;
  /** What is wrong and what to do about it, in one or two sentences. */
  message: string;
  count: number;
  /** The first ids (storage keys for objects) concerned, at most `sampleSize`. */
  ids: string[];
};

export type IntegrityOptions = {
  /** Check only these organizations' rows and objects (a shared database in tests; one tenant's support case). */
  organizationIds?: string[];
  /**
   * Nothing is running and all queued work should have finished (after a test, or with every process stopped and
   * the queue drained): then any document or question still in flight is a problem, and so is any file without a
   * row, however young.
   */
  quiescent?: boolean;
  /** A question claim older than this has no live worker (WORKER_QUESTION_CLAIM_SECONDS; default 120 s). */
  questionClaimMs?: number;
  /** A document claim not renewed for this long has no live worker (WORKER_DOCUMENT_CLAIM_SECONDS; default 120 s). */
  documentClaimMs?: number;
  /**
   * A file younger than this with no row may be an upload whose registration is still coming (default one hour,
   * 0 when quiescent). The worker's sweep deletes such files once they are a day old.
   */
  uploadGraceMs?: number;
  /** Ids listed per problem (default 20). */
  sampleSize?: number;
  /**
   * Read every stored file that has a recorded SHA-256 and compare (default true). Sizes are always compared; this
   * reads the whole store, so `--sizes-only` skips it on a store too large to read in one go.
   */
  checksums?: boolean;
};

const DEFAULT_CLAIM_MS = 120_000;
const DEFAULT_UPLOAD_GRACE_MS = 3600_000;

/**
 * Looks for damage a crash, a bad restore or a bug could leave (issue 8): chunks without a live document or in
 * another tenant, documents and assessment questions stuck in processing, assessments whose counts or status
 * disagree with their questions, rows pointing at a missing workspace, files in storage without a row and rows
 * whose file is gone. Read-only; returns one problem per kind found, none when all is well. `storage` null skips
 * the file checks.
 */
export async function checkIntegrity(
  db: DbOrTx,
  storage: ObjectStorage | null,
  opts: IntegrityOptions = {},
): Promise<IntegrityProblem[]> {
  const scope: CheckScope = {
    organizationIds: opts.organizationIds,
    quiescent: opts.quiescent ?? false,
    questionClaimMs: opts.questionClaimMs ?? DEFAULT_CLAIM_MS,
    documentClaimMs: opts.documentClaimMs ?? DEFAULT_CLAIM_MS,
  };
  const sampleSize = opts.sampleSize ?? 20;
  const problems: IntegrityProblem[] = [];
  for (const c of DB_CHECKS) {
    const found = await sample(db, c.query(scope), sampleSize);
    if (found.count > 0) problems.push({ check: c.check, message: c.message(found.count), ...found });
  }
  if (storage) {
    const graceMs = opts.uploadGraceMs ?? (scope.quiescent ? 0 : DEFAULT_UPLOAD_GRACE_MS);
    problems.push(...(await storageProblems(db, storage, scope, graceMs, sampleSize, opts.checksums ?? true)));
  }
  return problems;
}

/** How many rows a check query finds, and the first few ids. */
async function sample(db: DbOrTx, query: SQL, limit: number): Promise<{ count: number; ids: string[] }> {
  const res = await db.execute(sql`
    select found.id::text as id, count(*) over ()::int as total from (${query}) found limit ${limit}`);
  const rows = (res as unknown as { rows: Array<{ id: string; total: number }> }).rows;
  return { count: Number(rows[0]?.total ?? 0), ids: rows.map((r) => r.id) };
}

/**
 * Files without a row (orphaned uploads) and rows without their file. The listing comes before the rows: a file
 * registered meanwhile then has its row, and every suspect is looked at once more before it is reported, so work
 * going on beside the check is not mistaken for damage.
 */
async function storageProblems(
  db: DbOrTx,
  storage: ObjectStorage,
  scope: CheckScope,
  graceMs: number,
  sampleSize: number,
  checksums: boolean,
): Promise<IntegrityProblem[]> {
  const prefixes = scope.organizationIds ? scope.organizationIds.map((id) => `org/${id}/`) : ['org/'];
  const listed = new Map<string, { modifiedAt: Date; size: number }>();
  for (const prefix of prefixes) for (const o of await storage.list(prefix)) listed.set(o.key, o);

  const orgs = scope.organizationIds;
  const inOrgs = (column: string): SQL =>
    !orgs
      ? sql`true`
      : orgs.length === 0
        ? sql`false`
        : sql`${sql.raw(column)} in (${sql.join(
            orgs.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`;
  const res = await db.execute(sql`
    select id::text as id, storage_key as key, size, sha256 from documents where ${inOrgs('organization_id')}
    union all
    select id::text, storage_key, file_size, file_sha256 from assessment_batches
    where storage_key is not null and ${inOrgs('organization_id')}`);
  const rows = (
    res as unknown as { rows: Array<{ id: string; key: string; size: number | null; sha256: string | null }> }
  ).rows;
  const known = new Set(rows.map((r) => r.key));

  const cutoff = Date.now() - graceMs;
  const orphans: string[] = [];
  for (const [key, { modifiedAt }] of listed) {
    if (known.has(key) || modifiedAt.getTime() > cutoff) continue;
    // Gone since the listing: its document was being deleted, file last.
    if (await storage.head(key)) orphans.push(key);
  }
  const missing: string[] = [];
  const wrongSize: string[] = [];
  const wrongContent: string[] = [];
  for (const r of rows) {
    const object = listed.get(r.key);
    if (!object) {
      // Uploaded and registered after the listing.
      if (!(await storage.head(r.key))) missing.push(r.id);
      continue;
    }
    // A registered object never changes, so any difference from its row is damage or tampering.
    if (r.size !== null && object.size !== Number(r.size)) wrongSize.push(r.id);
    else if (checksums && r.sha256) {
      const stored = await storage.digest(r.key).catch(() => null);
      if (stored && stored.sha256 !== r.sha256) wrongContent.push(r.id);
    }
  }

  const problems: IntegrityProblem[] = [];
  // One problem per kind found: how many, a sample of their ids, and a sentence saying what to do.
  const report = (check: string, ids: string[], message: (n: number) => string) => {
    if (ids.length > 0)
      problems.push({ check, message: message(ids.length), count: ids.length, ids: ids.slice(0, sampleSize) });
  };
  report(
    'orphaned_upload',
    orphans,
    (n) =>
      `${n} ${n === 1 ? 'file' : 'files'} in storage ${n === 1 ? 'belongs' : 'belong'} to no document or assessment (uploads never registered, or left by a delete that stopped half-way). The worker's hourly sweep deletes them once they are a day old.`,
  );
  report(
    'missing_object',
    missing,
    (n) =>
      `${n} ${n === 1 ? 'document or assessment has' : 'documents or assessments have'} lost ${n === 1 ? 'its' : 'their'} stored file, so it cannot be downloaded, extracted again or exported into the original workbook. Restore the storage from a backup, or delete and upload again.`,
  );
  report(
    'object_size_mismatch',
    wrongSize,
    (n) =>
      `${n} ${n === 1 ? "document's or assessment's stored file has" : "documents' or assessments' stored files have"} another size than when ${n === 1 ? 'it was' : 'they were'} uploaded: the file was replaced or damaged. Restore the storage from a backup, or delete and upload again.`,
  );
  report(
    'object_checksum_mismatch',
    wrongContent,
    (n) =>
      `${n} ${n === 1 ? "document's or assessment's stored file no longer matches" : "documents' or assessments' stored files no longer match"} the SHA-256 recorded at upload: the content was replaced or damaged. Restore the storage from a backup, or delete and upload again.`,
  );
  return problems;
}

/** The report the CLI prints: "integrity: ok", or one line per problem. */
export function formatIntegrityReport(problems: IntegrityProblem[]): string {
  if (problems.length === 0) return 'integrity: ok';
  const lines = problems.map((p) => {
    const more = p.count > p.ids.length ? `, … ${p.count - p.ids.length} more` : '';
    return `- [${p.check}] ${p.message}\n  ${p.ids.join(', ')}${more}`;
  });
  return [`integrity: ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'} found`, ...lines].join('\n');
}
