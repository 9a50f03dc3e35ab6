import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { emailChanges, invitations, organizations, passwordResets, users } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import { hashToken, newToken } from '../../tokens';
import type { SessionUser, UserCtx } from '../../context';
import { audit, writeAudit } from '../audit/service';
import { createOrganizationWithAdmin } from '../organizations/create';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { clearAttempts, limiterKey, recordAttemptOrLimit, type AttemptLimit } from './login-limiter';
import { assertPasswordAllowed } from './password-policy';
import { revokeUserApiTokens } from '../api-tokens/service';
import { insertUser } from './insert-user';
import { assertAddressOpenTo } from '../sso/domains';
import { passwordResetAllowed, passwordsOff, ssoRequired } from '../sso/passwords-off';
import { createSession, deleteSessionByToken, deleteUserSessions, listUserSessions } from './sessions';
import { assertUsernameAndEmailFree, isUniqueViolation } from './unique-user';
import { PASSWORD_RESET_TTL_MINUTES } from '../../../common/constants';
import type {
  ChangePasswordBody,
  LoginBody,
  ProfileBody,
  RegisterBody,
  ResetPasswordBody,
} from '../../../common/schemas/auth';
import type { Role } from '../../../common/roles';

type ClientMeta = { ip: string; userAgent?: string };

const INVALID_INVITATION = 'This invitation link is invalid or has expired. Ask your admin for a new one.';

