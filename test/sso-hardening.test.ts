/**
 * SSO sign-in against a hostile world (findings of a security probe): where the browser may land after signing in
 * (open redirect), which addresses Verity will call for an organization's identity provider (SSRF through issuer
 * discovery), and what an anonymous caller can make a failed sign-in write into an organization's audit log.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { generateKeyPair, SignJWT } from 'jose';
import fc from 'fast-check';
import { auditLogs, organizations, ssoLoginAttempts } from '../server/db/schema';
import { loadConfig } from '../server/config';
import { FAILURE_AUDITS_PER_MINUTE, FailureAuditLimiter } from '../server/modules/sso/failure-audit';
import { sameSitePath } from '../server/modules/sso/return-path';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, unique, organizationSlug } from './helpers/factories';
import { freePort } from './helpers/processes';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from './helpers/oidc-provider';

const PUBLIC_URL = 'http://verity.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/sso/callback`;

/** A plain HTTP server on loopback that counts the connections it is offered (TLS attempts included). */
type Listener = { url: string; host: string; connections: number; requests: string[]; close(): Promise<void> };
async function listen(handler: http.RequestListener = (_req, res) => res.end('ok')): Promise<Listener> {
  const server = http.createServer((req, res) => {
    listener.requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.on('connection', () => listener.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const listener: Listener = {
    url: `http://${host}`,
    host,
    connections: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return listener;
}

let app: TestApp;
let idp: TestOidcProvider;
/** An internal service Verity must never be made to call: on loopback, and not in SSO_ALLOWED_ISSUER_HOSTS. */
let internal: Listener;
/** Allowed hosts that are no identity provider: an HTML page, a JSON page, and a port nobody listens on. */
let htmlPage: Listener;
let jsonPage: Listener;
let closedPort: string;
/** Allowed "providers" whose discovery documents send Verity's requests to the internal service. */
let rogueToken: Listener;
let rogueKeys: Listener;
/** The nonce the rogue token endpoint puts in its ID token (set by the test before the callback). */
let rogueNonce = '';

function discoveryDocument(issuer: string, endpoints: { token: string; jwks: string }) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: endpoints.token,
    jwks_uri: endpoints.jwks,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  };
}

beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [CALLBACK] });
  internal = await listen((_req, res) => res.setHeader('content-type', 'application/json').end('{"secret":"x"}'));
  htmlPage = await listen((_req, res) => res.setHeader('content-type', 'text/html').end('<html>admin</html>'));
  jsonPage = await listen((_req, res) => res.setHeader('content-type', 'application/json').end('{"status":"up"}'));
  closedPort = `127.0.0.1:${await freePort()}`;
  rogueToken = await listen((req, res) => {
    const doc = discoveryDocument(rogueToken.url, { token: `${internal.url}/token`, jwks: `${internal.url}/jwks` });
    res.setHeader('content-type', 'application/json').end(JSON.stringify(doc));
  });
  const { privateKey } = await generateKeyPair('RS256');
  rogueKeys = await listen((req, res) => {
    if (req.url === '/token') {
      void (async () => {
        const now = Math.floor(Date.now() / 1000);
        const idToken = await new SignJWT({ sub: 'someone', nonce: rogueNonce })
          .setProtectedHeader({ alg: 'RS256', kid: 'k' })
          .setIssuer(rogueKeys.url)
          .setAudience('rogue-client')
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(privateKey);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ access_token: 'a', token_type: 'Bearer', expires_in: 300, id_token: idToken }));
      })();
      return;
    }
    const doc = discoveryDocument(rogueKeys.url, { token: `${rogueKeys.url}/token`, jwks: `${internal.url}/jwks` });
    res.setHeader('content-type', 'application/json').end(JSON.stringify(doc));
  });
  const allowed = [idp.issuer, htmlPage.url, jsonPage.url, `http://${closedPort}`, rogueToken.url, rogueKeys.url];
  app = await createTestApp({
    worker: false,
    env: { SSO_ALLOWED_ISSUER_HOSTS: allowed.map((u) => new URL(u).host).join(',') },
  });
});
afterAll(async () => {
  await app.close();
  await idp.close();
  for (const l of [internal, htmlPage, jsonPage, rogueToken, rogueKeys]) await l.close();
});

type Org = Awaited<ReturnType<typeof createOrg>> & { slug: string };

async function ssoOrg(issuer = idp.issuer, clientId = idp.clientId): Promise<Org> {
  const org = await createOrg(app);
  const res = await call(app, 'PUT', '/api/admin/sso', {
    as: org.admin,
    body: { issuer, clientId, clientSecret: idp.clientSecret, domains: [`${unique('corp')}.example`.toLowerCase()] },
  });
  if (res.statusCode !== 200) throw new Error(`SSO settings: ${res.statusCode} ${res.body}`);
  return { ...org, slug: await organizationSlug(app, org.organizationId) };
}

