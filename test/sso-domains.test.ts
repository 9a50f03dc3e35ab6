import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLogs, users } from '../server/db/schema';
import { loadConfig } from '../server/config';
import { createTestApp, type TestApp } from './helpers/app';
import { call, sessionCookieFrom, type Session } from './helpers/api';
import { createOrg, createUser, unique, organizationSlug } from './helpers/factories';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from './helpers/oidc-provider';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server';
import { domainClaim, verifyDomain } from './helpers/sso-domains';
import { createScimToken, oktaUser, patchOp, provisionUser, scim } from './helpers/scim';

let app: TestApp;
let idp: TestOidcProvider;
let dns: TestDnsServer;
const CALLBACK = 'http://verity.test/api/auth/sso/callback';

beforeAll(async () => {
  dns = await startDnsServer();
  idp = await startOidcProvider({ redirectUris: [CALLBACK] });
  app = await createTestApp({
    worker: false,
    env: { DNS_SERVERS: dns.address, SSO_ALLOWED_ISSUER_HOSTS: new URL(idp.issuer).host },
  });
});
afterAll(async () => {
  await idp.close();
  await app.close();
  await dns.close();
});

const newDomain = () => `${unique('corp')}.example`.toLowerCase();

type Org = Awaited<ReturnType<typeof createOrg>> & { slug: string };

/** An organization with SSO settings pointing at the test provider, claiming `domains` (unverified). */
async function orgClaiming(...domains: string[]): Promise<Org> {
  const org = await createOrg(app);
  const res = await claim(org.admin, domains);
  if (res.statusCode !== 200) throw new Error(`SSO settings: ${res.statusCode} ${res.body}`);
  return { ...org, slug: await organizationSlug(app, org.organizationId) };
}

function claim(admin: Session, domains: string[]) {
  return call(app, 'PUT', '/api/admin/sso', {
    as: admin,
    body: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domains },
  });
}

const verify = (as: Session | null, domain: string, headers?: Record<string, string>) =>
  call(app, 'POST', `/api/admin/sso/domains/${domain}/verify`, { as, headers });

const discover = (email: string) => call(app, 'GET', `/api/auth/sso/discover?email=${encodeURIComponent(email)}`);

async function settings(admin: Session) {
  return (await call(app, 'GET', '/api/admin/sso', { as: admin })).data;
}

async function actions(organizationId: string) {
  return app.database.db
    .select({ action: auditLogs.action, details: auditLogs.details, userId: auditLogs.userId })
    .from(auditLogs)
    .where(eq(auditLogs.organizationId, organizationId))
    .orderBy(auditLogs.seq);
}

