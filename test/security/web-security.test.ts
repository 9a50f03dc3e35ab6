import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, auditLogs } from '../../server/db/schema';
import { logOptions, redactUrl } from '../../server/http/log-options';
import { createTestApp, type TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { createAnswer, createOrg, createTenant, createUser, unique, type Tenant } from '../helpers/factories';

let app: TestApp;
let org: Tenant;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
  org = await createTenant(app);
});
afterAll(async () => {
  await app.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createToken(body: Record<string, unknown>, as = org.admin) {
  const res = await call(app, 'POST', '/api/admin/api-tokens', { as, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.data as { id: string; token: string; prefix: string; role: string };
}

describe('API tokens', () => {
  it('are shown once, kept only as a hash, and work as Bearer for their organization only', async () => {
    const entry = await createAnswer(app, org.admin);
    const created = await createToken({ name: 'CI export', role: 'viewer', expiresInDays: 30 });
    expect(created.token).toMatch(/^vrt_[A-Za-z0-9_-]{40,}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);

    const [row] = await app.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));
    const list = await call(app, 'GET', '/api/admin/api-tokens', { as: org.admin });
    expect(list.body).not.toContain(created.token);
    expect(list.data.find((t: { id: string }) => t.id === created.id)).toMatchObject({
      name: 'CI export',
      role: 'viewer',
      createdBy: org.admin.username,
      revokedAt: null,
    });

    const read = await call(app, 'GET', `/api/canonical-answers/${entry.id}`, { headers: bearer(created.token) });
    expect(read.statusCode).toBe(200);
    const other = await createOrg(app);
    const foreign = await createAnswer(app, other.admin);
    const cross = await call(app, 'GET', `/api/canonical-answers/${foreign.id}`, { headers: bearer(created.token) });
    expect(cross.statusCode).toBe(404);
  });

  it('act with their own role, never more than their creator holds, and are audited as the token', async () => {
    const viewerToken = await createToken({ name: 'read only', role: 'viewer' });
    const denied = await call(app, 'POST', '/api/canonical-answers', {
      headers: bearer(viewerToken.token),
      body: { question: 'Do tokens write?', answer: 'No, this token only reads the library.', status: 'draft' },
    });
    expect(denied.statusCode).toBe(403);

    const writer = await createToken({ name: 'writer', role: 'manager' });
    const made = await call(app, 'POST', '/api/canonical-answers', {
      headers: bearer(writer.token),
      body: {
        question: `${unique('Do tokens write ')}?`,
        answer: 'Yes, a manager token may write.',
        status: 'approved',
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const [trail] = await app.database.db.select().from(auditLogs).where(eq(auditLogs.entityId, made.data.id));
    expect(trail?.details).toMatchObject({ apiTokenId: writer.id });

    // An admin token made by someone later demoted to contributor acts as a contributor.
    const second = await createUser(app, org.admin, 'admin');
    const strong = await createToken({ name: 'strong', role: 'admin' }, second);
    await call(app, 'PUT', `/api/organizations/users/${second.id}/role`, {
      as: org.admin,
      body: { role: 'contributor' },
    });
    const me = await call(app, 'GET', '/api/auth/me', { headers: bearer(strong.token) });
    expect(me.data.permissions).not.toContain('knowledge:approve');
    expect(me.data.permissions).toContain('knowledge:create_draft');
  });

  it('stop working when revoked, expired, or their creator is removed', async () => {
    const revoked = await createToken({ name: 'revoked', role: 'viewer' });
    const del = await call(app, 'DELETE', `/api/admin/api-tokens/${revoked.id}`, { as: org.admin });
    expect(del.statusCode).toBe(200);
    const after = await call(app, 'GET', '/api/canonical-answers', { headers: bearer(revoked.token) });
    expect(after.statusCode).toBe(401);
    expect(after.data).toEqual({ error: 'This API token is unknown, expired or revoked.', code: 'unauthenticated' });

    const expired = await createToken({ name: 'expired', role: 'viewer', expiresInDays: 1 });
    await app.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.id));
    expect((await call(app, 'GET', '/api/auth/me', { headers: bearer(expired.token) })).statusCode).toBe(401);

    const leaving = await createUser(app, org.admin, 'admin');
    const orphan = await createToken({ name: 'orphan', role: 'viewer' }, leaving);
    await call(app, 'DELETE', `/api/organizations/users/${leaving.id}`, { as: org.admin });
    expect((await call(app, 'GET', '/api/auth/me', { headers: bearer(orphan.token) })).statusCode).toBe(401);
  });

  it('refuse malformed or unknown credentials, and a cookie does not rescue a bad token', async () => {
    for (const authorization of ['Bearer', 'Basic dXNlcjpwYXNz', 'Bearer vrt_nope', 'Bearer ' + 'x'.repeat(300)]) {
      const res = await call(app, 'GET', '/api/auth/me', { as: org.admin, headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
    }
  });

  it('validate their input; only admins manage them; another organization cannot revoke them', async () => {
    const bad = [
      {},
      { name: '', role: 'viewer' },
      { name: 'x'.repeat(81), role: 'viewer' },
      { name: 'ok', role: 'owner' },
      { name: 'ok', role: 'viewer', expiresInDays: 0 },
      { name: 'ok', role: 'viewer', expiresInDays: 366 },
      { name: 'ok', role: 'viewer', expiresInDays: 1.5 },
    ];
    for (const body of bad) {
      const res = await call(app, 'POST', '/api/admin/api-tokens', { as: org.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data.code).toBe('validation_error');
    }
    for (const role of ['manager', 'contributor', 'viewer'] as const) {
      const res = await call(app, 'POST', '/api/admin/api-tokens', {
        as: org.users[role],
        body: { name: 'nope', role: 'viewer' },
      });
      expect(res.statusCode).toBe(403);
    }
    const token = await createToken({ name: 'mine', role: 'viewer' });
    const other = await createOrg(app);
    const res = await call(app, 'DELETE', `/api/admin/api-tokens/${token.id}`, { as: other.admin });
    expect(res.statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/auth/me', { headers: bearer(token.token) })).statusCode).toBe(200);
  });
});

describe('cross-site requests (CSRF)', () => {
  const mutation = (headers: Record<string, string>) =>
    call(app, 'POST', '/api/workspaces', { as: org.admin, body: { name: unique('csrf ') }, headers });

  it('refuses a cookie-authenticated change that another site started, and changes nothing', async () => {
    const before = (await call(app, 'GET', '/api/workspaces', { as: org.admin })).data.length;
    const cases: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { referer: 'https://evil.example/page' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.verity.test' },
    ];
    for (const headers of cases) {
      const res = await mutation(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.data.code).toBe('cross_site_request');
    }
    expect((await call(app, 'GET', '/api/workspaces', { as: org.admin })).data.length).toBe(before);
  });

  it("accepts Verity's own origin (PUBLIC_URL or the request's host) and callers that are not browsers", async () => {
    const cases: Array<Record<string, string>> = [
      { origin: 'http://verity.test' },
      { origin: 'http://localhost:80', host: 'localhost:80' },
      { referer: 'http://verity.test/library' },
      { 'sec-fetch-site': 'same-origin', origin: 'http://verity.test' },
      {},
    ];
    for (const headers of cases) {
      const res = await mutation(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(201);
    }
  });

  it('also guards sign-in (login CSRF) but lets reads through', async () => {
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: org.users.viewer.username, password: org.users.viewer.password },
      headers: { origin: 'https://evil.example' },
    });
    expect(login.statusCode).toBe(403);
    const read = await call(app, 'GET', '/api/workspaces', {
      as: org.admin,
      headers: { origin: 'https://evil.example' },
    });
    expect(read.statusCode).toBe(200);
  });

  it('does not apply to API tokens, which a browser never sends by itself', async () => {
    const token = await createToken({ name: 'server to server', role: 'manager' });
    const res = await call(app, 'POST', '/api/workspaces', {
      body: { name: unique('token ws ') },
      headers: { ...bearer(token.token), origin: 'https://integration.example' },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('session cookie and headers', () => {
  it('is httpOnly, SameSite=Lax, path /, and Secure behind https', async () => {
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: org.users.viewer.username, password: org.users.viewer.password },
    });
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);

    const proxied = await createTestApp({ worker: false, env: { TRUST_PROXY: '1' } });
    try {
      const user = await createOrg(proxied);
      const res = await proxied.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { username: user.admin.username, password: user.admin.password },
      });
      expect(String(res.headers['set-cookie'])).toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });

  it('sends a strict Content-Security-Policy and the other protective headers', async () => {
    const res = await call(app, 'GET', '/api/health');
    const csp = String(res.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('limit sign-in and password-reset requests per address', async () => {
    const limited = await createTestApp({ worker: false, env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (const [url, body] of [
        ['/api/auth/login', { username: 'nobody', password: 'wrong-password' }],
        ['/api/auth/forgot-password', { email: 'nobody@example.com' }],
      ] as const) {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          statuses.push((await call(limited, 'POST', url, { body })).statusCode);
        }
        expect(statuses.slice(0, 3), url).not.toContain(429);
        expect(statuses[3], url).toBe(429);
      }
    } finally {
      await limited.close();
    }
  });
});

describe('logs', () => {
  it('hold no password, cookie, API token, invitation or reset token', async () => {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData: (s, _x, done) => s.on('end', done).resume(),
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = pino(logOptions('trace'), sink);
    const logged = await createTestApp({
      worker: false,
      log,
      env: { SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` },
    });
    try {
      const owner = await createOrg(logged);
      const invite = await call(logged, 'POST', '/api/organizations/invitations', {
        as: owner.admin,
        body: { email: `${unique('inv')}@example.com`, role: 'viewer' },
      });
      await call(logged, 'GET', `/api/auth/invitations/${invite.data.token}`);
      await call(logged, 'POST', '/api/auth/forgot-password', { body: { email: owner.admin.email } });
      const token = await call(logged, 'POST', '/api/admin/api-tokens', {
        as: owner.admin,
        body: { name: 'log check', role: 'viewer' },
      });
      await call(logged, 'GET', '/api/auth/me', { headers: bearer(token.data.token) });
      await call(logged, 'GET', `/reset-password?token=${invite.data.token}`);
      await call(logged, 'POST', '/api/auth/login', {
        body: { username: owner.admin.username, password: 'Wrong-Horse-9' },
      });

      const text = lines.join('');
      expect(text).toContain('incoming request'); // the requests were logged…
      const secrets = [
        owner.admin.password,
        'Wrong-Horse-9',
        owner.admin.cookie.split('=')[1]!,
        invite.data.token as string,
        token.data.token as string,
      ];
      for (const secret of secrets) expect(text, 'a secret reached the log').not.toContain(secret);
    } finally {
      await logged.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('cut tokens out of logged URLs', () => {
    expect(redactUrl('/api/auth/invitations/abc123?x=1')).toBe('/api/auth/invitations/[REDACTED]?x=1');
    expect(redactUrl('/reset-password?token=s3cret&next=/')).toBe('/reset-password?token=[REDACTED]&next=/');
    expect(redactUrl('/api/objects/local/k?expires=1&max=2&sig=abc')).toBe(
      '/api/objects/local/k?expires=1&max=2&sig=[REDACTED]',
    );
    expect(redactUrl('/login?invite=xyz')).toBe('/login?invite=[REDACTED]');
  });
});
