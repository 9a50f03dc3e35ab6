import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, organizations, scimGroups, users } from '../server/db/schema';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createOrg, createUser, unique, organizationSlug } from './helpers/factories';
import { signInAtProvider, startOidcProvider, type TestAccount, type TestOidcProvider } from './helpers/oidc-provider';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server';
import { verifyDomain } from './helpers/sso-domains';

let app: TestApp;
let idp: TestOidcProvider;
// Domains route sign-ins once verified by DNS: the app asks this loopback server.
let dns: TestDnsServer;
const CALLBACK = 'http://verity.test/api/auth/sso/callback';

beforeAll(async () => {
  dns = await startDnsServer();
  idp = await startOidcProvider({ redirectUris: [CALLBACK] });
  app = await createTestApp({
    worker: false,
    // The test provider is a plain-http issuer on loopback, and so is the mirror of 'an issuer whose discovery
    // document names another issuer': the whole loopback host is allowed, not only the provider's port.
    env: { DNS_SERVERS: dns.address, SSO_ALLOWED_ISSUER_HOSTS: '127.0.0.1' },
  });
});
afterAll(async () => {
  await idp.close();
  await app.close();
  await dns.close();
});

type Org = Awaited<ReturnType<typeof createOrg>> & { slug: string; domain: string };

/** An organization whose SSO points at the test provider, with its own e-mail domain (verified). */
async function ssoOrg(settings: Record<string, unknown> = {}): Promise<Org> {
  const org = await createOrg(app);
  const domain = `${unique('corp')}.example`.toLowerCase();
  const res = await call(app, 'PUT', '/api/admin/sso', {
    as: org.admin,
    body: {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      domains: [domain],
      ...settings,
    },
  });
  if (res.statusCode !== 200) throw new Error(`SSO settings: ${res.statusCode} ${res.body}`);
  await verifyDomain(app, org.admin, dns, domain);
  return { ...org, slug: await organizationSlug(app, org.organizationId), domain };
}

function account(org: Org, extra: Partial<TestAccount> = {}): TestAccount {
  const login = unique('person');
  const person: TestAccount = {
    login,
    sub: `sub-${login}`,
    email: `${login}@${org.domain}`,
    emailVerified: true,
    givenName: 'Dana',
    familyName: 'Reyes',
    ...extra,
  };
  idp.addAccount(person);
  return person;
}

type Attempt = { callbackPath: string; stateCookie: string };

/** A browser starting to sign in: Verity's redirect to the provider, then the person signing in there. */
async function startAndSignIn(org: Org, login: string, returnTo?: string): Promise<Attempt> {
  const query = new URLSearchParams({ organization: org.slug, ...(returnTo && { returnTo }) });
  const start = await call(app, 'GET', `/api/auth/sso/start?${query}`);
  expect(start.statusCode).toBe(302);
  const state = start.cookies.find((c) => c.name === 'verity_sso_state');
  expect(state?.httpOnly).toBe(true);
  const back = await signInAtProvider(start.headers.location as string, login);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  return { callbackPath: `${back.pathname}${back.search}`, stateCookie: `verity_sso_state=${state?.value}` };
}

async function finish(attempt: Attempt, cookie = attempt.stateCookie) {
  const res = await call(app, 'GET', attempt.callbackPath, { headers: { cookie } });
  expect(res.statusCode).toBe(302);
  const session = res.cookies.find((c) => c.name === 'verity_session');
  return {
    location: res.headers.location as string,
    session: session ? { cookie: `verity_session=${session.value}` } : null,
  };
}

async function signIn(org: Org, person: TestAccount, returnTo?: string) {
  return finish(await startAndSignIn(org, person.login, returnTo));
}

async function me(session: Session | null) {
  return call(app, 'GET', '/api/auth/me', { as: session });
}

async function userByEmail(email: string) {
  const [row] = await app.database.db.select().from(users).where(eq(users.email, email));
  return row;
}

async function auditActions(organizationId: string) {
  const rows = await app.database.db
    .select({ action: auditLogs.action, details: auditLogs.details })
    .from(auditLogs)
    .where(eq(auditLogs.organizationId, organizationId))
    .orderBy(auditLogs.seq);
  return rows;
}

