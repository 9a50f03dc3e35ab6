import { and, asc, count, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { scimGroupMembers, scimGroups, users } from '../../db/schema';
import { inTransaction, type DbOrTx, type Tx } from '../../db/client';
import { writeAudit } from '../audit/service';
import {
  SCIM_SCHEMA,
  type ScimGroupBody,
  type ScimListQuery,
  type ScimPatchOperation,
} from '../../../common/schemas/scim';
import type { ScimCtx } from './auth';
import { invalidValue, ScimError, scimNotFound } from './errors';
import { parseFilter, type Comparison } from './filter';
import { applyGroupPatch, type GroupState } from './group-patch';
import { listResponse, presentScimGroup, type MemberRef } from './presenters';
import { syncRoles } from './roles';

type GroupRow = typeof scimGroups.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GROUP_FILTERS = ['displayname', 'externalid', 'id'] as const;

function groupCondition({ attribute, value }: Comparison): SQL {
  switch (attribute) {
    // displayName is case-insensitive (RFC 7643 §4.2), as the unique index on it is.
    case 'displayname':
      return sql`lower(${scimGroups.displayName}) = lower(${value})`;
    case 'externalid':
      return eq(scimGroups.externalId, value);
    default:
      return UUID.test(value) ? eq(scimGroups.id, value) : sql`false`;
  }
}

/** Whether the client asked to leave members out (`excludedAttributes=members`, as Entra ID does on lookups). */
export function wantsMembers(excluded: string | undefined): boolean {
  return !(excluded ?? '')
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .some((a) => a === 'members' || a === `${SCIM_SCHEMA.group.toLowerCase()}:members`);
}

async function membersOf(db: DbOrTx, groupIds: string[]): Promise<Map<string, MemberRef[]>> {
  const byGroup = new Map<string, MemberRef[]>();
  if (groupIds.length === 0) return byGroup;
  const rows = await db
    // Members are shown by their SCIM userName, as the client knows them.
    .select({
      groupId: scimGroupMembers.groupId,
      id: users.id,
      username: sql<string>`coalesce(${users.scimUserName}, ${users.username})`,
    })
    .from(scimGroupMembers)
    .innerJoin(users, eq(users.id, scimGroupMembers.userId))
    .where(inArray(scimGroupMembers.groupId, groupIds))
    .orderBy(asc(users.username));
  for (const r of rows) byGroup.set(r.groupId, [...(byGroup.get(r.groupId) ?? []), { id: r.id, username: r.username }]);
  return byGroup;
}

async function present(ctx: ScimCtx, db: DbOrTx, group: GroupRow, withMembers = true) {
  const members = withMembers ? ((await membersOf(db, [group.id])).get(group.id) ?? []) : null;
  return presentScimGroup(group, members, ctx.baseUrl);
}

async function loadGroup(ctx: ScimCtx, db: DbOrTx, id: string, lock = false): Promise<GroupRow> {
  if (!UUID.test(id)) throw scimNotFound('Group', id);
  const query = db
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.id, id), eq(scimGroups.organizationId, ctx.organizationId)));
  const [group] = lock ? await query.for('update') : await query;
  if (!group) throw scimNotFound('Group', id);
  return group;
}

export async function listScimGroups(ctx: ScimCtx, query: ScimListQuery) {
  const comparisons = query.filter ? parseFilter(query.filter, GROUP_FILTERS) : [];
  const where = and(eq(scimGroups.organizationId, ctx.organizationId), ...comparisons.map(groupCondition));
  const [total] = await ctx.db.select({ n: count() }).from(scimGroups).where(where);
  const rows =
    query.count === 0
      ? []
      : await ctx.db
          .select()
          .from(scimGroups)
          .where(where)
          .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id))
          .offset(query.startIndex - 1)
          .limit(query.count);
  const withMembers = wantsMembers(query.excludedAttributes);
  const members = withMembers
    ? await membersOf(
        ctx.db,
        rows.map((r) => r.id),
      )
    : null;
  const resources = rows.map((r) => presentScimGroup(r, members ? (members.get(r.id) ?? []) : null, ctx.baseUrl));
  return listResponse(resources, total?.n ?? 0, query.startIndex);
}

export async function getScimGroup(ctx: ScimCtx, id: string, excludedAttributes?: string) {
  return present(ctx, ctx.db, await loadGroup(ctx, ctx.db, id), wantsMembers(excludedAttributes));
}

/** Member ids must be SCIM users of this organization: anything else is refused without saying whose it is. */
async function assertMembers(tx: Tx, ctx: ScimCtx, ids: Iterable<string>): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const bad = wanted.find((id) => !UUID.test(id));
  if (bad !== undefined) throw invalidValue(`Member ${bad} is not a user of this organization`);
  const found = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, wanted), eq(users.organizationId, ctx.organizationId), isNull(users.scimDeletedAt)));
  const known = new Set(found.map((f) => f.id));
  const missing = wanted.find((id) => !known.has(id));
  if (missing !== undefined) throw invalidValue(`Member ${missing} is not a user of this organization`);
}

