import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export type LexemeFrequency = (lexeme: string) => number;

type Table = 'canonical_answers' | 'document_chunks';
type Stats = { checkedAt: number; size: number; analyzedSize: number; freq: Map<string, number> };

/** How often the table's size is looked at; statistics a minute old only make a query slightly less selective. */
const CHECK_EVERY_MS = 30_000;
/** The table grew or shrank by this share since its statistics were gathered: gather them again. */
const REANALYZE_CHANGE = 0.2;
/** Below this size every query is cheap and frequencies do not matter. */
const MIN_BYTES = 1024 * 1024;

const caches = new WeakMap<object, Map<Table, Stats>>();
const analyzing = new WeakMap<object, Map<Table, Promise<void>>>();
type Rows<T> = { rows: T[] };

/**
 * The share of rows whose search vector contains a lexeme, for the lexemes PostgreSQL's statistics track as most
 * common in the table (`pg_stats.most_common_elems`, gathered by ANALYZE); any other lexeme counts as rare (0).
 * Table-wide rather than per workspace: it only serves to keep words that match a large part of any workspace
 * ("security", "data", "policy") out of the loose OR stages of a query, where they would make PostgreSQL build a
 * bitmap of most of the table. The embedded database runs no autovacuum, so the table is analyzed here when it
 * has no statistics yet or has changed size by a fifth since.
 */
export async function lexemeFrequency(db: DbOrTx, table: Table): Promise<LexemeFrequency> {
  let perDb = caches.get(db);
  if (!perDb) {
    perDb = new Map();
    caches.set(db, perDb);
  }
  const hit = perDb.get(table);
  if (hit && Date.now() - hit.checkedAt < CHECK_EVERY_MS) return lookup(hit.freq);

  const sizeRes = (await db.execute(sql`select pg_relation_size(${table}::regclass)::bigint as size`)) as Rows<{
    size: string | number;
  }>;
  const size = Number(sizeRes.rows[0]?.size ?? 0);
  if (size < MIN_BYTES) {
    perDb.set(table, { checkedAt: Date.now(), size, analyzedSize: hit?.analyzedSize ?? 0, freq: new Map() });
    return lookup(new Map());
  }
  // After a restart nothing is cached, but the statistics of the last ANALYZE are still in the database, and with
  // them the table's size then (pg_class.relpages, which ANALYZE sets): analyzing again on every start held the
  // first question after it for seconds (3.3 s on a 100,000-chunk table, bench:ask), for the same figures.
  let analyzedSize = hit?.analyzedSize ?? (await sizeWhenAnalyzed(db, table));
  let freq = hit?.freq;
  const changed = analyzedSize === 0 || Math.abs(size - analyzedSize) / analyzedSize > REANALYZE_CHANGE;
  if (!freq || changed) {
    freq = await readStats(db, table);
    if (freq.size === 0 || changed) {
      // Concurrent asks share one ANALYZE per table and database.
      let running = analyzing.get(db)?.get(table);
      if (!running) {
        running = db.execute(sql.raw(`analyze ${table}`)).then(() => undefined);
        const perDbRuns = analyzing.get(db) ?? new Map<Table, Promise<void>>();
        analyzing.set(db, perDbRuns);
        perDbRuns.set(table, running);
        void running.finally(() => perDbRuns.delete(table)).catch(() => undefined);
      }
      await running;
      freq = await readStats(db, table);
    }
    analyzedSize = size;
  }
  perDb.set(table, { checkedAt: Date.now(), size, analyzedSize, freq });
  return lookup(freq);
}

/** The table's size in bytes as its last ANALYZE (or VACUUM) saw it; 0 when it was never analyzed. */
async function sizeWhenAnalyzed(db: DbOrTx, table: Table): Promise<number> {
  const res = (await db.execute(sql`
    select greatest(relpages, 0)::bigint * current_setting('block_size')::bigint as size
    from pg_class where oid = ${table}::regclass`)) as Rows<{ size: string | number }>;
  return Number(res.rows[0]?.size ?? 0);
}

function lookup(freq: Map<string, number>): LexemeFrequency {
  return (lexeme) => freq.get(lexeme) ?? 0;
}

async function readStats(db: DbOrTx, table: Table): Promise<Map<string, number>> {
  const res = (await db.execute(sql`
    select most_common_elems::text::text[] as elems, most_common_elem_freqs as freqs
    from pg_stats
    where schemaname = current_schema() and tablename = ${table} and attname = 'search_vector'`)) as Rows<{
    elems: string[] | null;
    freqs: number[] | null;
  }>;
  const row = res.rows[0];
  const freq = new Map<string, number>();
  if (!row?.elems || !row.freqs) return freq;
  // The frequencies array carries three summary numbers after one per element (PostgreSQL docs, pg_stats).
  row.elems.forEach((lexeme, i) => freq.set(lexeme, Number(row.freqs?.[i] ?? 0)));
  return freq;
}