describe('SSO settings', () => {
  it('stores domains, the default role, group mappings and SSO required, and names the redirect URI', async () => {
    const org = await ssoOrg({
      defaultRole: 'contributor',
      groupsClaim: 'roles',
      groupRoles: [{ group: 'Verity Admins', role: 'admin' }],
    });
    const got = await call(app, 'GET', '/api/admin/sso', { as: org.admin });
    expect(got.data).toMatchObject({
      issuer: idp.issuer,
      domains: [org.domain],
      defaultRole: 'contributor',
      groupsClaim: 'roles',
      groupRoles: [{ group: 'Verity Admins', role: 'admin' }],
      ssoRequired: false,
      breakGlassUserId: null,
      redirectUri: CALLBACK,
      scimBaseUrl: 'http://verity.test/scim/v2',
    });
  });

  it('refuses a domain another organization signs in with, and changes nothing', async () => {
    const first = await ssoOrg();
    const second = await ssoOrg();
    const res = await call(app, 'PUT', '/api/admin/sso', {
      as: second.admin,
      body: { issuer: idp.issuer, clientId: 'other', clientSecret: 'x', domains: [first.domain] },
    });
    expect(res.statusCode).toBe(409);
    expect(res.data.code).toBe('domain_taken');
    expect(res.data.error).toContain(first.domain);
    expect((await call(app, 'GET', '/api/admin/sso', { as: second.admin })).data).toMatchObject({
      clientId: idp.clientId,
      domains: [second.domain],
    });
  });

  it('requires a break-glass admin of this organization, with a password, to require SSO', async () => {
    const org = await ssoOrg();
    const other = await createOrg(app);
    const manager = await createUser(app, org.admin, 'manager');
    const base = { issuer: idp.issuer, clientId: idp.clientId, domains: [org.domain], ssoRequired: true };
    const put = (body: Record<string, unknown>) => call(app, 'PUT', '/api/admin/sso', { as: org.admin, body });

    const missing = await put(base);
    expect(missing.statusCode).toBe(400);
    expect(JSON.stringify(missing.data.details)).toContain('breakGlassUserId');
    for (const id of [manager.id, other.admin.id]) {
      const res = await put({ ...base, breakGlassUserId: id });
      expect(res.statusCode).toBe(400);
      expect(res.data.error).toMatch(/break-glass admin must be an admin of this organization/);
    }
    expect((await call(app, 'GET', '/api/admin/sso', { as: org.admin })).data.ssoRequired).toBe(false);
    expect((await put({ ...base, breakGlassUserId: org.admin.id })).statusCode).toBe(200);
  });

  it('refuses malformed settings with the field named', async () => {
    const org = await createOrg(app);
    const good = { issuer: 'https://login.example.com', clientId: 'c', domains: ['example.org'] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, issuer: 'http://login.example.com' }, 'issuer'],
      [{ ...good, domains: ['not a domain'] }, 'domains'],
      [{ ...good, domains: ['a.example', 'A.example'] }, 'domains'],
      [{ ...good, defaultRole: 'admin' }, 'defaultRole'],
      [{ ...good, groupRoles: [{ group: 'x', role: 'owner' }] }, 'groupRoles'],
      [
        {
          ...good,
          groupRoles: [
            { group: 'x', role: 'viewer' },
            { group: 'X', role: 'admin' },
          ],
        },
        'groupRoles',
      ],
      [{ ...good, groupsClaim: 'a b' }, 'groupsClaim'],
      [{ ...good, breakGlassUserId: 'nope' }, 'breakGlassUserId'],
    ];
    for (const [body, field] of cases) {
      const res = await call(app, 'PUT', '/api/admin/sso', { as: org.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.data.details)).toContain(field);
    }
    expect((await call(app, 'GET', '/api/admin/sso', { as: org.admin })).data.issuer).toBeNull();
  });
});