/** `/start` as a browser opens it: the redirect, and the state cookie bound to it. */
async function start(org: Org, returnTo?: string) {
  const query = new URLSearchParams({ organization: org.slug, ...(returnTo !== undefined && { returnTo }) });
  const res = await call(app, 'GET', `/api/auth/sso/start?${query}`);
  const location = String(res.headers.location ?? '');
  const cookie = res.cookies.find((c) => c.name === 'verity_sso_state');
  const state = location.startsWith('http') ? new URL(location).searchParams.get('state') : null;
  return { res, location, state, cookie: cookie ? `verity_sso_state=${cookie.value}` : '' };
}

async function callback(query: Record<string, string>, cookie: string) {
  const res = await call(app, 'GET', `/api/auth/sso/callback?${new URLSearchParams(query)}`, {
    headers: { cookie },
  });
  expect(res.statusCode).toBe(302);
  return String(res.headers.location);
}

async function failures(organizationId: string) {
  const rows = await app.database.db
    .select({ details: auditLogs.details })
    .from(auditLogs)
    .where(and(eq(auditLogs.organizationId, organizationId), eq(auditLogs.action, 'sso_sign_in_failed')))
    .orderBy(auditLogs.seq);
  return rows.map((r) => r.details as Record<string, unknown>);
}

describe('where the browser lands after signing in (open redirect)', () => {
  /** Signs a new person in through the real provider and returns where Verity sends the browser. */
  async function landing(org: Org, returnTo: string | undefined, tamper?: (orgId: string) => Promise<void>) {
    const login = unique('person');
    idp.addAccount({ login, sub: `sub-${login}`, email: `${login}@example.org`, emailVerified: true });
    const started = await start(org, returnTo);
    if (started.res.statusCode === 400) return 'refused at start';
    expect(started.res.statusCode).toBe(302);
    await tamper?.(org.organizationId);
    const back = await signInAtProvider(started.location, login);
    return callback(Object.fromEntries(back.searchParams), started.cookie);
  }

  it('never leaves this site, however the path is spelled', async () => {
    const org = await ssoOrg();
    for (const returnTo of [
      '/.//evil.example/x',
      '/..//evil.example/x',
      '/%2e//evil.example/x',
      '/%2E%2E//evil.example/x',
      '/x/%2e%2e//evil.example/x',
      '/x/../..//evil.example/x',
      '/./\\evil.example/x',
      '/.\\/evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      '/.\n//evil.example',
      '//evil.example',
    ]) {
      const where = await landing(org, returnTo);
      // Refused at the start (400) or taken to the default page; never another host.
      expect(['refused at start', '/'], JSON.stringify(returnTo)).toContain(where);
    }
  });

  it('keeps a path of this site, as the browser would read it', async () => {
    const org = await ssoOrg();
    expect(await landing(org, '/assessments/./a/../b?x=1#top')).toBe('/assessments/b?x=1#top');
    // An encoded slash stays encoded: to a browser it is a character of the path, not a new host.
    expect(await landing(org, '/%2f%2fevil.example/x')).toBe('/%2f%2fevil.example/x');
    expect(await landing(org, undefined)).toBe('/');
  });

  it('gives only paths that a browser reads as this site, and reads them as given (property)', () => {
    const piece = fc.constantFrom(
      '/',
      '.',
      '..',
      '\\',
      '%2e',
      '%2E',
      '%2f',
      '%5c',
      '\t',
      '\n',
      'evil.example',
      '?',
      '#',
      '@',
      ':',
      'a',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const path = sameSitePath(`/${pieces.join('')}`, PUBLIC_URL);
        if (path === null) return;
        expect(path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\')).toBe(true);
        const read = new URL(path, PUBLIC_URL);
        expect(read.origin).toBe(PUBLIC_URL);
        // What was checked is what the browser is sent to: checking it again changes nothing.
        expect(`${read.pathname}${read.search}${read.hash}`).toBe(path);
        expect(sameSitePath(path, PUBLIC_URL)).toBe(path);
      }),
      { numRuns: 2000 },
    );
  });

  it('checks the stored path again when redirecting, so an attempt stored before the check cannot leave', async () => {
    const org = await ssoOrg();
    const where = await landing(org, '/assessments', async (organizationId) => {
      await app.database.db
        .update(ssoLoginAttempts)
        .set({ returnTo: '/.//evil.example/x' })
        .where(eq(ssoLoginAttempts.organizationId, organizationId));
    });
    expect(where).toBe('/');
  });
});