/** A pending, unexpired invitation by its token, with its organization's name. */
export async function findInvitation(db: DbOrTx, token: string) {
  const [row] = await db
    .select({ invitation: invitations, organizationName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(
      and(
        eq(invitations.tokenHash, hashToken(token)),
        isNull(invitations.acceptedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function previewInvitation(db: DbOrTx, token: string) {
  const found = await findInvitation(db, token);
  if (!found) throw new AppError(404, 'invitation_invalid', INVALID_INVITATION);
  return {
    email: found.invitation.email,
    role: found.invitation.role as Role,
    organizationName: found.organizationName,
  };
}

/**
 * Creates the account: with `organizationName` a new organization (user = admin, workspace "Default");
 * with `invitationToken` a member of the inviting organization in the invited role. Returns a new session.
 */
export async function register(deps: AppDeps, input: RegisterBody, meta: ClientMeta) {
  assertPasswordAllowed(input.password, 'password');
  const passwordHash = await hashPassword(input.password);
  try {
    return await inTransaction(deps.db, async (tx) => {
      await assertUsernameAndEmailFree(tx, input.username, input.email);
      let user: typeof users.$inferSelect;
      if (input.invitationToken) {
        user = await acceptInvitation(tx, input.invitationToken, { ...input, passwordHash });
      } else {
        await assertAddressOpenTo(tx, null, input.email);
        ({ user } = await createOrganizationWithAdmin(tx, {
          organizationName: input.organizationName ?? '',
          username: input.username,
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
        }));
      }
      const token = await createSession(tx, user, { ttlMs: deps.config.sessionTtlMs, ...meta });
      return { user, token };
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      await assertUsernameAndEmailFree(deps.db, input.username, input.email);
    }
    throw err;
  }
}

async function acceptInvitation(
  tx: DbOrTx,
  token: string,
  input: RegisterBody & { passwordHash: string },
): Promise<typeof users.$inferSelect> {
  const found = await findInvitation(tx, token);
  if (!found) throw new AppError(400, 'invitation_invalid', INVALID_INVITATION);
  const inv = found.invitation;
  if (inv.email.toLowerCase() !== input.email.toLowerCase()) {
    throw badRequest(`This invitation was sent to ${inv.email}. Sign up with that email address.`);
  }
  // The invitation stays open: signing in with SSO as that address uses it.
  if (await passwordsOff(tx, { id: '', organizationId: inv.organizationId })) throw ssoRequired();
  // Sent before another organization verified the domain: the domain's owner now makes its people's accounts.
  await assertAddressOpenTo(tx, inv.organizationId, input.email);
  // Single use: the conditional update makes a second, concurrent acceptance find nothing to claim.
  const claimed = await tx
    .update(invitations)
    .set({ acceptedAt: new Date() })
    .where(and(eq(invitations.id, inv.id), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id });
  if (claimed.length === 0) throw new AppError(400, 'invitation_invalid', INVALID_INVITATION);
  const user = await insertUser(tx, inv.organizationId, input, inv.role);
  await tx.update(invitations).set({ acceptedBy: user.id }).where(eq(invitations.id, inv.id));
  await writeAudit(tx, {
    organizationId: inv.organizationId,
    userId: user.id,
    action: 'invitation_accepted',
    entityType: 'user',
    entityId: user.id,
    // An invitation a token made stays traceable to that token after it is used.
    details: { role: inv.role, invitationId: inv.id, ...(inv.apiTokenId && { apiTokenId: inv.apiTokenId }) },
  });
  return user;
}

/**
 * The same answer for an unknown user and a wrong password; 429 after 10 failures a minute per account and IP.
 * The name matches a username or an e-mail address (usernames cannot contain '@', so the two never collide).
 */
export async function login(deps: AppDeps, input: LoginBody, meta: ClientMeta) {
  const [user] = await deps.db
    .select()
    .from(users)
    .where(
      and(
        input.username.includes('@')
          ? sql`lower(${users.email}) = lower(${input.username})`
          : sql`lower(${users.username}) = lower(${input.username})`,
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  const key = limiterKey({ userId: user?.id, name: input.username }, meta.ip);
  await recordAttemptOrLimit(deps.db, key);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) throw new AppError(401, 'invalid_credentials', 'Invalid username or password');
  await clearAttempts(deps.db, key);
  // Said only after the right password, so the answer does not tell strangers which accounts exist.
  if (await passwordsOff(deps.db, user)) throw ssoRequired();
  return inTransaction(deps.db, async (tx) => {
    const token = await createSession(tx, user, { ttlMs: deps.config.sessionTtlMs, ...meta });
    await writeAudit(tx, {
      organizationId: user.organizationId,
      userId: user.id,
      action: 'user_logged_in',
      entityType: 'user',
      entityId: user.id,
    });
    return { user, token };
  });
}

/** Ends the session server-side; the audit row only when it was a live session. */
export async function logout(db: DbOrTx, token: string, session: SessionUser | null) {
  await inTransaction(db, async (tx) => {
    await deleteSessionByToken(tx, token);
    if (session) {
      await writeAudit(tx, {
        organizationId: session.organizationId,
        userId: session.userId,
        action: 'user_logged_out',
        entityType: 'user',
        entityId: session.userId,
      });
    }
  });
}

export async function getUser(ctx: UserCtx) {
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.organizationId), isNull(users.deletedAt)));
  if (!user) throw notFound('User');
  return user;
}

const EMAIL_CHANGE_TTL_HOURS = 24;
/** Each request mails a stranger's inbox (the new address), so a user may ask only a few times an hour. */
const EMAIL_CHANGE_LIMIT: AttemptLimit = {
  windowMs: 3600_000,
  max: 5,
  message: 'Too many e-mail address changes in the last hour. Wait an hour and try again.',
};
const EMAIL_CHANGE_INVALID =
  'This confirmation link is invalid or has expired. Change your e-mail address again in Account Settings.';

/**
 * Username and names change at once. A new e-mail address only gets a confirmation link (valid for a day, usable
 * once); the address changes when it is opened (`confirmEmailChange`). The answer is the same whether or not
 * another account holds the address, so the form cannot be used to find out who has an account, and nobody can
 * claim an address they cannot read.
 */
export async function updateProfile(deps: AppDeps, ctx: UserCtx, input: ProfileBody) {
  const current = await getUser(ctx);
  const emailChanging = input.email.toLowerCase() !== current.email.toLowerCase();
  if (emailChanging) await recordAttemptOrLimit(ctx.db, `email-change:${ctx.userId}`, EMAIL_CHANGE_LIMIT);
  let user: typeof users.$inferSelect;
  try {
    user = await inTransaction(ctx.db, async (tx) => {
      await assertUsernameAndEmailFree(tx, input.username, null, ctx.userId);
      const [updated] = await tx
        .update(users)
        .set({
          username: input.username,
          ...(input.firstName !== undefined && { firstName: input.firstName || null }),
          ...(input.lastName !== undefined && { lastName: input.lastName || null }),
          updatedAt: new Date(),
        })
        .where(and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.organizationId)))
        .returning();
      if (!updated) throw notFound('User');
      await audit({ ...ctx, db: tx }, 'user_profile_updated', 'user', updated.id);
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) await assertUsernameAndEmailFree(ctx.db, input.username, null, ctx.userId);
    throw err;
  }
  if (emailChanging) await requestEmailChange(deps, { ...ctx, username: user.username }, input.email);
  return { user, pendingEmail: emailChanging ? input.email : null };
}

async function requestEmailChange(deps: AppDeps, ctx: UserCtx, email: string) {
  const [owner] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.deletedAt)))
    .limit(1);
  // The audit row is the same either way: the organization's admins must not learn who has an account elsewhere.
  await audit(ctx, 'email_change_requested', 'user', ctx.userId, { email });
  if (owner) return;
  const token = newToken();
  await ctx.db.insert(emailChanges).values({
    userId: ctx.userId,
    newEmail: email,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_HOURS * 3600_000),
  });
  const url = `${deps.config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  // Not awaited, like reset e-mails: a slow mail server must not make a free address answer later than a taken one.
  void deps.mailer
    .send({
      to: email,
      subject: 'Confirm your new Verity e-mail address',
      text:
        `Hello ${ctx.username},\n\nSomeone (hopefully you) asked to use this address for their Verity account. ` +
        `Open this link within ${EMAIL_CHANGE_TTL_HOURS} hours to confirm it:\n\n${url}\n\n` +
        'If you did not ask for this, ignore this e-mail: nothing changes.\n',
    })
    .catch((err: unknown) => deps.log.error({ err, userId: ctx.userId }, 'e-mail change link could not be sent'));
}

/** Opens a mailed confirmation link: the account's address becomes the new one, and the old address is told. */
export async function confirmEmailChange(deps: AppDeps, token: string): Promise<{ email: string }> {
  const invalid = () => new AppError(400, 'email_change_invalid', EMAIL_CHANGE_INVALID);
  const taken = () => conflict('Another account uses this address now. Choose another one in Account Settings.');
  let changed: { userId: string; username: string; from: string; to: string };
  try {
    changed = await inTransaction(deps.db, async (tx) => {
      const [claimed] = await tx
        .update(emailChanges)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(emailChanges.tokenHash, hashToken(token)),
            isNull(emailChanges.usedAt),
            gt(emailChanges.expiresAt, new Date()),
          ),
        )
        .returning();
      if (!claimed) throw invalid();
      const [before] = await tx
        .select()
        .from(users)
        .where(and(eq(users.id, claimed.userId), isNull(users.deletedAt)));
      if (!before) throw invalid();
      await assertUsernameAndEmailFree(tx, before.username, claimed.newEmail, before.id);
      await tx.update(users).set({ email: claimed.newEmail, updatedAt: new Date() }).where(eq(users.id, before.id));
      // Older links of the user, and reset links mailed to the old address, stop working.
      await tx
        .update(emailChanges)
        .set({ usedAt: new Date() })
        .where(and(eq(emailChanges.userId, before.id), isNull(emailChanges.usedAt)));
      await voidResetTokens(tx, before.id);
      await writeAudit(tx, {
        organizationId: before.organizationId,
        userId: before.id,
        action: 'user_email_changed',
        entityType: 'user',
        entityId: before.id,
        details: { from: before.email, to: claimed.newEmail },
      });
      return { userId: before.id, username: before.username, from: before.email, to: claimed.newEmail };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    if (err instanceof AppError && err.status === 409) throw taken();
    throw err;
  }
  void deps.mailer
    .send({
      to: changed.from,
      subject: 'Your Verity e-mail address was changed',
      text:
        `Hello ${changed.username},\n\nThe e-mail address of your Verity account is now ${changed.to}. ` +
        'If you did not make this change, tell your organization admin at once.\n',
    })
    .catch((err: unknown) => deps.log.error({ err, userId: changed.userId }, 'e-mail change notice could not be sent'));
  return { email: changed.to };
}

/** A stolen session must not become a way to guess the password: 5 wrong current passwords per 15 minutes. */
const CHANGE_PASSWORD_LIMIT: AttemptLimit = {
  windowMs: 15 * 60_000,
  max: 5,
  message: 'Too many wrong current passwords. Wait 15 minutes and try again.',
};

/**
 * Checks the current password; other sessions of the user end, the one making the change stays, and every API
 * token the user created is revoked.
 */
export async function changePassword(ctx: UserCtx, input: ChangePasswordBody) {
  const user = await getUser(ctx);
  const key = `change-password:${user.id}`;
  await recordAttemptOrLimit(ctx.db, key, CHANGE_PASSWORD_LIMIT);
  // An account made by SSO or SCIM has no password to change: it signs in at the identity provider.
  if (!user.passwordHash) {
    throw badRequest('Your account signs in through SSO and has no password. Change it at your identity provider.');
  }
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest('Current password is incorrect');
  }
  await clearAttempts(ctx.db, key);
  assertPasswordAllowed(input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await inTransaction(ctx.db, async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(users.id, user.id), eq(users.organizationId, ctx.organizationId)));
    await deleteUserSessions(tx, user.id, ctx.sessionHash);
    await voidResetTokens(tx, user.id);
    await revokeUserApiTokens(tx, user, 'password_changed');
    await audit({ ...ctx, db: tx }, 'password_changed', 'user', user.id);
  });
}

/** The caller's signed-in browsers and devices. */
export function listSessions(ctx: UserCtx, opts: { idleMs: number }) {
  return listUserSessions(ctx.db, ctx.userId, opts);
}

/**
 * "Sign out of all other sessions": ends every session of the caller but the one making the request (a lost laptop,
 * a shared computer). Returns how many were ended.
 */
export async function revokeOtherSessions(ctx: UserCtx): Promise<number> {
  return inTransaction(ctx.db, async (tx) => {
    const revoked = await deleteUserSessions(tx, ctx.userId, ctx.sessionHash);
    await audit({ ...ctx, db: tx }, 'sessions_revoked', 'user', ctx.userId, { revoked });
    return revoked;
  });
}

/** Once the password changed, every other reset link of the user (an old e-mail in an inbox) stops working. */
async function voidResetTokens(db: DbOrTx, userId: string) {
  await db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/**
 * Sends a single-use reset link valid for an hour. Answers the same whether or not the address has an
 * account, so the form cannot be used to find out who is a customer.
 */
export async function requestPasswordReset(deps: AppDeps, email: string) {
  const [user] = await deps.db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.deletedAt)))
    .limit(1);
  if (!user || !(await passwordResetAllowed(deps.db, user))) return;
  const token = newToken();
  await inTransaction(deps.db, async (tx) => {
    await tx.insert(passwordResets).values({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MINUTES * 60_000),
    });
    await writeAudit(tx, {
      organizationId: user.organizationId,
      userId: user.id,
      action: 'password_reset_requested',
      entityType: 'user',
      entityId: user.id,
    });
  });
  const url = `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  // Not awaited: a slow or failing mail server must not make known addresses answer differently from unknown ones.
  void deps.mailer
    .send({
      to: user.email,
      subject: 'Reset your Verity password',
      text:
        `Hello ${user.username},\n\nSomeone (hopefully you) asked to reset your Verity password. ` +
        `Open this link within ${PASSWORD_RESET_TTL_MINUTES} minutes to choose a new one:\n\n${url}\n\n` +
        'If you did not ask for this, ignore this e-mail: your password stays as it is.\n',
    })
    .catch((err: unknown) => deps.log.error({ err, userId: user.id }, 'password reset e-mail could not be sent'));
}

export async function resetPassword(deps: AppDeps, input: ResetPasswordBody) {
  assertPasswordAllowed(input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await inTransaction(deps.db, async (tx) => {
    const claimed = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResets.tokenHash, hashToken(input.token)),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResets.userId });
    const userId = claimed[0]?.userId;
    if (!userId)
      throw new AppError(400, 'reset_token_invalid', 'This reset link is invalid or has expired. Request a new one.');
    const [before] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
    if (!before)
      throw new AppError(400, 'reset_token_invalid', 'This reset link is invalid or has expired. Request a new one.');
    // A link sent before the organization required SSO (or signed in through it) no longer gives a password.
    if (!(await passwordResetAllowed(tx, before))) throw ssoRequired();
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, before.id))
      .returning();
    if (!user)
      throw new AppError(400, 'reset_token_invalid', 'This reset link is invalid or has expired. Request a new one.');
    await deleteUserSessions(tx, user.id);
    await voidResetTokens(tx, user.id);
    await revokeUserApiTokens(tx, user, 'password_reset');
    await writeAudit(tx, {
      organizationId: user.organizationId,
      userId: user.id,
      action: 'password_reset',
      entityType: 'user',
      entityId: user.id,
    });
  });
}