describe('GET /api/auth/sso/discover', () => {
  it('finds the organization by e-mail domain or by its short name', async () => {
    const org = await ssoOrg();
    const byEmail = await call(app, 'GET', `/api/auth/sso/discover?email=${encodeURIComponent(`Ana@${org.domain}`)}`);
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.data).toEqual({
      organizationName: org.organizationName,
      organization: org.slug,
      ssoRequired: false,
      startUrl: `/api/auth/sso/start?organization=${org.slug}`,
    });
    const bySlug = await call(app, 'GET', `/api/auth/sso/discover?organization=${org.slug}`);
    expect(bySlug.data.organization).toBe(org.slug);
  });

  it('finds nothing for an unknown domain or an organization without SSO, and refuses a bad query', async () => {
    const plain = await createOrg(app);
    const [row] = await app.database.db
      .select({ slug: organizations.slug })
      .from(organizations)
      .where(eq(organizations.id, plain.organizationId));
    const unknown = await call(app, 'GET', '/api/auth/sso/discover?email=a@nobody-here.example');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.data).toEqual({
      error: 'No organization signs in with SSO for this e-mail domain. Sign in with your password, or ask your admin.',
      code: 'not_found',
    });
    expect((await call(app, 'GET', `/api/auth/sso/discover?organization=${row?.slug}`)).statusCode).toBe(404);
    for (const q of ['', 'email=not-an-address', 'email=a@b.example&organization=x', 'organization=Bad%20Slug']) {
      expect((await call(app, 'GET', `/api/auth/sso/discover?${q}`)).statusCode, q).toBe(400);
    }
  });
});

describe('signing in through the identity provider', () => {
  it('creates the account at the first sign-in, in the default role, with no password, and signs it in', async () => {
    const org = await ssoOrg({ defaultRole: 'contributor' });
    const person = account(org);
    const { location, session } = await signIn(org, person);
    expect(location).toBe('/');
    const who = await me(session);
    expect(who.statusCode).toBe(200);
    expect(who.data.user).toMatchObject({ email: person.email, role: 'contributor', firstName: 'Dana' });
    expect(who.data.user.organizationId).toBe(org.organizationId);
    const row = await userByEmail(person.email ?? '');
    expect(row).toMatchObject({ source: 'sso', passwordHash: null, ssoIssuer: idp.issuer, ssoSubject: person.sub });
    const actions = (await auditActions(org.organizationId)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['sso_user_created', 'user_logged_in']));

    // The same person again is the same account.
    const again = await signIn(org, person);
    expect((await me(again.session)).data.user.id).toBe(row?.id);
  });

  it('lands on the page the person came from, and never on another site', async () => {
    const org = await ssoOrg();
    const person = account(org);
    expect((await signIn(org, person, '/assessments?x=1')).location).toBe('/assessments?x=1');
    for (const returnTo of [
      '//evil.example/',
      'https://evil.example/',
      '/\\evil.example',
      '/\t/evil.example/',
      '/\n/x',
    ]) {
      const q = new URLSearchParams({ organization: org.slug, returnTo });
      expect((await call(app, 'GET', `/api/auth/sso/start?${q}`)).statusCode, returnTo).toBe(400);
    }
  });

  it('links an existing account of the organization by its e-mail address', async () => {
    const org = await ssoOrg();
    const member = await createUser(app, org.admin, 'manager');
    const person = account(org, { email: member.email });
    const { session } = await signIn(org, person);
    const who = await me(session);
    expect(who.data.user).toMatchObject({ id: member.id, role: 'manager' });
    expect((await auditActions(org.organizationId)).map((a) => a.action)).toContain('sso_account_linked');
    // The password still works while SSO is not required.
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: member.username, password: member.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('gives the role of the mapped groups, and follows group changes at each sign-in', async () => {
    const org = await ssoOrg({
      defaultRole: 'viewer',
      groupRoles: [
        { group: 'Security Team', role: 'manager' },
        { group: 'verity-admins', role: 'admin' },
      ],
    });
    const person = account(org, { groups: ['Everyone', 'security team'] });
    const first = await signIn(org, person);
    expect((await me(first.session)).data.user.role).toBe('manager');

    idp.addAccount({ ...person, groups: ['Everyone', 'Security Team', 'Verity-Admins'] });
    expect((await me((await signIn(org, person)).session)).data.user.role).toBe('admin');

    idp.addAccount({ ...person, groups: ['Everyone'] });
    expect((await me((await signIn(org, person)).session)).data.user.role).toBe('viewer');
  });

  it('keeps the last admin an admin whatever the groups say', async () => {
    const org = await ssoOrg({ groupRoles: [{ group: 'staff', role: 'viewer' }] });
    const person = account(org, { email: org.admin.email, groups: ['staff'] });
    const { session } = await signIn(org, person);
    expect((await me(session)).data.user).toMatchObject({ id: org.admin.id, role: 'admin' });
  });

  it('uses a pending invitation for the address, in its role', async () => {
    const org = await ssoOrg();
    const person = account(org);
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email: person.email, role: 'manager' },
    });
    expect(inv.statusCode).toBe(201);
    const { session } = await signIn(org, person);
    expect((await me(session)).data.user.role).toBe('manager');
    expect((await call(app, 'GET', `/api/auth/invitations/${inv.data.token}`)).statusCode).toBe(404);
  });

  it("refuses an address that belongs to another organization's account, and creates nothing", async () => {
    const org = await ssoOrg();
    const stranger = await createOrg(app);
    const person = account(org, { email: stranger.admin.email });
    const { location, session } = await signIn(org, person);
    expect(location).toBe('/login?sso_error=sso_other_organization');
    expect(session).toBeNull();
    const rows = await app.database.db.select().from(users).where(eq(users.email, stranger.admin.email));
    expect(rows).toHaveLength(1);
  });

  it('refuses a person whose account here was deactivated', async () => {
    const org = await ssoOrg();
    const person = account(org);
    const { session } = await signIn(org, person);
    const id = (await me(session)).data.user.id as string;
    expect((await call(app, 'DELETE', `/api/organizations/users/${id}`, { as: org.admin })).statusCode).toBe(200);
    expect((await me(session)).statusCode).toBe(401);
    const again = await signIn(org, person);
    expect(again.location).toBe('/login?sso_error=sso_deactivated');
    expect(again.session).toBeNull();
  });

  it('refuses a token without an e-mail address for a person it does not know yet', async () => {
    const org = await ssoOrg();
    const person = account(org, { email: undefined });
    expect((await signIn(org, person)).location).toBe('/login?sso_error=sso_no_email');
  });

  it('says so when the provider does not sign the person in', async () => {
    const org = await ssoOrg();
    const attempt = await startAndSignIn(org, 'nobody-at-the-provider');
    const { location, session } = await finish(attempt);
    expect(location).toBe('/login?sso_error=sso_denied');
    expect(session).toBeNull();
  });
});

