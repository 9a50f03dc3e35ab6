import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { Embedder } from '../embedding/embedder';
import { answerQuestion } from './answer';

/** What the warm-up asks: any question does, it is answered and thrown away. */
const WARM_UP_QUESTION = 'Do you have an information security policy approved by management?';

type Rows<T> = { rows: T[] };

/**
 * After a start, the workspaces where people asked most recently (within `days`, at most `max` of them) have a
 * question answered in the background, and thrown away: their word statistics, library index and vector index are
 * then built, and the database's pages read, before a person's first question needs them (that question took
 * 0.8 s on a 10,000-entry, 100,000-chunk workspace, bench:ask, instead of ~55 ms). No answer or chat row is written
 * (the table statistics and change counts are kept up as any question keeps them), the LLM is never called (an
 * embedding endpoint, when that is the embedder, gets one question per workspace), and the work takes the same turns
 * as any question. Never throws. Returns the workspaces warmed, most recent first.
 */
export async function warmRecentWorkspaces(
  db: Db,
  embedder: Embedder | null,
  log: FastifyBaseLogger,
  /** `stopping`: the server is shutting down; no further workspace is begun. */
  opts: { max: number; days: number; stopping?: () => boolean },
): Promise<{ organizationId: string; workspaceId: string }[]> {
  if (opts.max <= 0) return [];
  try {
    return await warm(db, embedder, log, opts);
  } catch (err) {
    // A warm-up is only ahead of time what the first questions would do: it failing changes nothing else.
    if (!opts.stopping?.()) log.warn({ err }, 'warming up the recent workspaces failed');
    return [];
  }
}

async function warm(
  db: Db,
  embedder: Embedder | null,
  log: FastifyBaseLogger,
  opts: { max: number; days: number; stopping?: () => boolean },
): Promise<{ organizationId: string; workspaceId: string }[]> {
  // One index look-up per workspace (qa_entries by workspace and time), not a scan of every question ever asked.
  const res = (await db.execute(sql`
    select w.organization_id as "organizationId", w.id as "workspaceId", last.at
    from workspaces w
    cross join lateral (
      select max(q.created_at) as at from qa_entries q
      where q.organization_id = w.organization_id and q.workspace_id = w.id
    ) last
    where last.at > now() - make_interval(days => ${opts.days})
    order by last.at desc
    limit ${opts.max}`)) as Rows<{ organizationId: string; workspaceId: string }>;
  const warmed: { organizationId: string; workspaceId: string }[] = [];
  for (const { organizationId, workspaceId } of res.rows) {
    if (opts.stopping?.()) break;
    const started = performance.now();
    try {
      await answerQuestion({ db, organizationId, workspaceId }, WARM_UP_QUESTION, undefined, { embedder });
      warmed.push({ organizationId, workspaceId });
      log.debug({ workspaceId, ms: Math.round(performance.now() - started) }, 'workspace warmed up');
    } catch (err) {
      if (!opts.stopping?.()) log.warn({ err, workspaceId }, 'warming up a workspace failed');
    }
  }
  return warmed;
}
