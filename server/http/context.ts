import type { FastifyRequest } from 'fastify';
import type { Action } from '../../common/policies';
import type { StoredRole } from '../../common/roles';
import type { DbOrTx } from '../db/client';
import { badRequest, unauthenticated } from './errors';
import { resolveWorkspace } from '../modules/workspaces/service';

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

/** What every service function takes first: the database handle and who is asking, in which tenant. */
export type UserCtx = SessionUser & { db: DbOrTx };
export type TenantCtx = UserCtx & { workspaceId: string };

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** The route answers without a session (sign-in, sign-up, health…). Every other API route needs one. */
    public?: boolean;
    /** Only a signed-in browser session may call the route; an API token gets 403 (passwords, sessions, tokens). */
    sessionOnly?: boolean;
    /**
     * The action the caller's role must allow. Checked as soon as the caller is known, before the body is read or
     * validated, so a role below it gets 403 whatever it sends and learns nothing of the route's schema.
     */
    policy?: Action;
  }
}

/** 401 unless signed in. */
export function requireUser(req: FastifyRequest): UserCtx {
  if (!req.session) throw unauthenticated();
  return { ...req.session, db: req.server.deps.db };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The caller plus the workspace of the `X-Workspace-Id` header (or the organization's first workspace).
 * A workspace of another organization is "not found", exactly like one that does not exist.
 */
export async function requireTenant(req: FastifyRequest): Promise<TenantCtx> {
  const ctx = requireUser(req);
  const header = req.headers['x-workspace-id'];
  const requested = Array.isArray(header) ? header[0] : header;
  if (requested !== undefined && requested !== '' && !UUID.test(requested)) {
    throw badRequest('X-Workspace-Id must be a workspace id');
  }
  const workspaceId = await resolveWorkspace(ctx, requested || undefined);
  return { ...ctx, workspaceId };
}