describe('who an address may be matched to', () => {
  it('never moves an account to another identity of the same provider with the same address', async () => {
    const org = await ssoOrg();
    const first = account(org);
    const { session } = await signIn(org, first);
    const id = (await me(session)).data.user.id as string;
    const impostor = account(org, { email: first.email, sub: `other-${first.sub}` });
    const res = await signIn(org, impostor);
    expect(res.location).toBe('/login?sso_error=sso_failed');
    expect(res.session).toBeNull();
    expect((await userByEmail(first.email ?? ''))?.ssoSubject).toBe(first.sub);
    expect((await me((await signIn(org, first)).session)).data.user.id).toBe(id);
  });

  it('matches or creates only addresses the provider verified or of the organization’s own domains', async () => {
    const org = await ssoOrg();
    const member = await createUser(app, org.admin, 'manager');
    // example.com is not the organization's SSO domain, and the provider does not say the address is verified.
    const unverified = account(org, { email: member.email, emailVerified: undefined });
    const refused = await signIn(org, unverified);
    expect(refused.location).toBe('/login?sso_error=sso_unverified');
    expect(await userByEmail(member.email)).toMatchObject({ ssoSubject: null });
    const stranger = account(org, { email: `${unique('x')}@elsewhere.example`, emailVerified: false });
    expect((await signIn(org, stranger)).location).toBe('/login?sso_error=sso_unverified');
    expect(await userByEmail(stranger.email ?? '')).toBeUndefined();
    // In the organization's own domain the provider's word is enough.
    const own = account(org, { emailVerified: undefined });
    expect((await me((await signIn(org, own)).session)).data.user.email).toBe(own.email);
  });
});

