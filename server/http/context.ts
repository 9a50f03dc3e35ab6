import type { FastifyRequest } from 'fastify';
import type { Action } from '../../common/policies';
import type { SessionUser, TenantCtx, UserCtx } from '../context';
import { badRequest } from '../errors';
import { resolveWorkspace } from '../modules/workspaces/service';

/** Who may call a route: anyone, any signed-in caller, or the roles the policy allows this action. */
export type Access = 'public' | 'signed-in' | Action;

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionUser | null;
    /** The caller (every route but a public one). */
    user: UserCtx;
    /** The caller in the workspace of `X-Workspace-Id` (routes that declare `workspace: true`). */
    tenant: TenantCtx;
  }
  interface FastifyContextConfig {
    /**
     * Who may call the route; every /api route declares it (the app refuses to register one that does not). An
     * action is checked as soon as the caller is known, before the body is read or validated, so a role below it
     * gets 403 whatever it sends and learns nothing of the route's schema.
     */
    access?: Access;
    /** The route works inside one workspace: `req.tenant` is resolved from `X-Workspace-Id` before the handler. */
    workspace?: boolean;
    /** Only a signed-in browser session may call the route; an API token gets 403 (passwords, sessions, tokens). */
    sessionOnly?: boolean;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The workspace of the `X-Workspace-Id` header (or the organization's first workspace). A workspace of another
 * organization is "not found", exactly like one that does not exist.
 */
export async function resolveTenant(req: FastifyRequest, user: UserCtx): Promise<TenantCtx> {
  const header = req.headers['x-workspace-id'];
  const requested = Array.isArray(header) ? header[0] : header;
  if (requested !== undefined && requested !== '' && !UUID.test(requested)) {
    throw badRequest('X-Workspace-Id must be a workspace id');
  }
  const workspaceId = await resolveWorkspace(user, requested || undefined);
  return { ...user, workspaceId };
}