describe('which addresses Verity calls for an identity provider (SSRF)', () => {
  it('refuses to save an issuer on a loopback, private, link-local or otherwise internal address', async () => {
    const org = await createOrg(app);
    const notAllowedPort = `127.0.0.1:${internal.host.split(':')[1]}`;
    for (const issuer of [
      'https://10.0.0.1',
      'https://172.16.5.4/realms/x',
      'https://192.168.1.1',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1',
      'https://0.0.0.0',
      'https://127.0.0.2',
      'https://2130706433',
      'https://[::1]',
      'https://[fd00::1]',
      'https://[fe80::1]',
      'https://[::ffff:169.254.169.254]',
      'https://[::ffff:10.0.0.1]',
      'https://224.0.0.1',
      `http://${notAllowedPort}`,
      `https://${notAllowedPort}`,
      // A name that resolves to loopback (DNS, here /etc/hosts): refused like the address itself.
      `https://localhost:${internal.host.split(':')[1]}`,
    ]) {
      const res = await call(app, 'PUT', '/api/admin/sso', {
        as: org.admin,
        body: { issuer, clientId: 'c', clientSecret: 's' },
      });
      expect(res.statusCode, issuer).toBe(400);
      expect(res.data, issuer).toMatchObject({
        code: 'issuer_not_allowed',
        error: expect.stringMatching(/SSO_ALLOWED_ISSUER_HOSTS/),
        details: { issues: [{ field: 'issuer' }] },
      });
    }
    expect((await call(app, 'GET', '/api/admin/sso', { as: org.admin })).data.issuer).toBeNull();
    expect(internal.connections).toBe(0);
  });

  it('accepts the hosts the operator allowed, and public names (checked again at every connection)', async () => {
    const org = await createOrg(app);
    for (const issuer of [idp.issuer, 'https://sso.verity-hardening.invalid/realms/acme']) {
      const res = await call(app, 'PUT', '/api/admin/sso', {
        as: org.admin,
        body: { issuer, clientId: 'c', clientSecret: 's' },
      });
      expect(res.statusCode, issuer).toBe(200);
    }
  });

  it('does not call an issuer stored before it pointed inside (DNS changed, or saved before the check)', async () => {
    for (const issuer of [internal.url, `https://localhost:${internal.host.split(':')[1]}`]) {
      const org = await ssoOrg();
      await app.database.db
        .update(organizations)
        .set({ ssoConfig: sql`jsonb_set(sso_config, '{issuer}', ${JSON.stringify(issuer)}::jsonb)` })
        .where(eq(organizations.id, org.organizationId));
      const { location } = await start(org);
      expect(location, issuer).toBe('/login?sso_error=sso_unreachable');
      expect(internal.connections, issuer).toBe(0);
      expect(await failures(org.organizationId), issuer).toEqual([{ reason: 'issuer_not_allowed' }]);
    }
  });

  it('does not send the token request, with the client secret, where a discovery document says', async () => {
    const org = await ssoOrg(rogueToken.url, 'rogue-client');
    const started = await start(org);
    expect(started.location.startsWith(`${rogueToken.url}/auth?`)).toBe(true);
    const location = await callback({ state: started.state ?? '', code: 'chosen-by-attacker' }, started.cookie);
    expect(location).toBe('/login?sso_error=sso_failed');
    expect(internal.connections).toBe(0);
    expect(await failures(org.organizationId)).toMatchObject([{ reason: 'issuer_not_allowed' }]);
  });

  it('does not fetch signing keys where a discovery document says', async () => {
    const org = await ssoOrg(rogueKeys.url, 'rogue-client');
    const started = await start(org);
    rogueNonce = new URL(started.location).searchParams.get('nonce') ?? '';
    const location = await callback({ state: started.state ?? '', code: 'a-code' }, started.cookie);
    expect(location).toBe('/login?sso_error=sso_failed');
    expect(rogueKeys.requests).toContain('POST /token');
    expect(internal.connections).toBe(0);
    expect(await failures(org.organizationId)).toMatchObject([{ reason: 'issuer_not_allowed' }]);
  });

  it('writes one classified reason to the audit log, whether the port is closed or answers HTML or JSON', async () => {
    const reasons = [];
    for (const issuer of [`http://${closedPort}`, htmlPage.url, jsonPage.url]) {
      const org = await ssoOrg(issuer);
      expect((await start(org)).location, issuer).toBe('/login?sso_error=sso_unreachable');
      reasons.push(await failures(org.organizationId));
    }
    expect(reasons).toEqual([
      [{ reason: 'discovery_failed' }],
      [{ reason: 'discovery_failed' }],
      [{ reason: 'discovery_failed' }],
    ]);
  });

  it('reads SSO_ALLOWED_ISSUER_HOSTS, and stops with a sentence on a bad entry', () => {
    const env = { DATA_DIR: '/tmp/verity-config-test' };
    expect(
      loadConfig({ ...env, SSO_ALLOWED_ISSUER_HOSTS: ' Login.Corp.Example , 127.0.0.1:8443,[::1]:9000,keycloak ' })
        .ssoAllowedIssuerHosts,
    ).toEqual([
      { host: 'login.corp.example', port: null },
      { host: '127.0.0.1', port: 8443 },
      { host: '[::1]', port: 9000 },
      { host: 'keycloak', port: null },
    ]);
    expect(loadConfig({ ...env, SSO_ALLOWED_ISSUER_HOSTS: '' }).ssoAllowedIssuerHosts).toEqual([]);
    for (const bad of [
      'https://login.corp.example',
      'login.corp.example/realms',
      'login.corp.example:99999',
      'login.corp.example:0',
      'login corp.example',
      '*.corp.example',
      'user@login.corp.example',
      '2130706433',
      '[::1',
      'a,,b',
    ]) {
      expect(() => loadConfig({ ...env, SSO_ALLOWED_ISSUER_HOSTS: bad }), bad).toThrow(/SSO_ALLOWED_ISSUER_HOSTS/);
    }
  });
});