describe('starting a sign-in', () => {
  it('only from Verity’s own pages or a typed address, never from a link on another site', async () => {
    const org = await ssoOrg();
    const url = `/api/auth/sso/start?organization=${org.slug}`;
    for (const site of ['cross-site', 'same-site']) {
      const res = await call(app, 'GET', url, { headers: { 'sec-fetch-site': site } });
      expect(res.statusCode, site).toBe(302);
      expect(res.headers.location, site).toBe('/login?sso_error=sso_start_elsewhere');
      expect(
        res.cookies.find((c) => c.name === 'verity_sso_state'),
        site,
      ).toBeUndefined();
    }
    for (const site of ['same-origin', 'none']) {
      const res = await call(app, 'GET', url, { headers: { 'sec-fetch-site': site } });
      expect(res.headers.location, site).toMatch(new RegExp(`^${idp.issuer}/`));
    }
  });
});

describe('SSO settings and API tokens', () => {
  it('an API token may read the settings but not change or remove them', async () => {
    const org = await ssoOrg();
    const created = await call(app, 'POST', '/api/admin/api-tokens', {
      as: org.admin,
      body: { name: 'automation', role: 'admin' },
    });
    const bearer = { authorization: `Bearer ${created.data.token}` };
    expect((await call(app, 'GET', '/api/admin/sso', { headers: bearer })).statusCode).toBe(200);
    const put = await call(app, 'PUT', '/api/admin/sso', {
      headers: bearer,
      body: { issuer: 'https://attacker.example', clientId: 'x', clientSecret: 'y' },
    });
    expect(put.statusCode).toBe(403);
    expect((await call(app, 'DELETE', '/api/admin/sso', { headers: bearer })).statusCode).toBe(403);
    expect((await call(app, 'GET', '/api/admin/sso', { as: org.admin })).data.issuer).toBe(idp.issuer);
  });
});

describe('roles when SCIM pushes groups', () => {
  it('come from SCIM, not from the groups claim at sign-in', async () => {
    const org = await ssoOrg({ groupRoles: [{ group: 'verity-admins', role: 'admin' }] });
    await app.database.db.insert(scimGroups).values({ organizationId: org.organizationId, displayName: 'staff' });
    const person = account(org, { groups: ['verity-admins'] });
    expect((await me((await signIn(org, person)).session)).data.user.role).toBe('viewer');
  });
});