async function assertNameFree(tx: Tx, ctx: ScimCtx, displayName: string, exceptId?: string) {
  const [taken] = await tx
    .select({ id: scimGroups.id })
    .from(scimGroups)
    .where(
      and(
        eq(scimGroups.organizationId, ctx.organizationId),
        sql`lower(${scimGroups.displayName}) = lower(${displayName})`,
        exceptId ? ne(scimGroups.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw new ScimError(409, `A group named "${displayName}" already exists`, 'uniqueness');
}

function audit(tx: Tx, ctx: ScimCtx, action: string, groupId: string, details: Record<string, unknown>) {
  return writeAudit(tx, {
    organizationId: ctx.organizationId,
    userId: null,
    action,
    entityType: 'scim_group',
    entityId: groupId,
    details: { via: 'scim', tokenId: ctx.tokenId, ...details },
  });
}

export async function createScimGroup(ctx: ScimCtx, body: ScimGroupBody) {
  const members = new Set((body.members ?? []).map((m) => m.value.toLowerCase()));
  return inTransaction(ctx.db, async (tx) => {
    await assertNameFree(tx, ctx, body.displayName);
    await assertMembers(tx, ctx, members);
    const [group] = await tx
      .insert(scimGroups)
      .values({
        organizationId: ctx.organizationId,
        displayName: body.displayName,
        externalId: body.externalId || null,
      })
      .returning();
    if (!group) throw new Error('insert returned no group');
    if (members.size > 0) {
      await tx.insert(scimGroupMembers).values([...members].map((userId) => ({ groupId: group.id, userId })));
    }
    await audit(tx, ctx, 'scim_group_created', group.id, { displayName: group.displayName, members: members.size });
    await syncRoles(tx, ctx, members);
    return present(ctx, tx, group);
  });
}

/**
 * Writes a group's new state and its membership changes, then brings the roles of everyone it touched in line with
 * the group→role mappings: added and removed members, and every member when the name (what a mapping matches) changed.
 */
async function saveGroup(tx: Tx, ctx: ScimCtx, group: GroupRow, next: GroupState) {
  const before = (await stateOf(tx, group)).members;
  const added = [...next.members].filter((id) => !before.has(id));
  const removed = [...before].filter((id) => !next.members.has(id));
  const renamed = next.displayName !== group.displayName;
  if (renamed) await assertNameFree(tx, ctx, next.displayName, group.id);
  await assertMembers(tx, ctx, added);
  const changedFields = [renamed && 'displayName', next.externalId !== group.externalId && 'externalId'].filter(
    (f): f is string => typeof f === 'string',
  );
  if (changedFields.length === 0 && added.length === 0 && removed.length === 0) return group;
  const [saved] = await tx
    .update(scimGroups)
    .set({ displayName: next.displayName, externalId: next.externalId, updatedAt: new Date() })
    .where(eq(scimGroups.id, group.id))
    .returning();
  if (!saved) throw scimNotFound('Group', group.id);
  if (added.length > 0) {
    await tx.insert(scimGroupMembers).values(added.map((userId) => ({ groupId: group.id, userId })));
  }
  if (removed.length > 0) {
    await tx
      .delete(scimGroupMembers)
      .where(and(eq(scimGroupMembers.groupId, group.id), inArray(scimGroupMembers.userId, removed)));
  }
  await audit(tx, ctx, 'scim_group_updated', group.id, {
    displayName: saved.displayName,
    ...(changedFields.length > 0 && { fields: changedFields }),
    ...(added.length > 0 && { added }),
    ...(removed.length > 0 && { removed }),
  });
  await syncRoles(tx, ctx, renamed ? [...before, ...added] : [...added, ...removed]);
  return saved;
}

async function stateOf(tx: Tx, group: GroupRow): Promise<GroupState> {
  const rows = await tx
    .select({ userId: scimGroupMembers.userId })
    .from(scimGroupMembers)
    .where(eq(scimGroupMembers.groupId, group.id));
  return { displayName: group.displayName, externalId: group.externalId, members: new Set(rows.map((r) => r.userId)) };
}

/** PUT: the body replaces the group, its member list included (no members: none). */
export async function replaceScimGroup(ctx: ScimCtx, id: string, body: ScimGroupBody) {
  return inTransaction(ctx.db, async (tx) => {
    const group = await loadGroup(ctx, tx, id, true);
    const next: GroupState = {
      displayName: body.displayName,
      externalId: body.externalId || null,
      members: new Set((body.members ?? []).map((m) => m.value.toLowerCase())),
    };
    return present(ctx, tx, await saveGroup(tx, ctx, group, next));
  });
}

export async function patchScimGroup(
  ctx: ScimCtx,
  id: string,
  operations: ScimPatchOperation[],
  excludedAttributes?: string,
) {
  return inTransaction(ctx.db, async (tx) => {
    const group = await loadGroup(ctx, tx, id, true);
    const next = applyGroupPatch(await stateOf(tx, group), operations);
    return present(ctx, tx, await saveGroup(tx, ctx, group, next), wantsMembers(excludedAttributes));
  });
}

/** DELETE: the group goes, and its former members' roles follow the mappings without it. */
export async function deleteScimGroup(ctx: ScimCtx, id: string) {
  await inTransaction(ctx.db, async (tx) => {
    const group = await loadGroup(ctx, tx, id, true);
    const former = await tx
      .delete(scimGroupMembers)
      .where(eq(scimGroupMembers.groupId, group.id))
      .returning({ userId: scimGroupMembers.userId });
    await tx.delete(scimGroups).where(eq(scimGroups.id, group.id));
    await audit(tx, ctx, 'scim_group_deleted', group.id, {
      displayName: group.displayName,
      members: former.length,
    });
    await syncRoles(
      tx,
      ctx,
      former.map((m) => m.userId),
    );
  });
}
