import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TenantCtx, UserCtx } from './context';

type WorkspaceTable = { organizationId: AnyPgColumn; workspaceId: AnyPgColumn };
type OrganizationTable = { organizationId: AnyPgColumn };

/**
 * The tenant filter of every query on a workspace table: its organization and its workspace. Both, always: a
 * workspace id alone would trust that ids never cross organizations, and a query that forgets this filter is
 * how one tenant reads another's rows.
 */
export function inTenant(table: WorkspaceTable, ctx: Pick<TenantCtx, 'organizationId' | 'workspaceId'>): SQL {
  return and(eq(table.organizationId, ctx.organizationId), eq(table.workspaceId, ctx.workspaceId)) as SQL;
}

/** The same for a table that belongs to an organization as a whole (users, workspaces, settings). */
export function inOrganization(table: OrganizationTable, ctx: Pick<UserCtx, 'organizationId'>): SQL {
  return eq(table.organizationId, ctx.organizationId);
}