describe('what a failed sign-in writes into the audit log', () => {
  async function allFailures() {
    const [row] = await app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLogs)
      .where(eq(auditLogs.action, 'sso_sign_in_failed'));
    return row?.n ?? 0;
  }

  it('writes nothing for a callback with a state Verity never issued, or without its browser', async () => {
    const org = await ssoOrg();
    const started = await start(org);
    const before = await allFailures();
    const text = 'Your account is locked, call +1 555 0100';
    expect(await callback({ state: 'made-up', error: 'access_denied' }, 'verity_sso_state=made-up')).toBe(
      '/login?sso_error=sso_expired',
    );
    expect(await callback({ state: started.state ?? '', error: text }, '')).toBe('/login?sso_error=sso_expired');
    expect(await allFailures()).toBe(before);
  });

  it('keeps the provider’s error code only when it is a registered one, and never its text', async () => {
    const org = await ssoOrg();
    const sent = [
      ['access_denied', 'Unknown login'],
      ['login_required', ''],
      ['<b>Pay 1 BTC to unlock</b>', 'Call +1 555 0100'],
      ['server_error '.repeat(15), 'x'],
    ];
    for (const [error, description] of sent) {
      const started = await start(org);
      const query = { state: started.state ?? '', error: error ?? '', error_description: description ?? '' };
      expect(await callback(query, started.cookie)).toBe('/login?sso_error=sso_denied');
    }
    const rows = await failures(org.organizationId);
    expect(rows.map((r) => ({ reason: r.reason, error: r.error }))).toEqual([
      { reason: 'provider_error', error: 'access_denied' },
      { reason: 'provider_error', error: 'login_required' },
      { reason: 'provider_error', error: 'other' },
      { reason: 'provider_error', error: 'other' },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/BTC|555|Unknown login/);
  });

  it('writes a bounded number of failures a minute for an organization, without holding back another', async () => {
    const flooded = await ssoOrg();
    const other = await ssoOrg();
    expect(FAILURE_AUDITS_PER_MINUTE).toBe(20);
    for (let i = 0; i < 30; i++) {
      const started = await start(flooded);
      // Still refused like any failure: only the log is spared.
      expect(await callback({ state: started.state ?? '', error: 'access_denied' }, started.cookie)).toBe(
        '/login?sso_error=sso_denied',
      );
    }
    expect(await failures(flooded.organizationId)).toHaveLength(20);
    const started = await start(other);
    await callback({ state: started.state ?? '', error: 'access_denied' }, started.cookie);
    expect(await failures(other.organizationId)).toHaveLength(1);
  });

  it('counts the failures it leaves out, and the next row written in a later minute says how many', () => {
    let now = 1_000;
    const limiter = new FailureAuditLimiter(2, 60_000, () => now);
    expect([limiter.admit('a'), limiter.admit('a'), limiter.admit('a'), limiter.admit('a')]).toEqual([
      0,
      0,
      null,
      null,
    ]);
    expect(limiter.admit('b')).toBe(0);
    now += 59_999;
    expect(limiter.admit('a')).toBeNull();
    now += 1;
    expect([limiter.admit('a'), limiter.admit('a'), limiter.admit('a')]).toEqual([3, 0, null]);
  });
});
