import { and, eq, sql } from 'drizzle-orm';
import type { TenantCtx } from '../../context';
import { workspaces } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { notFound } from '../../errors';
import { fitRecalibration, recalibrate, type Recalibration, type Review } from '../../engine/ranking/recalibrate';
import { CALIBRATION_MIN_REVIEWS, type AccuracyCalibration } from '../../../common/schemas/accuracy';
import { audit } from '../audit/service';

/** The workspace's calibration, with the fitted map the question views apply (null unless active). */
export type WorkspaceCalibration = AccuracyCalibration & { map: Recalibration | null };

type ConfidenceRow = { confidence: number; n: number; kept: number };

/**
 * The workspace's own calibration (issue 36, item 4), computed on read: all its reviewed machine answers of all time
 * (Needs Review rows excluded: they state no confidence; kept = approved unchanged), grouped by stated confidence in
 * SQL, so at most 101 rows come back however many reviews there are. The map is fitted whenever there are enough
 * reviews, so the chart can show it before the switch is on; the question views use it only when `active`.
 */
export async function workspaceCalibration(ctx: TenantCtx): Promise<WorkspaceCalibration> {
  const [ws] = await ctx.db
    .select({ enabled: workspaces.calibrateConfidence })
    .from(workspaces)
    .where(and(eq(workspaces.id, ctx.workspaceId), eq(workspaces.organizationId, ctx.organizationId)));
  if (!ws) throw notFound('Workspace');
  const res = await ctx.db.execute(sql`
    select r.confidence, count(*)::int as n, count(*) filter (where r.outcome = 'unchanged')::int as kept
    from review_outcomes r
    where r.organization_id = ${ctx.organizationId} and r.workspace_id = ${ctx.workspaceId}
      and r.answer_type <> 'unknown'
    group by r.confidence`);
  const rows = (res as unknown as { rows: ConfidenceRow[] }).rows;
  const reviews = rows.reduce((sum, r) => sum + Number(r.n), 0);
  const available = reviews >= CALIBRATION_MIN_REVIEWS;
  const map = available ? fitRecalibration(expand(rows)) : null;
  const active = ws.enabled && available;
  return {
    enabled: ws.enabled,
    reviews,
    minReviews: CALIBRATION_MIN_REVIEWS,
    available,
    active,
    curve: map
      ? map.steps.map((s) => ({ confidence: s.from, calibrated: recalibrate(map, s.from), reviews: s.reviews }))
      : [],
    map: active ? map : null,
  };
}

/** The fitted map the question views apply, or null when the workspace's calibration is not active. */
export async function activeCalibration(ctx: TenantCtx): Promise<Recalibration | null> {
  // Every review screen asks: while the switch is off (the default) that costs one primary-key lookup, no grouping.
  const [ws] = await ctx.db
    .select({ enabled: workspaces.calibrateConfidence })
    .from(workspaces)
    .where(and(eq(workspaces.id, ctx.workspaceId), eq(workspaces.organizationId, ctx.organizationId)));
  if (!ws?.enabled) return null;
  return (await workspaceCalibration(ctx)).map;
}

/** The per-confidence counts as the reviews fitRecalibration takes (a few thousand small objects at most). */
function expand(rows: readonly ConfidenceRow[]): Review[] {
  const reviews: Review[] = [];
  for (const r of rows) {
    const kept = Number(r.kept);
    for (let i = 0; i < Number(r.n); i += 1) reviews.push({ confidence: Number(r.confidence), kept: i < kept });
  }
  return reviews;
}

/** Switches the workspace's own calibration on or off (audited) and returns the figures as they now stand. */
export async function setCalibration(ctx: TenantCtx, enabled: boolean): Promise<AccuracyCalibration> {
  await inTransaction(ctx.db, async (tx) => {
    const updated = await tx
      .update(workspaces)
      .set({ calibrateConfidence: enabled, updatedAt: new Date() })
      .where(and(eq(workspaces.id, ctx.workspaceId), eq(workspaces.organizationId, ctx.organizationId)))
      .returning({ id: workspaces.id });
    if (updated.length === 0) throw notFound('Workspace');
    await audit({ ...ctx, db: tx }, 'accuracy_calibration_updated', 'workspace', ctx.workspaceId, { enabled });
  });
  return presentCalibration(await workspaceCalibration(ctx));
}

/** The calibration without its internal map. */
export function presentCalibration({ map: _map, ...view }: WorkspaceCalibration): AccuracyCalibration {
  return view;
}

/**
 * The lowest stated confidence whose shown (calibrated) figure reaches `min`: the map is monotone, so "shown ≥ min"
 * is exactly "stated ≥ this" — bulk accept stays one indexed comparison on the stored confidence. 101 when none does.
 */
export function statedCutFor(map: Recalibration, min: number): number {
  for (let c = 0; c <= 100; c += 1) if (recalibrate(map, c) >= min) return c;
  return 101;
}