describe('what the callback refuses', () => {
  it('a replayed callback (the state is single use)', async () => {
    const org = await ssoOrg();
    const person = account(org);
    const attempt = await startAndSignIn(org, person.login);
    expect((await finish(attempt)).session).not.toBeNull();
    const replay = await finish(attempt);
    expect(replay.location).toBe('/login?sso_error=sso_expired');
    expect(replay.session).toBeNull();
  });

  it('a callback in a browser that did not start the sign-in (no or another state cookie)', async () => {
    const org = await ssoOrg();
    const person = account(org);
    const attempt = await startAndSignIn(org, person.login);
    expect((await finish(attempt, '')).location).toBe('/login?sso_error=sso_expired');
    expect((await finish(attempt, 'verity_sso_state=forged')).location).toBe('/login?sso_error=sso_expired');
  });

  it('a callback for a state Verity never issued', async () => {
    const org = await ssoOrg();
    const person = account(org);
    const attempt = await startAndSignIn(org, person.login);
    const forged = attempt.callbackPath.replace(/state=[^&]+/, 'state=made-up');
    const res = await finish({ callbackPath: forged, stateCookie: 'verity_sso_state=made-up' });
    expect(res.location).toBe('/login?sso_error=sso_expired');
  });

  describe('ID tokens the provider did not issue as they arrive', () => {
    const payloadOf = (jwt: string) =>
      JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

    /** The audit row's classified reason and the check openid-client names (test/sso-hardening.test.ts). */
    const reasonOf = (res: { failures: Array<{ details: unknown }> }) => {
      const details = res.failures.at(-1)?.details as { reason?: string; check?: string } | null;
      return `${details?.reason}: ${details?.check}`;
    };

    async function withTamperedToken(change: (idToken: string) => Promise<string> | string) {
      const org = await ssoOrg();
      const person = account(org);
      idp.tamperTokens(async (body) => ({ ...body, id_token: await change(String(body.id_token)) }));
      try {
        const attempt = await startAndSignIn(org, person.login);
        const res = await finish(attempt);
        const failures = (await auditActions(org.organizationId)).filter((a) => a.action === 'sso_sign_in_failed');
        return { ...res, failures, person };
      } finally {
        idp.tamperTokens(null);
      }
    }

    it('a token whose payload was changed after signing', async () => {
      const res = await withTamperedToken((jwt) => {
        const [h, , s] = jwt.split('.');
        const payload = { ...payloadOf(jwt), email: 'ceo@victim.example' };
        return `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
      });
      expect(res.location).toBe('/login?sso_error=sso_failed');
      expect(res.session).toBeNull();
      expect(res.failures).toHaveLength(1);
      expect(reasonOf(res)).toMatch(/^id_token_invalid: .*signature verification failed/);
      expect(await userByEmail('ceo@victim.example')).toBeUndefined();
    });

    it('an expired token', async () => {
      const res = await withTamperedToken((jwt) => {
        const now = Math.floor(Date.now() / 1000);
        return idp.sign({ ...payloadOf(jwt), iat: now - 7200, exp: now - 3600 });
      });
      expect(res.location).toBe('/login?sso_error=sso_failed');
      expect(res.session).toBeNull();
      expect(reasonOf(res)).toMatch(/"exp" \(expiration time\)/);
    });

    it('a token from another issuer, or for another client, or with another nonce', async () => {
      const changes: Array<[Record<string, unknown>, RegExp]> = [
        [{ iss: 'https://evil.example' }, /"iss" \(issuer\)/],
        [{ aud: 'someone-else' }, /"aud" \(audience\)/],
        [{ nonce: 'replayed-nonce' }, /nonce/],
      ];
      for (const [change, reason] of changes) {
        const res = await withTamperedToken((jwt) => idp.sign({ ...payloadOf(jwt), ...change }));
        expect(res.location, JSON.stringify(change)).toBe('/login?sso_error=sso_failed');
        expect(reasonOf(res), JSON.stringify(change)).toMatch(reason);
        expect(res.session).toBeNull();
        expect(await userByEmail(res.person.email ?? '')).toBeUndefined();
      }
    });

    it('a token signed with a key that is not the provider’s', async () => {
      const { generateKeyPair, SignJWT } = await import('jose');
      const { privateKey } = await generateKeyPair('RS256');
      const res = await withTamperedToken((jwt) =>
        new SignJWT(payloadOf(jwt)).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey),
      );
      expect(res.location).toBe('/login?sso_error=sso_failed');
      expect(reasonOf(res)).toMatch(/signature verification failed/);
    });
  });

  it('an issuer whose discovery document names another issuer', async () => {
    // Another address serving the real provider's metadata, whose `issuer` is therefore not that address.
    const metadata = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).text();
    const mirror = http.createServer((_req, res) => res.setHeader('content-type', 'application/json').end(metadata));
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    try {
      const org = await ssoOrg();
      const mirrorIssuer = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}`;
      const saved = await call(app, 'PUT', '/api/admin/sso', {
        as: org.admin,
        body: { issuer: mirrorIssuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
      });
      expect(saved.statusCode).toBe(200);
      const start = await call(app, 'GET', `/api/auth/sso/start?organization=${org.slug}`);
      expect(start.statusCode).toBe(302);
      expect(start.headers.location).toBe('/login?sso_error=sso_unreachable');
      const failures = (await auditActions(org.organizationId)).filter((a) => a.action === 'sso_sign_in_failed');
      expect(failures).toHaveLength(1);
      expect(failures[0]?.details).toEqual({
        reason: 'discovery_failed',
        check: 'discovered metadata issuer does not match the expected issuer',
      });
    } finally {
      mirror.closeAllConnections();
      await new Promise<void>((resolve) => mirror.close(() => resolve()));
    }
  });

  it('a sign-in started for an organization that no longer has SSO', async () => {
    const org = await ssoOrg();
    const person = account(org);
    const attempt = await startAndSignIn(org, person.login);
    await call(app, 'DELETE', '/api/admin/sso', { as: org.admin });
    expect((await finish(attempt)).location).toBe('/login?sso_error=sso_not_configured');
    const again = await call(app, 'GET', `/api/auth/sso/start?organization=${org.slug}`);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/login?sso_error=sso_not_configured');
  });
});

describe('SSO required', () => {
  async function requiredOrg() {
    const org = await ssoOrg();
    const member = await createUser(app, org.admin, 'contributor');
    const res = await call(app, 'PUT', '/api/admin/sso', {
      as: org.admin,
      body: {
        issuer: idp.issuer,
        clientId: idp.clientId,
        domains: [org.domain],
        ssoRequired: true,
        breakGlassUserId: org.admin.id,
      },
    });
    expect(res.statusCode).toBe(200);
    return { org, member };
  }

  it('turns passwords off for everyone but the break-glass admin', async () => {
    const { org, member } = await requiredOrg();
    const refused = await call(app, 'POST', '/api/auth/login', {
      body: { username: member.username, password: member.password },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.data.code).toBe('sso_required');
    expect(refused.data.error).toMatch(/Sign in with SSO/);
    // A wrong password still says only that it is wrong.
    const wrong = await call(app, 'POST', '/api/auth/login', {
      body: { username: member.username, password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(401);
    const breakGlass = await call(app, 'POST', '/api/auth/login', {
      body: { username: org.admin.username, password: org.admin.password },
    });
    expect(breakGlass.statusCode).toBe(200);
    expect((await call(app, 'GET', `/api/auth/sso/discover?organization=${org.slug}`)).data.ssoRequired).toBe(true);

    // The member signs in through the provider instead.
    const person = account(org, { email: member.email });
    expect((await me((await signIn(org, person)).session)).data.user.id).toBe(member.id);
  });

  it('sends no reset link and takes no reset for members, and no invitation sign-up with a password', async () => {
    const { org, member } = await requiredOrg();
    const before = await app.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.organizationId, org.organizationId), eq(auditLogs.action, 'password_reset_requested')));
    await call(app, 'POST', '/api/auth/forgot-password', { body: { email: member.email } });
    const after = await app.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.organizationId, org.organizationId), eq(auditLogs.action, 'password_reset_requested')));
    expect(after).toHaveLength(before.length);

    const email = `${unique('invitee')}@${org.domain}`;
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email, role: 'viewer' },
    });
    const register = await call(app, 'POST', '/api/auth/register', {
      body: { username: unique('invitee'), email, password: 'correct-horse', invitationToken: inv.data.token },
    });
    expect(register.statusCode).toBe(403);
    expect(register.data.code).toBe('sso_required');
    expect((await call(app, 'GET', `/api/auth/invitations/${inv.data.token}`)).statusCode).toBe(200);
  });

  it('passwords work again when the SSO configuration is removed', async () => {
    const { org, member } = await requiredOrg();
    await call(app, 'DELETE', '/api/admin/sso', { as: org.admin });
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: member.username, password: member.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it("does not touch another organization's passwords", async () => {
    await requiredOrg();
    const other = await createOrg(app);
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: other.admin.username, password: other.admin.password },
    });
    expect(login.statusCode).toBe(200);
  });
});

