import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { call, sessionCookieFrom } from '../helpers/api';
import { createOrg, linkFromNextMail, unique, type TestUser } from '../helpers/factories';
import { auditLogs, authSessions, emailChanges, mailOutbox, users } from '../../server/db/schema';
import { hashPassword } from '../../server/modules/auth/passwords';
import { waitUntil } from '../helpers/wait';

/**
 * Issue 16: an API token minting admins (3), weak passwords (6), e-mail enumeration and squatting through the
 * profile (12), unbounded invitation addresses (14), sessions without an idle timeout (15), markup in the SSO issuer.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function apiToken(admin: TestUser, role = 'admin'): Promise<{ id: string; token: string }> {
  const res = await call(app, 'POST', '/api/admin/api-tokens', { as: admin, body: { name: unique('t'), role } });
  expect(res.statusCode).toBe(201);
  return res.data;
}

async function resetPasswordOf(user: TestUser, newPassword: string) {
  const link = await linkFromNextMail(app, user.email, () =>
    call(app, 'POST', '/api/auth/forgot-password', { body: { email: user.email } }),
  );
  const res = await call(app, 'POST', '/api/auth/reset-password', {
    body: { token: link.searchParams.get('token'), newPassword, confirmPassword: newPassword },
  });
  expect(res.statusCode).toBe(200);
}

describe('invitations made with an API token (finding 3)', () => {
  it('cannot invite an admin or a manager, even with an admin token', async () => {
    const { admin } = await createOrg(app);
    const { token } = await apiToken(admin);
    for (const role of ['admin', 'manager']) {
      const res = await call(app, 'POST', '/api/organizations/invitations', {
        headers: bearer(token),
        body: { email: `${unique('up')}@example.com`, role },
      });
      expect(res.statusCode, role).toBe(403);
      expect(res.data.error).toMatch(/sign in/i);
    }
  });

  it('answers a token without the invitation link, and the audit log names the token', async () => {
    const { admin } = await createOrg(app);
    const { id, token } = await apiToken(admin);
    const email = `${unique('tok')}@example.com`;
    const res = await call(app, 'POST', '/api/organizations/invitations', {
      headers: bearer(token),
      body: { email, role: 'contributor' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.data.token).toBeUndefined();
    expect(res.data.url).toBeUndefined();
    expect(res.body).not.toMatch(/invite=/);
    const [row] = await app.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'invitation_created'), eq(auditLogs.entityId, res.data.id)));
    expect(row?.details).toMatchObject({ apiTokenId: id, role: 'contributor' });
  });

  it('a person signed in still gets the link, and may invite an admin', async () => {
    const { admin } = await createOrg(app);
    const res = await call(app, 'POST', '/api/organizations/invitations', {
      as: admin,
      body: { email: `${unique('p')}@example.com`, role: 'admin' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.data.url).toMatch(/invite=/);
  });

  it('revoking the token revokes the invitations it made', async () => {
    const { admin } = await createOrg(app);
    const { id, token } = await apiToken(admin);
    const email = `${unique('rev')}@example.com`;
    const link = await linkFromNextMail(app, email, () =>
      call(app, 'POST', '/api/organizations/invitations', {
        headers: bearer(token),
        body: { email, role: 'contributor' },
      }),
    );
    const invite = link.searchParams.get('invite') ?? '';
    expect((await call(app, 'GET', `/api/auth/invitations/${invite}`)).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/admin/api-tokens/${id}`, { as: admin })).statusCode).toBe(200);
    expect((await call(app, 'GET', `/api/auth/invitations/${invite}`)).statusCode).toBe(404);
    const reg = await call(app, 'POST', '/api/auth/register', {
      body: { username: unique('late'), email, password: 'correct-horse', invitationToken: invite },
    });
    expect(reg.statusCode).toBe(400);
  });

  it('a password change or reset ends every API token of the user, and the invitations they made', async () => {
    const { admin } = await createOrg(app);
    const first = await apiToken(admin);
    const email = `${unique('pw')}@example.com`;
    const link = await linkFromNextMail(app, email, () =>
      call(app, 'POST', '/api/organizations/invitations', {
        headers: bearer(first.token),
        body: { email, role: 'viewer' },
      }),
    );
    expect((await call(app, 'GET', '/api/auth/me', { headers: bearer(first.token) })).statusCode).toBe(200);
    const changed = await call(app, 'PUT', '/api/auth/change-password', {
      as: admin,
      body: { currentPassword: admin.password, newPassword: 'a-new-long-one', confirmPassword: 'a-new-long-one' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/auth/me', { headers: bearer(first.token) })).statusCode).toBe(401);
    const invite = link.searchParams.get('invite') ?? '';
    expect((await call(app, 'GET', `/api/auth/invitations/${invite}`)).statusCode).toBe(404);

    const second = await apiToken(admin);
    expect((await call(app, 'GET', '/api/auth/me', { headers: bearer(second.token) })).statusCode).toBe(200);
    await resetPasswordOf(admin, 'reset-and-new-one');
    expect((await call(app, 'GET', '/api/auth/me', { headers: bearer(second.token) })).statusCode).toBe(401);
  });
});

describe('passwords (finding 6)', () => {
  const signUp = (password: string) => {
    const username = unique('pw');
    return call(app, 'POST', '/api/auth/register', {
      body: { username, email: `${username}@example.com`, password, organizationName: username },
    });
  };

  it('are at least 8 characters', async () => {
    const res = await signUp('seven77');
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toBe('Password must be at least 8 characters');
  });

  it('cannot be a common or breached password, at sign-up, change or reset', async () => {
    for (const password of ['123456', '12345678', 'password123', 'Password123', 'iloveyou']) {
      const res = await signUp(password);
      expect(res.statusCode, password).toBe(400);
    }
    const res = await signUp('password123');
    expect(res.data.error).toMatch(/common/i);
    expect(res.data.details.issues[0].field).toBe('password');

    const { admin } = await createOrg(app);
    const change = await call(app, 'PUT', '/api/auth/change-password', {
      as: admin,
      body: { currentPassword: admin.password, newPassword: 'qwertyuiop', confirmPassword: 'qwertyuiop' },
    });
    expect(change.statusCode).toBe(400);
    expect(change.data.details.issues[0].field).toBe('newPassword');
    const link = await linkFromNextMail(app, admin.email, () =>
      call(app, 'POST', '/api/auth/forgot-password', { body: { email: admin.email } }),
    );
    const reset = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token: link.searchParams.get('token'), newPassword: 'football1', confirmPassword: 'football1' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.data.error).toMatch(/common/i);
  });

  it('a user whose old password breaks the new rules still signs in', async () => {
    const { admin } = await createOrg(app);
    await app.database.db
      .update(users)
      .set({ passwordHash: await hashPassword('123456') })
      .where(eq(users.id, admin.id));
    const res = await call(app, 'POST', '/api/auth/login', { body: { username: admin.username, password: '123456' } });
    expect(res.statusCode).toBe(200);
  });

  it('change-password stops guessing the current password after 5 failures', async () => {
    const { admin } = await createOrg(app);
    const attempt = (currentPassword: string) =>
      call(app, 'PUT', '/api/auth/change-password', {
        as: admin,
        body: { currentPassword, newPassword: 'a-new-long-one', confirmPassword: 'a-new-long-one' },
      });
    for (let i = 0; i < 5; i += 1) expect((await attempt(`guess-${i}`)).statusCode).toBe(400);
    const limited = await attempt(admin.password);
    expect(limited.statusCode).toBe(429);
    expect(limited.data.code).toBe('rate_limited');
    // The right password was not accepted while limited.
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: admin.password },
    });
    expect(login.statusCode).toBe(200);
  });
});

describe('changing the e-mail address (finding 12)', () => {
  const profile = (user: TestUser, email: string) =>
    call(app, 'PUT', '/api/auth/profile', { as: user, body: { username: user.username, email } });

  it('answers the same whether or not the address belongs to someone, in any organization', async () => {
    const { admin } = await createOrg(app);
    const other = await createOrg(app);
    const taken = await profile(admin, other.admin.email);
    const free = await profile(admin, `${unique('free')}@example.com`);
    expect(taken.statusCode).toBe(200);
    expect(free.statusCode).toBe(200);
    const strip = (body: string, email: string) => body.replaceAll(email, 'EMAIL');
    expect(strip(taken.body, other.admin.email)).toBe(strip(free.body, JSON.parse(free.body).pendingEmail));
    const [row] = await app.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row?.email).toBe(admin.email);
    // The holder of the taken address gets no link: once the free address's link (asked for later) has arrived,
    // none went to the taken one.
    await waitUntil(async () => {
      const sent = await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, free.data.pendingEmail));
      expect(sent).toHaveLength(1);
    });
    const mails = await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, other.admin.email));
    expect(mails.some((m) => m.text.includes('confirm-email'))).toBe(false);
  });

  it('changes the address only when the link mailed to the new address is used, once', async () => {
    const { admin } = await createOrg(app);
    const email = `${unique('new')}@example.com`;
    const link = await linkFromNextMail(app, email, () => profile(admin, email));
    expect(link.pathname).toBe('/confirm-email');
    const me = await call(app, 'GET', '/api/auth/me', { as: admin });
    expect(me.data.user.email).toBe(admin.email);
    const token = link.searchParams.get('token') ?? '';
    const stored = await app.database.db.select().from(emailChanges).where(eq(emailChanges.userId, admin.id));
    expect(JSON.stringify(stored)).not.toContain(token);

    const confirmed = await call(app, 'POST', '/api/auth/confirm-email', { body: { token } });
    expect(confirmed.statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/auth/me', { as: admin })).data.user.email).toBe(email);
    // The old address hears of the change, in case it was not its owner's doing.
    await waitUntil(async () => {
      const mails = await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, admin.email));
      expect(mails.some((m) => m.text.includes(`is now ${email}`))).toBe(true);
    });
    const again = await call(app, 'POST', '/api/auth/confirm-email', { body: { token } });
    expect(again.statusCode).toBe(400);
    expect(again.data.code).toBe('email_change_invalid');
  });

  it('a link expires after a day', async () => {
    const { admin } = await createOrg(app);
    const email = `${unique('exp')}@example.com`;
    const link = await linkFromNextMail(app, email, () => profile(admin, email));
    const [row] = await app.database.db.select().from(emailChanges).where(eq(emailChanges.userId, admin.id));
    expect((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 3600_000).toBeCloseTo(24, 0);
    await app.database.db
      .update(emailChanges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChanges.userId, admin.id));
    const res = await call(app, 'POST', '/api/auth/confirm-email', { body: { token: link.searchParams.get('token') } });
    expect(res.statusCode).toBe(400);
  });

  it('is limited to 5 requests an hour per user', async () => {
    const { admin } = await createOrg(app);
    for (let i = 0; i < 5; i += 1) {
      expect((await profile(admin, `${unique('many')}@example.com`)).statusCode).toBe(200);
    }
    const res = await profile(admin, `${unique('many')}@example.com`);
    expect(res.statusCode).toBe(429);
    // Names can still be edited: only address changes are counted.
    const rename = await call(app, 'PUT', '/api/auth/profile', {
      as: admin,
      body: { username: admin.username, email: admin.email, firstName: 'Ada' },
    });
    expect(rename.statusCode).toBe(200);
  });
});

describe('invitation addresses (finding 14)', () => {
  it('are at most 254 characters', async () => {
    const { admin } = await createOrg(app);
    const res = await call(app, 'POST', '/api/organizations/invitations', {
      as: admin,
      body: { email: `${'a'.repeat(100_000)}@example.com`, role: 'viewer' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toMatch(/254/);
  });
});

describe('idle sessions (finding 15)', () => {
  it('end after SESSION_IDLE_HOURS (12) without a request', async () => {
    const { admin } = await createOrg(app);
    const idHash = (await app.database.db.select().from(authSessions).where(eq(authSessions.userId, admin.id)))[0]!
      .idHash;
    const idleFor = async (hours: number) => {
      await app.database.db
        .update(authSessions)
        .set({ lastSeenAt: new Date(Date.now() - hours * 3600_000) })
        .where(eq(authSessions.idHash, idHash));
      return (await call(app, 'GET', '/api/auth/me', { as: admin })).statusCode;
    };
    expect(app.config.sessionIdleMs).toBe(12 * 3600_000);
    expect(await idleFor(11.5)).toBe(200);
    expect(await idleFor(12.5)).toBe(401);
  });

  it('a signed-in user is not logged out while active', async () => {
    const username = unique('act');
    const res = await call(app, 'POST', '/api/auth/register', {
      body: { username, email: `${username}@example.com`, password: 'correct-horse', organizationName: username },
    });
    const cookie = sessionCookieFrom(res);
    expect((await call(app, 'GET', '/api/auth/me', { as: { cookie } })).statusCode).toBe(200);
  });
});

describe('SSO issuer (info)', () => {
  it('is a URL without markup', async () => {
    const { admin } = await createOrg(app);
    for (const issuer of [
      'https://idp.example.com/<script>alert(1)</script>',
      'https://idp.example.com/"onmouseover="x',
      "https://idp.example.com/a'b",
      'https://idp.example.com/a b',
    ]) {
      const res = await call(app, 'PUT', '/api/admin/sso', { as: admin, body: { issuer, clientId: 'verity' } });
      expect(res.statusCode, issuer).toBe(400);
    }
    const ok = await call(app, 'PUT', '/api/admin/sso', {
      as: admin,
      body: { issuer: 'https://login.example.com/tenant-1/v2.0', clientId: 'verity', clientSecret: 's3cret' },
    });
    expect(ok.statusCode).toBe(200);
  });
});
