import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { call, sessionCookieFrom } from './helpers/api';
import { createExpiredInvitation, createOrg, createUser, linkFromNextMail, unique } from './helpers/factories';
import { authSessions, invitations, passwordResets, users } from '../server/db/schema';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

async function resetTokenFor(email: string): Promise<string> {
  const link = await linkFromNextMail(app, email, () =>
    call(app, 'POST', '/api/auth/forgot-password', { body: { email } }),
  );
  return link.searchParams.get('token') ?? '';
}

describe('secrets at rest', () => {
  it('stores session ids, invitation and reset tokens only as hashes', async () => {
    const org = await createOrg(app);
    const sessionValue = org.admin.cookie.split('=')[1]!;
    const sessions = await app.database.db.select().from(authSessions).where(eq(authSessions.userId, org.admin.id));
    expect(sessions.length).toBeGreaterThan(0);
    expect(JSON.stringify(sessions)).not.toContain(sessionValue);
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email: `${unique('h')}@example.com`, role: 'viewer' },
    });
    const [invRow] = await app.database.db.select().from(invitations).where(eq(invitations.id, inv.data.id));
    expect(JSON.stringify(invRow)).not.toContain(inv.data.token);
    const token = await resetTokenFor(org.admin.email);
    const resets = await app.database.db.select().from(passwordResets).where(eq(passwordResets.userId, org.admin.id));
    expect(JSON.stringify(resets)).not.toContain(token);
  });
});

describe('password reset links', () => {
  it('expire after an hour', async () => {
    const { admin } = await createOrg(app);
    const token = await resetTokenFor(admin.email);
    const [row] = await app.database.db.select().from(passwordResets).where(eq(passwordResets.userId, admin.id));
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(minutes).toBeCloseTo(60, 0);
    await app.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, admin.id));
    const res = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'too-late', confirmPassword: 'too-late' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.code).toBe('reset_token_invalid');
  });

  it('all stop working once the password changed', async () => {
    const { admin } = await createOrg(app);
    const first = await resetTokenFor(admin.email);
    const second = await resetTokenFor(admin.email);
    expect(first).not.toBe(second);
    const ok = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token: second, newPassword: 'new-pass-1', confirmPassword: 'new-pass-1' },
    });
    expect(ok.statusCode).toBe(200);
    const old = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token: first, newPassword: 'takeover', confirmPassword: 'takeover' },
    });
    expect(old.statusCode).toBe(400);

    const third = await resetTokenFor(admin.email);
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: 'new-pass-1' },
    });
    await call(app, 'PUT', '/api/auth/change-password', {
      as: { cookie: sessionCookieFrom(login) },
      body: { currentPassword: 'new-pass-1', newPassword: 'new-pass-2', confirmPassword: 'new-pass-2' },
    });
    const afterChange = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token: third, newPassword: 'takeover', confirmPassword: 'takeover' },
    });
    expect(afterChange.statusCode).toBe(400);
  });
});