describe('accounts made by SSO', () => {
  it('get no reset link while the organization signs in through its provider', async () => {
    const org = await ssoOrg();
    const person = account(org);
    await signIn(org, person);
    const requested = async () =>
      (await auditActions(org.organizationId)).filter((a) => a.action === 'password_reset_requested').length;
    await call(app, 'POST', '/api/auth/forgot-password', { body: { email: person.email } });
    expect(await requested()).toBe(0);
    // Without SSO settings a reset is the only way in, so it is sent.
    await call(app, 'DELETE', '/api/admin/sso', { as: org.admin });
    await call(app, 'POST', '/api/auth/forgot-password', { body: { email: person.email } });
    expect(await requested()).toBe(1);
  });

  it('have no password to change', async () => {
    const org = await ssoOrg();
    const person = account(org);
    const { session } = await signIn(org, person);
    const res = await call(app, 'PUT', '/api/auth/change-password', {
      as: session,
      body: {
        currentPassword: 'anything-at-all',
        newPassword: 'another-horse-battery',
        confirmPassword: 'another-horse-battery',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toMatch(/signs in through SSO/);
    const byPassword = await call(app, 'POST', '/api/auth/login', {
      body: { username: person.email, password: 'anything-at-all' },
    });
    expect(byPassword.statusCode).toBe(401);
  });
});
