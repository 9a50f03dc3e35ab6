import { sql } from 'drizzle-orm';
import { documentChunks } from '../../db/schema';
import { inTenant } from '../../tenancy';
import { libraryIndex, searchIndex, type IndexedEntry, type Scope } from './library-index';
import { lexemeFrequency } from './lexeme-stats';
import { stagedQueries } from './query';

export type { Scope };

/** A library entry as the index holds it, with how well it matched the question. */
export type EntryCandidate = IndexedEntry & {
  rank: number;
  trigram: number;
  /** Cosine similarity of the entry's embedding to the question's, when embeddings are configured (vector-*.ts). */
  vector?: number;
};

export type ChunkCandidate = {
  id: string;
  documentId: string;
  documentName: string;
  page: number | null;
  section: string | null;
  text: string;
  rank: number;
  /** Cosine similarity of the chunk's embedding to the question's, when embeddings are configured (vector-*.ts). */
  vector?: number;
};

/** Rows a stage may hand to ranking; ranking reads each row's tsvector, so this bounds the cost of a query. */
const STAGE_CAP = 150;
/** A stage finding at least this many rows is enough: looser stages would only add weaker candidates. */
const ENOUGH = 8;

type Rows<T> = { rows: T[] };
function rowsOf<T>(res: unknown): T[] {
  return (res as Rows<T>).rows;
}

/**
 * Library entries that may answer the question (approved and drafts): the workspace's in-memory index
 * (library-index.ts), each candidate with its share of the question's terms and its question's trigram similarity.
 */
export const ENTRY_CANDIDATES = 25;

export async function retrieveEntries(s: Scope, question: string, limit = ENTRY_CANDIDATES): Promise<EntryCandidate[]> {
  return searchIndex(await libraryIndex(s), question, limit);
}

const chunksPresent = new Map<string, { changes: string; present: boolean }>();
const CHUNKS_PRESENT_KEPT = 1000;

/**
 * Whether the workspace has any document chunk, known without a query while its `chunks` change count (read by the
 * caller: workspaceChanges) stays where it was: a workspace with no documents then costs no chunk queries at all.
 */
export async function hasChunks(s: Scope, changes: string): Promise<boolean> {
  const key = `${s.organizationId}/${s.workspaceId}`;
  const known = chunksPresent.get(key);
  if (known && known.changes === changes) return known.present;
  const res = await s.db.execute(
    sql`select exists (select 1 from document_chunks where ${inTenant(documentChunks, s)}) as present`,
  );
  const present = rowsOf<{ present: boolean }>(res)[0]?.present === true;
  chunksPresent.delete(key);
  if (chunksPresent.size >= CHUNKS_PRESENT_KEPT) chunksPresent.delete(chunksPresent.keys().next().value ?? '');
  chunksPresent.set(key, { changes, present });
  return present;
}

/** Document chunks of ready documents, by the same staged queries (never trigram: too slow on long text). */
export async function retrieveChunks(s: Scope, question: string, limit = 20): Promise<ChunkCandidate[]> {
  const found = new Map<string, ChunkCandidate>();
  const frequency = await lexemeFrequency(s.db, 'document_chunks');
  const runStage = async (q: string) => {
    const res = await s.db.execute(sql`
    with c as materialized (
      select id, search_vector from document_chunks
      where ${inTenant(documentChunks, s)}
        and search_vector @@ to_tsquery('english', ${q})
      limit ${STAGE_CAP}
    ), r as materialized (
      select id, ts_rank_cd(search_vector, to_tsquery('english', ${q}), 1) as rank from c
      order by rank desc
      limit ${limit}
    )
    select ch.id, ch.document_id as "documentId", d.original_name as "documentName", ch.page, ch.section, ch.text,
      r.rank
    from r
    join document_chunks ch on ch.id = r.id
    join documents d on d.id = ch.document_id and d.status = 'ready'
    order by r.rank desc`);
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
  };
  const stages = stagedQueries(question, frequency);
  for (const q of stages) {
    await runStage(q);
    if (found.size >= ENOUGH) break;
  }
  // The frequencies are table-wide, so on a shared database other tenants' documents can make a word "common" and
  // drop it from the loose stages. When those found nothing at all, the loosest stage runs once more as if every
  // word were rare: its LIMIT bounds the rows, and only questions that would otherwise have no candidate pay for it.
  const lastResort = stagedQueries(question).at(-1);
  if (found.size === 0 && lastResort && !stages.includes(lastResort)) await runStage(lastResort);
  return [...found.values()].sort((a, b) => b.rank - a.rank).slice(0, limit);
}
