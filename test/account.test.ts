import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { call, sessionCookieFrom, type Session } from './helpers/api';
import {
  createOrg,
  createTenant,
  createTenantPair,
  createUser,
  linkFromNextMail,
  unique,
  type Tenant,
  type TestUser,
} from './helpers/factories';
import { authSessions, passwordResets } from '../server/db/schema';

// PRODUCT "Account Settings (/account)": every signed-in user manages their own account, whatever their role.

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

/** A second browser of the same user, signed in with their password. */
async function signInAgain(user: { username: string; password: string }): Promise<Session> {
  const res = await call(app, 'POST', '/api/auth/login', {
    body: { username: user.username, password: user.password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return { cookie: sessionCookieFrom(res) };
}

const me = async (as: Session) => (await call(app, 'GET', '/api/auth/me', { as })).data.user;

async function auditActions(admin: TestUser, entityId: string): Promise<string[]> {
  const logs = await call(app, 'GET', '/api/admin/audit-logs?limit=500', { as: admin });
  return logs.data
    .filter((r: { entityId: string | null }) => r.entityId === entityId)
    .map((r: { action: string }) => r.action);
}

describe('PUT /api/auth/profile', () => {
  it('lets every role change their own username, e-mail (through a mailed link), first and last name', async () => {
    const org = await createTenant(app);
    for (const [role, user] of Object.entries(org.users)) {
      const username = unique(`${role}p`);
      const email = `${username}@example.org`;
      let res: Awaited<ReturnType<typeof call>> | undefined;
      const link = await linkFromNextMail(app, email, async () => {
        res = await call(app, 'PUT', '/api/auth/profile', {
          as: user,
          body: { username, email: `${username}@Example.ORG`, firstName: '  Grace ', lastName: 'Hopper' },
        });
      });
      expect(res?.statusCode, role).toBe(200);
      // The address waits for the link; the rest changes at once.
      expect(res?.data).toMatchObject({ pendingEmail: email });
      expect(res?.data.user).toMatchObject({
        id: user.id,
        username,
        email: user.email,
        firstName: 'Grace',
        lastName: 'Hopper',
        role,
      });
      expect(await me(user)).toMatchObject({ username, firstName: 'Grace', email: user.email });
      const confirmed = await call(app, 'POST', '/api/auth/confirm-email', {
        body: { token: link.searchParams.get('token') },
      });
      expect(confirmed.statusCode, role).toBe(200);
      expect(await me(user)).toMatchObject({ email });
      // The new username signs in; the old one no longer exists.
      const login = await call(app, 'POST', '/api/auth/login', { body: { username, password: user.password } });
      expect(login.statusCode, role).toBe(200);
    }
    expect(await auditActions(org.admin, org.users.viewer.id)).toContain('user_profile_updated');
  });

  it('clears first and last name when they are sent empty', async () => {
    const { admin } = await createOrg(app);
    await call(app, 'PUT', '/api/auth/profile', {
      as: admin,
      body: { username: admin.username, email: admin.email, firstName: 'Ada', lastName: 'Lovelace' },
    });
    const res = await call(app, 'PUT', '/api/auth/profile', {
      as: admin,
      body: { username: admin.username, email: admin.email, firstName: '', lastName: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toMatchObject({ firstName: null, lastName: null });
  });

  it.each([
    [{ username: 'ab' }, 'Username must be at least 3 characters'],
    [{ username: '' }, 'Username must be at least 3 characters'],
    [{ username: 'has space' }, 'Username may contain only letters, digits and . _ -'],
    [{ email: 'not-an-email' }, 'Invalid email address'],
    [{ email: undefined }, 'email is required'],
    [{ firstName: 'x'.repeat(81) }, 'First name must be at most 80 characters'],
  ])('rejects %o with "%s" and changes nothing', async (override, message) => {
    const { admin } = await createOrg(app);
    const before = await me(admin);
    const res = await call(app, 'PUT', '/api/auth/profile', {
      as: admin,
      body: { username: admin.username, email: admin.email, firstName: 'New', ...override },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data).toMatchObject({ code: 'validation_error', error: expect.stringContaining(message) });
    expect(await me(admin)).toEqual(before);
  });

  it('answers 409 for a username of someone in another organization; an e-mail of theirs changes nothing', async () => {
    const { a, b } = await createTenantPair(app);
    const user = a.users.contributor;
    const before = await me(user);
    const name = await call(app, 'PUT', '/api/auth/profile', {
      as: user,
      body: { username: b.users.viewer.username.toUpperCase(), email: user.email },
    });
    expect(name.statusCode).toBe(409);
    expect(name.data).toMatchObject({ code: 'conflict', error: 'Username already exists. Choose another one.' });
    const email = await call(app, 'PUT', '/api/auth/profile', {
      as: user,
      body: { username: user.username, email: b.users.viewer.email },
    });
    // The same answer as for a free address (test/security/identity.test.ts): no link is sent, nothing changes.
    expect(email.statusCode).toBe(200);
    expect(email.data.pendingEmail).toBe(b.users.viewer.email);
    expect(await me(user)).toEqual(before);
    expect(await me(b.users.viewer)).toMatchObject({ username: b.users.viewer.username, email: b.users.viewer.email });
  });

  it('changes only the caller, whatever ids, role or organization the body names', async () => {
    const { a, b } = await createTenantPair(app);
    const username = unique('self');
    const res = await call(app, 'PUT', '/api/auth/profile', {
      as: a.users.viewer,
      body: {
        username,
        email: `${username}@example.com`,
        id: b.users.viewer.id,
        role: 'admin',
        organizationId: b.organizationId,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toMatchObject({ id: a.users.viewer.id, role: 'viewer', organizationId: a.organizationId });
    expect(await me(b.users.viewer)).toMatchObject({ username: b.users.viewer.username });
  });

  it('needs a session', async () => {
    const res = await call(app, 'PUT', '/api/auth/profile', { body: { username: 'valid', email: 'a@b.co' } });
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ error: 'Not authenticated', code: 'unauthenticated' });
  });
});

describe('PUT /api/auth/change-password', () => {
  const change = (as: Session, body: unknown) => call(app, 'PUT', '/api/auth/change-password', { as, body });

  it('lets every role change their password; the other sessions end, this one stays', async () => {
    const org = await createTenant(app);
    for (const [role, user] of Object.entries(org.users)) {
      const elsewhere = await signInAgain(user);
      const res = await change(user, {
        currentPassword: user.password,
        newPassword: 'brand-new-pass',
        confirmPassword: 'brand-new-pass',
      });
      expect(res.statusCode, role).toBe(200);
      expect(res.data).toEqual({ success: true, message: 'Password changed successfully' });
      expect((await call(app, 'GET', '/api/auth/me', { as: user })).statusCode, role).toBe(200);
      expect((await call(app, 'GET', '/api/auth/me', { as: elsewhere })).statusCode, role).toBe(401);
      const old = await call(app, 'POST', '/api/auth/login', {
        body: { username: user.username, password: user.password },
      });
      expect(old.statusCode, role).toBe(401);
      await signInAgain({ username: user.username, password: 'brand-new-pass' });
    }
    expect(await auditActions(org.admin, org.users.manager.id)).toContain('password_changed');
  });

  it.each([
    [{ currentPassword: 'wrong-one' }, 'Current password is incorrect'],
    [{ confirmPassword: 'different' }, "New passwords don't match"],
    [{ newPassword: '1234567', confirmPassword: '1234567' }, 'Password must be at least 8 characters'],
    [{ currentPassword: '' }, 'Current password is required'],
  ])('rejects %o with "%s"; the old password and the other sessions still work', async (override, message) => {
    const { admin } = await createOrg(app);
    const elsewhere = await signInAgain(admin);
    const res = await change(admin, {
      currentPassword: admin.password,
      newPassword: 'brand-new-pass',
      confirmPassword: 'brand-new-pass',
      ...override,
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toContain(message);
    expect((await call(app, 'GET', '/api/auth/me', { as: elsewhere })).statusCode).toBe(200);
    await signInAgain(admin);
  });

  it('needs a session', async () => {
    const res = await call(app, 'PUT', '/api/auth/change-password', {
      body: { currentPassword: 'a', newPassword: 'abcdef', confirmPassword: 'abcdef' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('password reset e-mail from Account Settings', () => {
  const requestReset = (email: string) =>
    call(app, 'POST', '/api/auth/forgot-password', { body: { email } }).then((res) => {
      expect(res.statusCode).toBe(200);
      expect(res.data).toEqual({ message: 'Password reset email sent. Check your inbox for instructions.' });
    });

  it('mails a link to /reset-password that sets a new password once; a reused link is refused clearly', async () => {
    const user = await createUser(app, t.users.admin, 'contributor');
    const link = await linkFromNextMail(app, user.email, () => requestReset(user.email.toUpperCase()));
    expect(`${link.origin}${link.pathname}`).toBe('http://verity.test/reset-password');
    const token = link.searchParams.get('token');
    const reset = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'from-the-mail', confirmPassword: 'from-the-mail' },
    });
    expect(reset.statusCode).toBe(200);
    await signInAgain({ username: user.username, password: 'from-the-mail' });
    const reused = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'second-time', confirmPassword: 'second-time' },
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.data).toEqual({
      code: 'reset_token_invalid',
      error: 'This reset link is invalid or has expired. Request a new one.',
    });
    await signInAgain({ username: user.username, password: 'from-the-mail' });
  });

  it('refuses an expired link and leaves the password as it was', async () => {
    const user = await createUser(app, t.users.admin, 'viewer');
    const link = await linkFromNextMail(app, user.email, () => requestReset(user.email));
    await app.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.id));
    const res = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token: link.searchParams.get('token'), newPassword: 'too-late-now', confirmPassword: 'too-late-now' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.code).toBe('reset_token_invalid');
    await signInAgain(user);
  });
});

describe('GET /api/auth/sessions', () => {
  it("lists the caller's own sessions, marks the current one, and never shows ids or hashes", async () => {
    const { a, b } = await createTenantPair(app);
    const user = a.users.manager;
    await signInAgain(user);
    const res = await call(app, 'GET', '/api/auth/sessions', { as: user });
    expect(res.statusCode).toBe(200);
    expect(res.data).toHaveLength(2);
    expect(res.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(Object.keys(res.data[0]).sort()).toEqual([
      'createdAt',
      'current',
      'expiresAt',
      'ip',
      'lastSeenAt',
      'userAgent',
    ]);
    const rows = await app.database.db.select().from(authSessions).where(eq(authSessions.userId, user.id));
    const text = JSON.stringify(res.data);
    for (const row of rows) expect(text).not.toContain(row.idHash);
    expect(text).not.toContain(user.cookie.split('=')[1]!);
    // Another organization's user sees only their own.
    const other = await call(app, 'GET', '/api/auth/sessions', { as: b.users.manager });
    expect(other.data).toHaveLength(1);
  });

  it('needs a session', async () => {
    expect((await call(app, 'GET', '/api/auth/sessions')).statusCode).toBe(401);
  });
});

describe('POST /api/auth/sessions/revoke-others', () => {
  const revoke = (as: Session) => call(app, 'POST', '/api/auth/sessions/revoke-others', { as });

  it("ends the caller's other sessions, keeps this one, and is audited", async () => {
    const org = await createOrg(app);
    const laptop = await signInAgain(org.admin);
    const phone = await signInAgain(org.admin);
    const res = await revoke(org.admin);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ revoked: 2, message: 'Signed out of 2 other sessions.' });
    expect((await call(app, 'GET', '/api/auth/me', { as: org.admin })).statusCode).toBe(200);
    for (const s of [laptop, phone]) expect((await call(app, 'GET', '/api/auth/me', { as: s })).statusCode).toBe(401);
    const sessions = await call(app, 'GET', '/api/auth/sessions', { as: org.admin });
    expect(sessions.data).toEqual([expect.objectContaining({ current: true })]);
    const again = await revoke(org.admin);
    expect(again.data).toEqual({ revoked: 0, message: 'You were not signed in anywhere else.' });
    expect(await auditActions(org.admin, org.admin.id)).toContain('sessions_revoked');
    // The password still works: signing out elsewhere is not a lock-out.
    await signInAgain(org.admin);
  });

  it('lets every role sign out elsewhere, touching nobody else in either organization', async () => {
    const { a, b } = await createTenantPair(app);
    for (const [role, user] of Object.entries(a.users)) {
      const elsewhere = await signInAgain(user);
      const res = await revoke(user);
      expect(res.statusCode, role).toBe(200);
      expect(res.data.revoked, role).toBe(1);
      expect((await call(app, 'GET', '/api/auth/me', { as: elsewhere })).statusCode, role).toBe(401);
      expect((await call(app, 'GET', '/api/auth/me', { as: user })).statusCode, role).toBe(200);
    }
    for (const user of [...Object.values(a.users), ...Object.values(b.users)]) {
      expect((await call(app, 'GET', '/api/auth/me', { as: user })).statusCode).toBe(200);
    }
  });

  it('needs a session', async () => {
    const res = await call(app, 'POST', '/api/auth/sessions/revoke-others');
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ error: 'Not authenticated', code: 'unauthenticated' });
  });
});
