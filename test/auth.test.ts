import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { call, sessionCookieFrom } from './helpers/api';
import { createOrg, lastMailTo, linkFromNextMail, unique } from './helpers/factories';
import { authSessions, users } from '../server/db/schema';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const newAccount = () => {
  const username = unique('user');
  return { username, email: `${username}@example.com`, password: 'secret-1234', organizationName: unique('Acme ') };
};

describe('POST /api/auth/register', () => {
  it('creates the organization, a Default workspace and the user as its admin, and signs in', async () => {
    const body = newAccount();
    const res = await call(app, 'POST', '/api/auth/register', { body });
    expect(res.statusCode).toBe(201);
    expect(res.data.user).toMatchObject({ username: body.username, email: body.email, role: 'admin' });
    expect(res.data.user).not.toHaveProperty('passwordHash');
    const cookie = res.cookies.find((c) => c.name === 'verity_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();

    const as = { cookie: sessionCookieFrom(res) };
    const org = await call(app, 'GET', '/api/organizations/current', { as });
    expect(org.data).toMatchObject({ name: body.organizationName, brandProfile: { tone: 'professional' } });
    const ws = await call(app, 'GET', '/api/workspaces', { as });
    expect(ws.data).toHaveLength(1);
    expect(ws.data[0]).toMatchObject({ name: 'Default', organizationId: res.data.user.organizationId });
  });

  it('stores the password as an argon2id hash', async () => {
    const body = newAccount();
    await call(app, 'POST', '/api/auth/register', { body });
    const [row] = await app.database.db.select().from(users).where(eq(users.username, body.username));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain(body.password);
  });

  it.each([
    [{ username: 'ab' }, 'Username must be at least 3 characters'],
    [{ email: 'not-an-email' }, 'Invalid email address'],
    [{ password: '1234567' }, 'Password must be at least 8 characters'],
    [{ organizationName: '' }, 'Organization name is required'],
    [{ organizationName: undefined }, 'Organization name is required'],
    [{ username: undefined }, 'username is required'],
  ])('rejects %o with "%s" and creates nothing', async (override, message) => {
    const body = { ...newAccount(), ...override };
    const res = await call(app, 'POST', '/api/auth/register', { body });
    expect(res.statusCode).toBe(400);
    expect(res.data).toMatchObject({ code: 'validation_error', error: expect.stringContaining(message) });
    if (body.username) {
      const rows = await app.database.db.select().from(users).where(eq(users.username, body.username));
      expect(rows).toHaveLength(0);
    }
  });

  it('answers 409 for a taken username or e-mail, whatever the case', async () => {
    const first = newAccount();
    await call(app, 'POST', '/api/auth/register', { body: first });
    const sameName = await call(app, 'POST', '/api/auth/register', {
      body: { ...newAccount(), username: first.username.toUpperCase() },
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.data.error).toMatch(/Username already exists/);
    const sameEmail = await call(app, 'POST', '/api/auth/register', {
      body: { ...newAccount(), email: first.email.toUpperCase() },
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.data.error).toMatch(/email already exists/);
  });

  it('rejects a body that is not JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_json' });
  });
});

describe('POST /api/auth/login and /logout', () => {
  it('signs in with username or e-mail, with a new session id each time', async () => {
    const { admin } = await createOrg(app);
    const a = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: admin.password },
    });
    expect(a.statusCode).toBe(200);
    expect(a.data.user.username).toBe(admin.username);
    const b = await call(app, 'POST', '/api/auth/login', { body: { username: admin.email, password: admin.password } });
    expect(b.statusCode).toBe(200);
    expect(sessionCookieFrom(a)).not.toBe(sessionCookieFrom(b));
    expect(sessionCookieFrom(a)).not.toBe(admin.cookie);
  });

  it('ends the session it replaces when signing in again from the same browser', async () => {
    const { admin } = await createOrg(app);
    const res = await call(app, 'POST', '/api/auth/login', {
      as: admin,
      body: { username: admin.username, password: admin.password },
    });
    expect(res.statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/auth/me', { as: admin })).statusCode).toBe(401);
  });

  it('answers the same error for an unknown user and a wrong password', async () => {
    const { admin } = await createOrg(app);
    const wrong = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: 'nope-nope' },
    });
    const unknown = await call(app, 'POST', '/api/auth/login', {
      body: { username: unique('ghost'), password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.data).toEqual(unknown.data);
    expect(wrong.data.error).toBe('Invalid username or password');
  });

  it('requires username and password', async () => {
    const res = await call(app, 'POST', '/api/auth/login', { body: { username: '', password: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toContain('Username is required');
    expect(res.data.error).toContain('Password is required');
  });

  it('answers 429 after 10 failures a minute for one username and IP, even with the right password', async () => {
    const { admin } = await createOrg(app);
    for (let i = 0; i < 10; i++) {
      const r = await call(app, 'POST', '/api/auth/login', {
        body: { username: admin.username, password: `wrong-${i}` },
      });
      expect(r.statusCode).toBe(401);
    }
    const limited = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: admin.password },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.data).toMatchObject({ code: 'rate_limited' });
    // Another IP is not affected.
    const other = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.9.8.7',
      payload: { username: admin.username, password: admin.password },
    });
    expect(other.statusCode).toBe(200);
  });

  it('logout ends the session on the server', async () => {
    const { admin } = await createOrg(app);
    const out = await call(app, 'POST', '/api/auth/logout', { as: admin });
    expect(out.statusCode).toBe(200);
    const me = await call(app, 'GET', '/api/auth/me', { as: admin });
    expect(me.statusCode).toBe(401);
    const rows = await app.database.db.select().from(authSessions).where(eq(authSessions.userId, admin.id));
    expect(rows).toHaveLength(0);
  });

  it('marks the cookie Secure when served over https', async () => {
    const https = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const res = await https.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'x-forwarded-proto': 'https' },
        payload: newAccount(),
      });
      expect(res.statusCode).toBe(201);
      expect(res.cookies.find((c) => c.name === 'verity_session')?.secure).toBe(true);
    } finally {
      await https.close();
    }
  });
});

