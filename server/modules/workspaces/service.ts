import { and, asc, eq } from 'drizzle-orm';
import { assessmentBatches, documents, workspaceChanges, workspaces } from '../../db/schema';
import type { UserCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { inTransaction } from '../../db/client';
import { conflict, notFound } from '../../errors';
import { audit } from '../audit/service';
import type { CreateWorkspaceBody, UpdateWorkspaceBody } from '../../../common/schemas/workspaces';

/** The requested workspace if it is the caller's organization's, else its first one. 404 otherwise. */
export async function resolveWorkspace(ctx: UserCtx, requested?: string) {
  const where = requested
    ? and(eq(workspaces.id, requested), eq(workspaces.organizationId, ctx.organizationId))
    : eq(workspaces.organizationId, ctx.organizationId);
  const [row] = await ctx.db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(where)
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id))
    .limit(1);
  if (!row) throw notFound('Workspace');
  return row.id;
}

/** The organization's workspaces, oldest first. Naming another organization is answered like one that does not exist. */
export async function listWorkspaces(ctx: UserCtx, query: { organizationId?: string } = {}) {
  if (query.organizationId && query.organizationId !== ctx.organizationId) throw notFound('Organization');
  return ctx.db
    .select()
    .from(workspaces)
    .where(eq(workspaces.organizationId, ctx.organizationId))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
}

export async function createWorkspace(ctx: UserCtx, input: CreateWorkspaceBody) {
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(workspaces)
      .values({ organizationId: ctx.organizationId, name: input.name, description: input.description || null })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await audit({ ...ctx, db: tx }, 'workspace_created', 'workspace', row.id, { name: row.name });
    return row;
  });
}

export async function updateWorkspace(ctx: UserCtx, id: string, input: UpdateWorkspaceBody) {
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .update(workspaces)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.description !== undefined && { description: input.description || null }),
        updatedAt: new Date(),
      })
      .where(and(eq(workspaces.id, id), eq(workspaces.organizationId, ctx.organizationId)))
      .returning();
    if (!row) throw notFound('Workspace');
    await audit({ ...ctx, db: tx }, 'workspace_updated', 'workspace', row.id, { ...input });
    return row;
  });
}

/**
 * Deletes a workspace with everything in it (rows cascade), then its stored files at once: documents' files and
 * questionnaire originals would otherwise keep using the organization's storage until the orphan sweep a day later.
 * A file that fails to go is left to that sweep.
 */
export async function deleteWorkspace(deps: Pick<AppDeps, 'storage'>, ctx: UserCtx, id: string) {
  const keys = await inTransaction(ctx.db, async (tx) => {
    // Lock every workspace of the organization so two concurrent deletes cannot both pass the count.
    const all = await tx
      .select({ id: workspaces.id, name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.organizationId, ctx.organizationId))
      .for('update');
    const existing = all.find((w) => w.id === id);
    if (!existing) throw notFound('Workspace');
    if (all.length <= 1) throw conflict('An organization must keep at least one workspace.');
    const inWorkspace = (t: typeof documents | typeof assessmentBatches) =>
      and(eq(t.workspaceId, id), eq(t.organizationId, ctx.organizationId));
    const files = [
      ...(await tx.select({ key: documents.storageKey }).from(documents).where(inWorkspace(documents))),
      ...(await tx
        .select({ key: assessmentBatches.storageKey })
        .from(assessmentBatches)
        .where(inWorkspace(assessmentBatches))),
    ];
    await tx.delete(workspaces).where(and(eq(workspaces.id, id), eq(workspaces.organizationId, ctx.organizationId)));
    // The engine's change counts of the workspace (no foreign key to cascade from: schema.ts says why).
    await tx.delete(workspaceChanges).where(eq(workspaceChanges.workspaceId, id));
    await audit({ ...ctx, db: tx }, 'workspace_deleted', 'workspace', id, { name: existing.name });
    return files.map((f) => f.key).filter((k): k is string => k !== null);
  });
  for (const key of keys) await deps.storage.delete(key).catch(() => undefined);
}

export function presentWorkspace(row: typeof workspaces.$inferSelect) {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
  };
}