async function userByEmail(email: string) {
  const [row] = await app.database.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

/** A new organization signed up by a person whose address is at `domain`. */
async function signUpAt(domain: string) {
  const username = unique('founder');
  return call(app, 'POST', '/api/auth/register', {
    body: { username, email: `${username}@${domain}`, password: 'correct-horse', organizationName: unique('Org ') },
  });
}

/** The whole SSO sign-in of `email` at the organization's provider, as a browser makes it; the redirect's target. */
async function ssoSignIn(org: Org, email: string, emailVerified: boolean) {
  const login = unique('person');
  idp.addAccount({ login, sub: `sub-${login}`, email, emailVerified });
  const start = await call(app, 'GET', `/api/auth/sso/start?organization=${org.slug}`);
  expect(start.statusCode).toBe(302);
  const state = start.cookies.find((c) => c.name === 'verity_sso_state');
  const back = await signInAtProvider(start.headers.location as string, login);
  const res = await call(app, 'GET', `${back.pathname}${back.search}`, {
    headers: { cookie: `verity_sso_state=${state?.value}` },
  });
  expect(res.statusCode).toBe(302);
  return res.headers.location as string;
}

describe('claiming a domain', () => {
  it('starts unverified, with a random TXT record to publish, and is audited', async () => {
    const domain = newDomain();
    const org = await orgClaiming(domain);
    const other = await orgClaiming(newDomain());
    const view = await settings(org.admin);
    expect(view.domains).toEqual([domain]);
    expect(view.domainClaims).toEqual([
      {
        domain,
        verified: false,
        verifiedAt: null,
        record: {
          name: `_verity-challenge.${domain}`,
          value: expect.stringMatching(/^verity-domain-verification=[0-9a-f]{32}$/),
        },
      },
    ]);
    // Each claim has its own token: another organization's published record proves nothing for this one.
    const otherRecord = (await settings(other.admin)).domainClaims[0].record.value;
    expect(otherRecord).not.toBe(view.domainClaims[0].record.value);
    expect(await actions(org.organizationId)).toContainEqual(
      expect.objectContaining({ action: 'sso_domain_claimed', details: { domain }, userId: org.admin.id }),
    );
    // Saving again keeps the claim and its token; removing it is audited.
    await claim(org.admin, [domain]);
    expect((await settings(org.admin)).domainClaims[0].record).toEqual(view.domainClaims[0].record);
    await claim(org.admin, []);
    expect((await settings(org.admin)).domainClaims).toEqual([]);
    expect(await actions(org.organizationId)).toContainEqual(
      expect.objectContaining({ action: 'sso_domain_released', details: { domain } }),
    );
  });

  it('refuses public e-mail domains with a sentence, and changes nothing', async () => {
    const own = newDomain();
    const org = await orgClaiming(own);
    for (const domain of ['gmail.com', 'Outlook.com', 'yahoo.com', 'proton.me', 'gmx.de']) {
      const res = await claim(org.admin, [own, domain]);
      expect(res.statusCode, domain).toBe(400);
      expect(res.data.code).toBe('domain_public');
      expect(res.data.error).toBe(
        `${domain.toLowerCase()} is the domain of a public e-mail service: anyone can have an address there, so it cannot sign in to one organization. Remove it from the list and add your organization's own domain.`,
      );
      expect(res.data.details.issues[0].field).toBe('domains');
    }
    expect((await settings(org.admin)).domains).toEqual([own]);
  });

  it('refuses a domain that live accounts of another organization use', async () => {
    const theirs = newDomain();
    const founder = await signUpAt(theirs);
    expect(founder.statusCode).toBe(201);
    const org = await createOrg(app);
    const res = await claim(org.admin, [theirs]);
    expect(res.statusCode).toBe(409);
    expect(res.data).toMatchObject({ code: 'domain_in_use', details: { issues: [{ field: 'domains' }] } });
    expect(res.data.error).toMatch(new RegExp(`^People of another organization use addresses at ${theirs}`));
    // The organization's own people do not block it.
    const own = newDomain();
    expect((await signUpAt(own)).statusCode).toBe(201);
    const ownOrg = await createOrg(app);
    expect((await claim(ownOrg.admin, [newDomain()])).statusCode).toBe(200);
  });

  it('refuses malformed domains', async () => {
    const org = await createOrg(app);
    for (const domain of ['not a domain', 'localhost', 'a..example', '-x.example', 'x.example/path']) {
      const res = await claim(org.admin, [domain]);
      expect(res.statusCode, domain).toBe(400);
    }
  });

  it('does not let an unverified claim block another organization', async () => {
    const domain = newDomain();
    await orgClaiming(domain);
    const second = await orgClaiming(domain);
    expect((await settings(second.admin)).domains).toEqual([domain]);
  });
});

describe('verifying a domain', () => {
  it('finds the record at _verity-challenge.<domain> or at the domain, and then routes sign-ins', async () => {
    const challenged = newDomain();
    const apex = newDomain();
    const org = await orgClaiming(challenged, apex);
    // Unverified: the login page does not send anyone there.
    expect((await discover(`ana@${challenged}`)).statusCode).toBe(404);

    const first = await domainClaim(app, org.admin, challenged);
    dns.setTxt(first.record.name, ['v=spf1 -all', first.record.value]);
    const res = await verify(org.admin, challenged);
    expect(res.statusCode).toBe(200);
    expect(res.data.domainClaims.find((c: { domain: string }) => c.domain === challenged)).toMatchObject({
      verified: true,
      verifiedAt: expect.any(String),
    });
    expect((await discover(`Ana@${challenged.toUpperCase()}`)).data).toMatchObject({ organization: org.slug });

    const second = await domainClaim(app, org.admin, apex);
    dns.setTxt(apex, [second.record.value]);
    expect((await verify(org.admin, apex.toUpperCase())).statusCode).toBe(200);
    expect((await discover(`bo@${apex}`)).data).toMatchObject({ organization: org.slug });
    // Verifying again changes nothing; a new save keeps the verification.
    expect((await verify(org.admin, apex)).statusCode).toBe(200);
    await claim(org.admin, [challenged, apex]);
    expect((await settings(org.admin)).domainClaims.every((c: { verified: boolean }) => c.verified)).toBe(true);
    expect(await actions(org.organizationId)).toContainEqual(
      expect.objectContaining({ action: 'sso_domain_verified', details: { domain: challenged }, userId: org.admin.id }),
    );
  });

  it('says what to publish when the record is missing or holds another token, and stays unverified', async () => {
    const domain = newDomain();
    const org = await orgClaiming(domain);
    const { record } = await domainClaim(app, org.admin, domain);

    const missing = await verify(org.admin, domain);
    expect(missing.statusCode).toBe(400);
    expect(missing.data).toEqual({
      code: 'domain_record_missing',
      error: `No TXT record ${record.value} was found at ${record.name} or ${domain}. Publish it at your DNS host, wait for it to appear (often a few minutes), then press Verify again.`,
    });

    // Another organization's token (or an old one) is not this claim's.
    dns.setTxt(record.name, ['verity-domain-verification=0123456789abcdef0123456789abcdef']);
    const wrong = await verify(org.admin, domain);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.data.code).toBe('domain_record_mismatch');
    expect(wrong.data.error).toContain(`Publish exactly ${record.value} at ${record.name}`);
    // The token as a substring of a longer value is not the record either.
    dns.setTxt(record.name, [`${record.value}x`]);
    expect((await verify(org.admin, domain)).data.code).toBe('domain_record_mismatch');

    expect((await domainClaim(app, org.admin, domain)).verified).toBe(false);
    expect((await discover(`ana@${domain}`)).statusCode).toBe(404);
  });

  it('answers 503 when DNS cannot be asked', async () => {
    const domain = newDomain();
    const org = await orgClaiming(domain);
    const { record } = await domainClaim(app, org.admin, domain);
    dns.setTxt(record.name, [record.value]);
    dns.failAll(true);
    try {
      const res = await verify(org.admin, domain);
      expect(res.statusCode).toBe(503);
      expect(res.data).toMatchObject({ code: 'dns_unavailable', error: expect.stringMatching(/Try Verify again/) });
    } finally {
      dns.failAll(false);
    }
    expect((await domainClaim(app, org.admin, domain)).verified).toBe(false);
  });

  it('refuses a malformed or unclaimed domain', async () => {
    const org = await orgClaiming(newDomain());
    for (const bad of ['not_a_domain', 'localhost', 'a..example', `${'a'.repeat(64)}.example`]) {
      const res = await verify(org.admin, encodeURIComponent(bad));
      expect(res.statusCode, bad).toBe(400);
      expect(res.data.code).toBe('validation_error');
    }
    const unclaimed = await verify(org.admin, newDomain());
    expect(unclaimed.statusCode).toBe(404);
    expect(unclaimed.data).toEqual({ code: 'not_found', error: 'SSO domain not found' });
  });

  it("is 404 for another organization's claim, 403 below admin or with an API token, 401 anonymously", async () => {
    const domain = newDomain();
    const org = await orgClaiming(domain);
    const { record } = await domainClaim(app, org.admin, domain);
    dns.setTxt(record.name, [record.value]);
    const other = await orgClaiming(newDomain());
    expect((await verify(other.admin, domain)).statusCode).toBe(404);

    const manager = await createUser(app, org.admin, 'manager');
    expect((await verify(manager, domain)).statusCode).toBe(403);
    expect((await verify(null, domain)).statusCode).toBe(401);
    const token = await call(app, 'POST', '/api/admin/api-tokens', {
      as: org.admin,
      body: { name: 'automation', role: 'admin' },
    });
    const bearer = { authorization: `Bearer ${token.data.token}` };
    const byToken = await verify(null, domain, bearer);
    expect(byToken.statusCode).toBe(403);
    // A token may read the claims (and the record to publish), as it may read the rest of the settings.
    expect((await call(app, 'GET', '/api/admin/sso', { headers: bearer })).data.domainClaims[0].domain).toBe(domain);

    expect((await domainClaim(app, org.admin, domain)).verified).toBe(false);
    expect((await domainClaim(app, other.admin, (await settings(other.admin)).domains[0])).verified).toBe(false);
  });

  it('the first organization to verify holds the domain: the other claims are dropped and new ones refused', async () => {
    const domain = newDomain();
    const first = await orgClaiming(domain);
    const second = await orgClaiming(domain, newDomain());
    const secondRecord = (await domainClaim(app, second.admin, domain)).record;

    await verifyDomain(app, first.admin, dns, domain);
    // The second organization's claim is gone (its own other domain stays), and its log says why.
    expect((await settings(second.admin)).domains).not.toContain(domain);
    expect((await settings(second.admin)).domains).toHaveLength(1);
    expect(await actions(second.organizationId)).toContainEqual(
      expect.objectContaining({
        action: 'sso_domain_claim_dropped',
        userId: null,
        details: { domain, reason: 'verified by another organization' },
      }),
    );
    expect(await actions(first.organizationId)).toContainEqual(
      expect.objectContaining({ action: 'sso_domain_verified', details: { domain, droppedClaims: 1 } }),
    );
    // Even with its own record published, it can no longer verify nor claim the domain.
    dns.setTxt(secondRecord.name, [secondRecord.value]);
    expect((await verify(second.admin, domain)).statusCode).toBe(404);
    const again = await claim(second.admin, [domain]);
    expect(again.statusCode).toBe(409);
    expect(again.data).toMatchObject({
      code: 'domain_taken',
      error: `${domain} already signs in to another organization. Remove it from the list.`,
    });
    expect((await discover(`ana@${domain}`)).data.organization).toBe(first.slug);
  });

  it('a removed and claimed-again domain needs a new record', async () => {
    const domain = newDomain();
    const org = await orgClaiming(domain);
    const old = (await domainClaim(app, org.admin, domain)).record;
    await verifyDomain(app, org.admin, dns, domain);
    await claim(org.admin, []);
    expect((await discover(`ana@${domain}`)).statusCode).toBe(404);
    await claim(org.admin, [domain]);
    const renewed = await domainClaim(app, org.admin, domain);
    expect(renewed).toMatchObject({ verified: false });
    expect(renewed.record.value).not.toBe(old.value);
    dns.setTxt(old.name, [old.value]);
    expect((await verify(org.admin, domain)).data.code).toBe('domain_record_mismatch');
  });
});

