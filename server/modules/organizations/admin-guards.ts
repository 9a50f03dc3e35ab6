import type { Tx } from '../../db/client';
import type { UserCtx } from '../../context';
import { conflict, forbidden } from '../../errors';
import { isAdmin } from './last-admin';
import { ssoOf } from '../sso/passwords-off';

/**
 * Who is an admin changes only with a person signed in, like the SSO settings: a leaked admin token must not mint
 * admins that outlive its revocation, nor remove the admins who would revoke it.
 */
export function assertSessionForAdminChange(ctx: UserCtx, targetRole: string, newRole?: string): void {
  if (!ctx.apiTokenId) return;
  if (isAdmin(targetRole) || (newRole !== undefined && isAdmin(newRole))) {
    throw forbidden('An API token cannot make, demote or remove admins. Sign in to Verity to change who is an admin.');
  }
}

/**
 * While SSO is required, the break-glass admin is the organization's way back in when the identity provider fails:
 * they keep their admin role and their account until another break-glass admin is named.
 */
export async function assertNotBreakGlass(tx: Tx, ctx: UserCtx, target: { id: string; username: string }) {
  const sso = await ssoOf(tx, ctx.organizationId);
  if (!sso?.ssoRequired || sso.breakGlassUserId !== target.id) return;
  throw conflict(
    `${target.username} is the break-glass admin, who signs in with a password while SSO is required. Choose another break-glass admin in SSO Settings first.`,
  );
}
