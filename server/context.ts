import type { StoredRole } from '../common/roles';
import type { DbOrTx } from './db/client';

/** The signed-in caller, as loaded from the session on every request. */
export type SessionUser = {
  userId: string;
  organizationId: string;
  role: StoredRole;
  username: string;
  sessionHash: string;
  /** Set when the caller is an API token (`Authorization: Bearer`), not a browser session. */
  apiTokenId?: string;
};

/**
 * Who is asking, with the database handle to ask it on: what every organization-level service function takes
 * first. `db` is the one piece of infrastructure carried here, because a transaction replaces it (`{...ctx, db: tx}`).
 */
export type UserCtx = SessionUser & { db: DbOrTx };

/** The caller inside one workspace of their organization: what every workspace-level service function takes first. */
export type TenantCtx = UserCtx & { workspaceId: string };