describe('sign-in limiter', () => {
  it('holds against a parallel burst of guesses', async () => {
    const { admin } = await createOrg(app);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(app, 'POST', '/api/auth/login', { body: { username: admin.username, password: `guess-${i}` } }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(20);
  });

  it('counts username and e-mail sign-ins of one account together', async () => {
    const { admin } = await createOrg(app);
    for (let i = 0; i < 5; i++) {
      await call(app, 'POST', '/api/auth/login', { body: { username: admin.username, password: `a-${i}` } });
      await call(app, 'POST', '/api/auth/login', { body: { username: admin.email, password: `b-${i}` } });
    }
    const res = await call(app, 'POST', '/api/auth/login', { body: { username: admin.email, password: 'c' } });
    expect(res.statusCode).toBe(429);
  });

  it('a failed sign-in does not end the session the browser already has', async () => {
    const { admin } = await createOrg(app);
    const res = await call(app, 'POST', '/api/auth/login', {
      as: admin,
      body: { username: admin.username, password: 'wrong-one' },
    });
    expect(res.statusCode).toBe(401);
    expect((await call(app, 'GET', '/api/auth/me', { as: admin })).statusCode).toBe(200);
  });

  it("refuses usernames with '@', which would be read as e-mail addresses at sign-in", async () => {
    const res = await call(app, 'POST', '/api/auth/register', {
      body: {
        username: 'bob@corp',
        email: `${unique('b')}@example.com`,
        password: 'secret-1234',
        organizationName: 'X',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toMatch(/Username may contain only/);
  });
});

describe('invitations and removed admins', () => {
  it("a removed admin's pending invitations are revoked", async () => {
    const org = await createOrg(app);
    const rogue = await createUser(app, org.admin, 'admin');
    const email = `${unique('alt')}@example.com`;
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: rogue,
      body: { email, role: 'admin' },
    });
    expect(inv.statusCode).toBe(201);
    expect((await call(app, 'DELETE', `/api/organizations/users/${rogue.id}`, { as: org.admin })).statusCode).toBe(200);
    const back = await call(app, 'POST', '/api/auth/register', {
      body: { username: unique('back'), email, password: 'secret-1234', invitationToken: inv.data.token },
    });
    expect(back.statusCode).toBe(400);
  });

  it("a demoted admin's pending invitations are revoked", async () => {
    const org = await createOrg(app);
    const other = await createUser(app, org.admin, 'admin');
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: other,
      body: { email: `${unique('alt')}@example.com`, role: 'admin' },
    });
    await call(app, 'PUT', `/api/organizations/users/${other.id}/role`, { as: org.admin, body: { role: 'viewer' } });
    expect((await call(app, 'GET', `/api/auth/invitations/${inv.data.token}`)).statusCode).toBe(404);
  });

  it('an expired invitation cannot be accepted', async () => {
    const org = await createOrg(app);
    const email = `${unique('late')}@example.com`;
    const inv = await createExpiredInvitation(app, org.admin, email);
    const res = await call(app, 'POST', '/api/auth/register', {
      body: { username: unique('late'), email, password: 'secret-1234', invitationToken: inv.data.token },
    });
    expect(res.statusCode).toBe(400);
  });

  it('two simultaneous sign-ups with one invitation make one member', async () => {
    const org = await createOrg(app);
    const email = `${unique('race')}@example.com`;
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email, role: 'viewer' },
    });
    const results = await Promise.all(
      [1, 2].map((n) =>
        call(app, 'POST', '/api/auth/register', {
          body: { username: unique(`race${n}`), email, password: 'secret-1234', invitationToken: inv.data.token },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, expect.any(Number)]);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const members = await app.database.db.select().from(users).where(eq(users.organizationId, org.organizationId));
    expect(members).toHaveLength(2);
  });

  it('only a super admin can change or remove a super admin', async () => {
    const org = await createOrg(app);
    const boss = await createUser(app, org.admin, 'admin');
    await app.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, boss.id));
    const demote = await call(app, 'PUT', `/api/organizations/users/${boss.id}/role`, {
      as: org.admin,
      body: { role: 'viewer' },
    });
    expect(demote.statusCode).toBe(403);
    const remove = await call(app, 'DELETE', `/api/organizations/users/${boss.id}`, { as: org.admin });
    expect(remove.statusCode).toBe(403);
    const bySuper = await call(app, 'PUT', `/api/organizations/users/${org.admin.id}/role`, {
      as: boss,
      body: { role: 'manager' },
    });
    expect(bySuper.statusCode).toBe(200);
  });
});

describe('endpoints that need a session', () => {
  it.each([
    ['PUT', '/api/auth/change-password'],
    ['GET', '/api/organizations/stats'],
    ['GET', '/api/organizations/users'],
    ['POST', '/api/organizations/invitations'],
    ['GET', '/api/organizations/invitations'],
    ['GET', '/api/admin/users'],
    ['GET', '/api/admin/audit-logs'],
    ['POST', '/api/workspaces'],
  ] as const)('%s %s answers 401 without one', async (method, url) => {
    const res = await call(app, method, url, { body: method === 'GET' ? undefined : {} });
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ error: 'Not authenticated', code: 'unauthenticated' });
  });
});