describe('GET /api/auth/me', () => {
  it('answers 401 "Not authenticated" without a session or with a forged one', async () => {
    const none = await call(app, 'GET', '/api/auth/me');
    expect(none.statusCode).toBe(401);
    expect(none.data).toMatchObject({ error: 'Not authenticated' });
    const forged = await call(app, 'GET', '/api/auth/me', { as: { cookie: 'verity_session=forged-value' } });
    expect(forged.statusCode).toBe(401);
  });

  it('returns the user and the actions the role allows', async () => {
    const { admin } = await createOrg(app);
    const me = await call(app, 'GET', '/api/auth/me', { as: admin });
    expect(me.statusCode).toBe(200);
    expect(me.data.user).toMatchObject({ id: admin.id, role: 'admin' });
    expect(me.data.permissions).toContain('users:manage');
    expect(me.data.permissions).toContain('audit:read');
  });
});

describe('PUT /api/auth/profile', () => {
  it('updates username, e-mail and names', async () => {
    const { admin } = await createOrg(app);
    const username = unique('renamed');
    const res = await call(app, 'PUT', '/api/auth/profile', {
      as: admin,
      body: { username, email: `${username}@example.org`, firstName: 'Ada', lastName: 'Lovelace' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toMatchObject({ username, firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('keeps usernames and e-mails unique, and validates', async () => {
    const { admin } = await createOrg(app);
    const other = await createOrg(app);
    const taken = await call(app, 'PUT', '/api/auth/profile', {
      as: admin,
      body: { username: other.admin.username, email: admin.email },
    });
    expect(taken.statusCode).toBe(409);
    const bad = await call(app, 'PUT', '/api/auth/profile', { as: admin, body: { username: 'x', email: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error).toContain('Username must be at least 3 characters');
    expect(bad.data.error).toContain('Invalid email address');
    const anon = await call(app, 'PUT', '/api/auth/profile', { body: { username: 'valid', email: 'a@b.co' } });
    expect(anon.statusCode).toBe(401);
  });
});

describe('PUT /api/auth/change-password', () => {
  it('checks the current password, then changes it and ends the other sessions', async () => {
    const { admin } = await createOrg(app);
    const other = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: admin.password },
    });
    const otherSession = { cookie: sessionCookieFrom(other) };
    const wrong = await call(app, 'PUT', '/api/auth/change-password', {
      as: admin,
      body: { currentPassword: 'not-it', newPassword: 'brand-new', confirmPassword: 'brand-new' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.data.error).toBe('Current password is incorrect');
    const mismatch = await call(app, 'PUT', '/api/auth/change-password', {
      as: admin,
      body: { currentPassword: admin.password, newPassword: 'brand-new', confirmPassword: 'brand-old' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.data.error).toBe("New passwords don't match");
    const ok = await call(app, 'PUT', '/api/auth/change-password', {
      as: admin,
      body: { currentPassword: admin.password, newPassword: 'brand-new', confirmPassword: 'brand-new' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/auth/me', { as: admin })).statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/auth/me', { as: otherSession })).statusCode).toBe(401);
    const relogin = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: 'brand-new' },
    });
    expect(relogin.statusCode).toBe(200);
  });
});

describe('forgot and reset password', () => {
  it('mails a single-use link that sets a new password and ends all sessions', async () => {
    const { admin } = await createOrg(app);
    const link = await linkFromNextMail(app, admin.email, async () => {
      const res = await call(app, 'POST', '/api/auth/forgot-password', { body: { email: admin.email } });
      expect(res.statusCode).toBe(200);
    });
    expect(link.pathname).toBe('/reset-password');
    const token = link.searchParams.get('token');
    expect(token).toBeTruthy();
    const reset = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'after-reset', confirmPassword: 'after-reset' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/auth/me', { as: admin })).statusCode).toBe(401);
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: 'after-reset' },
    });
    expect(login.statusCode).toBe(200);
    const again = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'third-one', confirmPassword: 'third-one' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.data.code).toBe('reset_token_invalid');
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const { admin } = await createOrg(app);
    const known = await call(app, 'POST', '/api/auth/forgot-password', { body: { email: admin.email } });
    const email = `${unique('nobody')}@example.com`;
    const res = await call(app, 'POST', '/api/auth/forgot-password', { body: { email } });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual(known.data);
    expect(await lastMailTo(app, email)).toBeUndefined();
  });

  it('rejects bad input and unknown tokens', async () => {
    expect((await call(app, 'POST', '/api/auth/forgot-password', { body: { email: 'nope' } })).statusCode).toBe(400);
    const res = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token: 'x'.repeat(43), newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toMatch(/invalid or has expired/);
    const short = await call(app, 'POST', '/api/auth/reset-password', {
      body: { token: 'x'.repeat(43), newPassword: 'abc', confirmPassword: 'abc' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.data.error).toContain('Password must be at least 8 characters');
  });
});

describe('per-IP limits on unauthenticated endpoints', () => {
  it('answers 429 once AUTH_RATE_LIMIT_PER_MINUTE is used up', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) {
        const r = await call(limited, 'POST', '/api/auth/forgot-password', { body: { email: 'someone@example.com' } });
        codes.push(r.statusCode);
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