describe('an unverified claim vouches for nothing at sign-in', () => {
  it('an address the provider did not verify is trusted only in a verified domain', async () => {
    const domain = newDomain();
    const org = await orgClaiming(domain);
    const before = `${unique('ana')}@${domain}`;
    expect(await ssoSignIn(org, before, false)).toBe('/login?sso_error=sso_unverified');
    expect(await userByEmail(before)).toBeUndefined();
    await verifyDomain(app, org.admin, dns, domain);
    const after = `${unique('bo')}@${domain}`;
    expect(await ssoSignIn(org, after, false)).toBe('/');
    expect(await userByEmail(after)).toMatchObject({ organizationId: org.organizationId, source: 'sso' });
  });
});

describe('no other organization makes accounts in a verified domain', () => {
  let owner: Org;
  let domain: string;
  let other: Org;
  beforeAll(async () => {
    domain = newDomain();
    owner = await orgClaiming(domain);
    await verifyDomain(app, owner.admin, dns, domain);
    other = await orgClaiming(newDomain());
  });

  const refusedSentence = () =>
    `${domain} is an SSO domain another organization has verified, so its addresses have accounts only there. Use another address, or ask that organization's admin to invite this person.`;

  it("through another organization's identity provider, even with a verified address", async () => {
    const email = `${unique('ana')}@${domain}`;
    expect(await ssoSignIn(other, email, true)).toBe('/login?sso_error=sso_domain_elsewhere');
    expect(await userByEmail(email)).toBeUndefined();
    // The person then signs in through the owner's provider.
    expect(await ssoSignIn(owner, email, true)).toBe('/');
    expect(await userByEmail(email)).toMatchObject({ organizationId: owner.organizationId });
  });

  it('through SCIM, on create and on a change of address', async () => {
    const { token } = await createScimToken(app, other.admin);
    const email = `${unique('scim')}@${domain}`;
    const created = await scim(app, token, 'POST', '/Users', {
      body: oktaUser({ userName: email, emails: [{ value: email, primary: true }] }),
    });
    expect(created.statusCode).toBe(409);
    expect(created.data.detail).toBe(refusedSentence());
    expect(await userByEmail(email)).toBeUndefined();

    const person = await provisionUser(app, token);
    const patched = await scim(app, token, 'PATCH', `/Users/${person.id}`, {
      body: patchOp({ op: 'replace', path: 'emails[type eq "work"].value', value: email }),
    });
    expect(patched.statusCode).toBe(409);
    const replaced = await scim(app, token, 'PUT', `/Users/${person.id}`, {
      body: oktaUser({ userName: person.userName, emails: [{ value: email, primary: true }] }),
    });
    expect(replaced.statusCode).toBe(409);
    expect(await userByEmail(email)).toBeUndefined();
    // The owner's SCIM provisions its own people.
    const ownerToken = await createScimToken(app, owner.admin);
    expect(
      (await provisionUser(app, ownerToken.token, { userName: email, emails: [{ value: email, primary: true }] }))
        .active,
    ).toBe(true);
  });

  it('through an invitation, made or accepted after the domain was verified', async () => {
    const email = `${unique('invitee')}@${domain}`;
    const res = await call(app, 'POST', '/api/organizations/invitations', {
      as: other.admin,
      body: { email, role: 'viewer' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.data).toEqual({ code: 'domain_claimed', error: refusedSentence() });

    // An invitation sent before the domain was verified no longer makes the account.
    const laterDomain = newDomain();
    const laterOwner = await orgClaiming(laterDomain);
    const early = `${unique('early')}@${laterDomain}`;
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: other.admin,
      body: { email: early, role: 'viewer' },
    });
    expect(inv.statusCode).toBe(201);
    await verifyDomain(app, laterOwner.admin, dns, laterDomain);
    const accepted = await call(app, 'POST', '/api/auth/register', {
      body: { username: unique('early'), email: early, password: 'correct-horse', invitationToken: inv.data.token },
    });
    expect(accepted.statusCode).toBe(409);
    expect(accepted.data.code).toBe('domain_claimed');
    expect(await userByEmail(early)).toBeUndefined();

    // The owner invites its own people.
    const own = await call(app, 'POST', '/api/organizations/invitations', {
      as: owner.admin,
      body: { email: `${unique('own')}@${domain}`, role: 'viewer' },
    });
    expect(own.statusCode).toBe(201);
  });

  it('through sign-up of a new organization', async () => {
    const res = await signUpAt(domain);
    expect(res.statusCode).toBe(409);
    expect(res.data).toEqual({ code: 'domain_claimed', error: refusedSentence() });
    // An unverified claim stops nobody.
    const unverified = newDomain();
    await orgClaiming(unverified);
    const free = await signUpAt(unverified);
    expect(free.statusCode).toBe(201);
    expect(sessionCookieFrom(free)).toBeTruthy();
  });
});

describe('DNS_SERVERS', () => {
  const base = { DATA_DIR: '/tmp/verity-config-test' };
  it('takes addresses with optional ports, and defaults to the system resolver', () => {
    expect(loadConfig(base).dnsServers).toBeNull();
    expect(loadConfig({ ...base, DNS_SERVERS: '' }).dnsServers).toBeNull();
    expect(loadConfig({ ...base, DNS_SERVERS: ' 127.0.0.1:5353, 9.9.9.9,[::1]:53,2001:db8::1 ' }).dnsServers).toEqual([
      '127.0.0.1:5353',
      '9.9.9.9',
      '[::1]:53',
      '2001:db8::1',
    ]);
  });

  it('stops with a sentence naming the bad entry', () => {
    for (const bad of ['dns.example', '127.0.0.1:0', '127.0.0.1:70000', '127.0.0.1,', '[127.0.0.1]:53', '300.1.1.1']) {
      expect(() => loadConfig({ ...base, DNS_SERVERS: bad }), bad).toThrow(
        /^Invalid configuration:\nDNS_SERVERS: ".*" is not an IP address with an optional port/,
      );
    }
  });
});
