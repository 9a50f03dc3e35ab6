import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, passwordResets, users } from '../server/db/schema';
import { Username } from '../common/schemas/auth';
import { newToken } from '../server/tokens';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, createUser, unique } from './helpers/factories';
import {
  createScimToken,
  ERROR_SCHEMA,
  LIST_SCHEMA,
  oktaUser,
  patchOp,
  provisionUser,
  scim,
  GROUP_SCHEMA,
  USER_SCHEMA,
} from './helpers/scim';

let app: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let token: string;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
  org = await createOrg(app);
  token = (await createScimToken(app, org.admin)).token;
});
afterAll(() => app.close());

const expectScimError = (
  res: { statusCode: number; headers: Record<string, unknown>; data: unknown },
  status: number,
  scimType?: string,
) => {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
  expect(res.data).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status), detail: expect.any(String) });
  if (scimType) expect(res.data).toMatchObject({ scimType });
};

describe('SCIM discovery', () => {
  it('describes the service provider: patch and filter supported (200 results), no bulk, bearer tokens', async () => {
    const res = await scim(app, token, 'GET', '/ServiceProviderConfig');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(res.data).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
    });
  });

  it('lists the User and Group resource types and their schemas', async () => {
    const types = await scim(app, token, 'GET', '/ResourceTypes');
    expect(types.data).toMatchObject({ schemas: [LIST_SCHEMA], totalResults: 2 });
    expect(types.data.Resources.map((t: { id: string; endpoint: string }) => [t.id, t.endpoint])).toEqual([
      ['User', '/Users'],
      ['Group', '/Groups'],
    ]);
    expect((await scim(app, token, 'GET', '/ResourceTypes/User')).data).toMatchObject({ schema: USER_SCHEMA });

    const schemas = await scim(app, token, 'GET', '/Schemas');
    expect(schemas.data.Resources.map((s: { id: string }) => s.id)).toEqual([
      USER_SCHEMA,
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
    const user = await scim(app, token, 'GET', `/Schemas/${USER_SCHEMA}`);
    expect(user.data.attributes.find((a: { name: string }) => a.name === 'userName')).toMatchObject({
      required: true,
      uniqueness: 'server',
      caseExact: false,
    });
    expectScimError(await scim(app, token, 'GET', '/Schemas/urn:nope'), 404);
  });

  it('answers an unknown SCIM address with a SCIM 404, not the web app', async () => {
    expectScimError(await scim(app, token, 'GET', '/Bulk'), 404);
  });
});

describe('SCIM authentication', () => {
  it('refuses a missing, malformed, unknown or revoked token with 401 in the SCIM Error schema', async () => {
    const res = await scim(app, null, 'GET', '/Users');
    expectScimError(res, 401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expectScimError(await scim(app, null, 'GET', '/Users', { headers: { authorization: 'Basic abc' } }), 401);
    expectScimError(await scim(app, 'vscim_unknown-token', 'GET', '/Users'), 401);

    const revoked = await createScimToken(app, org.admin);
    expect((await scim(app, revoked.token, 'GET', '/Users')).statusCode).toBe(200);
    await call(app, 'DELETE', `/api/admin/scim/tokens/${revoked.id}`, { as: org.admin });
    expectScimError(await scim(app, revoked.token, 'GET', '/Users'), 401);
  });

  it('does not take an API token or a session cookie', async () => {
    const api = await call(app, 'POST', '/api/admin/api-tokens', {
      as: org.admin,
      body: { name: 'not scim', role: 'admin' },
    });
    expectScimError(await scim(app, api.data.token, 'GET', '/Users'), 401);
    const res = await app.inject({ method: 'GET', url: '/scim/v2/Users', headers: { cookie: org.admin.cookie } });
    expect(res.statusCode).toBe(401);
  });

  it('limits callers whose token does not authenticate by address, not by the token they make up', async () => {
    const from = (remoteAddress: string, authorization?: string) =>
      app.inject({
        method: 'GET',
        url: '/scim/v2/Users',
        remoteAddress,
        headers: authorization ? { authorization } : {},
      });
    const attacker = '203.0.113.7';
    let refused = 0;
    let limited: Awaited<ReturnType<typeof from>> | undefined;
    while (!limited && refused < 500) {
      const res = await from(attacker, `Bearer vscim_${newToken()}`);
      if (res.statusCode === 429) limited = res;
      else {
        expect(res.statusCode).toBe(401);
        refused += 1;
      }
    }
    expect(limited?.statusCode).toBe(429);
    expect(refused).toBeLessThan(500);
    expect(JSON.parse(limited?.body ?? '{}')).toMatchObject({ schemas: [ERROR_SCHEMA], status: '429' });
    // No token, or a token of the wrong shape, shares the same budget.
    expect((await from(attacker)).statusCode).toBe(429);
    expect((await from(attacker, 'Bearer nonsense')).statusCode).toBe(429);
    // A good token keeps its own budget, whatever address shares it; another address is not held back.
    expect((await from(attacker, `Bearer ${token}`)).statusCode).toBe(200);
    expect((await from('198.51.100.9', `Bearer vscim_${newToken()}`)).statusCode).toBe(401);
  });

  it('limits calls per token (the rate-limit headers are sent)', async () => {
    const res = await scim(app, token, 'GET', '/ServiceProviderConfig');
    expect(Number(res.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
  });
});

describe('POST /scim/v2/Users', () => {
  it('creates a user with no password, source scim and the default role: 201, Location and meta', async () => {
    const body = oktaUser();
    const res = await scim(app, token, 'POST', '/Users', { body });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(res.headers.location).toBe(`http://verity.test/scim/v2/Users/${res.data.id}`);
    expect(res.data).toEqual({
      schemas: [USER_SCHEMA],
      id: expect.any(String),
      externalId: body.externalId,
      userName: body.userName,
      name: { formatted: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace' },
      displayName: 'Ada Lovelace',
      emails: [{ value: body.userName, primary: true, type: 'work' }],
      active: true,
      groups: [],
      meta: {
        resourceType: 'User',
        created: expect.any(String),
        lastModified: expect.any(String),
        location: res.headers.location,
      },
    });
    const [row] = await app.database.db.select().from(users).where(eq(users.id, res.data.id));
    expect(row).toMatchObject({
      passwordHash: null,
      source: 'scim',
      role: 'viewer',
      organizationId: org.organizationId,
      scimUserName: body.userName,
    });
    // Verity's own username is a valid one (no '@', which sign-in reads as an address), made from the userName.
    expect(Username.safeParse(row?.username).success).toBe(true);
    expect(body.userName.startsWith(row?.username ?? '-')).toBe(true);

    const got = await scim(app, token, 'GET', `/Users/${res.data.id}`);
    expect(got.data).toEqual(res.data);
  });

  it('takes the e-mail from the primary entry, else the first, else a userName that is an address', async () => {
    const primary = await provisionUser(app, token, {
      emails: [
        { value: `${unique('home')}@example.com`, type: 'home' },
        { value: `${unique('Work')}@Example.com`, type: 'work', primary: true },
      ],
    });
    expect(primary.emails[0]?.value).toMatch(/^work.*@example\.com$/);
    const bare = await provisionUser(app, token, { emails: undefined });
    expect(bare.emails[0]?.value).toBe(bare.userName.toLowerCase());
    const res = await scim(app, token, 'POST', '/Users', { body: oktaUser({ userName: unique('plain'), emails: [] }) });
    expectScimError(res, 400, 'invalidValue');
  });

  it('accepts application/json and attribute names in any case', async () => {
    const userName = unique('json');
    const res = await scim(app, token, 'POST', '/Users', {
      contentType: 'application/json',
      body: { SCHEMAS: [USER_SCHEMA], USERNAME: userName, Emails: [{ value: `${userName}@example.com` }] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.data.userName).toBe(userName);
  });

  it('answers 409 uniqueness for a userName or e-mail a live user holds, in any organization, in any case', async () => {
    const first = await provisionUser(app, token);
    const again = await scim(app, token, 'POST', '/Users', {
      body: oktaUser({ userName: first.userName.toUpperCase() }),
    });
    expectScimError(again, 409, 'uniqueness');
    const other = await createOrg(app);
    const otherToken = (await createScimToken(app, other.admin)).token;
    const taken = await scim(app, otherToken, 'POST', '/Users', {
      body: oktaUser({ emails: [{ value: org.admin.email, primary: true }] }),
    });
    expectScimError(taken, 409, 'uniqueness');
  });

  it('refuses bad bodies: malformed JSON, wrong schemas, missing userName, bad types, another media type', async () => {
    expectScimError(await scim(app, token, 'POST', '/Users', { body: '{"userName": ' }), 400, 'invalidSyntax');
    expectScimError(await scim(app, token, 'POST', '/Users', { body: '[]' }), 400, 'invalidSyntax');
    const wrongSchema = await scim(app, token, 'POST', '/Users', {
      body: oktaUser({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'] }),
    });
    expectScimError(wrongSchema, 400, 'invalidSyntax');
    const { userName: _drop, ...noName } = oktaUser();
    const missing = await scim(app, token, 'POST', '/Users', { body: noName });
    expectScimError(missing, 400, 'invalidValue');
    expect(missing.data.detail).toMatch(/userName is required/);
    expectScimError(await scim(app, token, 'POST', '/Users', { body: oktaUser({ active: 'maybe' }) }), 400);
    expectScimError(await scim(app, token, 'POST', '/Users', { body: oktaUser({ userName: 'a\u0001b' }) }), 400);
    expectScimError(await scim(app, token, 'POST', '/Users', { body: oktaUser({ userName: 'x'.repeat(300) }) }), 400);
    const xml = await scim(app, token, 'POST', '/Users', { body: '<user/>', contentType: 'application/xml' });
    expectScimError(xml, 415);
  });
});

describe('GET /scim/v2/Users', () => {
  it('pages with startIndex and count in a ListResponse over every user of the organization', async () => {
    const fresh = await createOrg(app);
    const t = (await createScimToken(app, fresh.admin)).token;
    for (let i = 0; i < 4; i += 1) await provisionUser(app, t);
    const all = await scim(app, t, 'GET', '/Users');
    expect(all.data).toMatchObject({ schemas: [LIST_SCHEMA], totalResults: 5, itemsPerPage: 5, startIndex: 1 });
    // The admin who signed up is a SCIM user too.
    expect(all.data.Resources[0].userName).toBe(fresh.admin.username);

    const page = await scim(app, t, 'GET', '/Users?startIndex=2&count=2');
    expect(page.data).toMatchObject({ totalResults: 5, itemsPerPage: 2, startIndex: 2 });
    expect(page.data.Resources.map((u: { id: string }) => u.id)).toEqual(
      all.data.Resources.slice(1, 3).map((u: { id: string }) => u.id),
    );
    const none = await scim(app, t, 'GET', '/Users?count=0');
    expect(none.data).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    const capped = await scim(app, t, 'GET', '/Users?count=5000&startIndex=0');
    expect(capped.data).toMatchObject({ startIndex: 1, itemsPerPage: 5 });
    expectScimError(await scim(app, t, 'GET', '/Users?count=abc'), 400, 'invalidValue');
  });

  it('filters by userName eq, without regard to case, and by externalId and e-mail', async () => {
    const user = await provisionUser(app, token);
    const byName = await scim(
      app,
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${user.userName.toUpperCase()}"`)}`,
    );
    expect(byName.data).toMatchObject({ totalResults: 1, Resources: [{ id: user.id }] });
    const [row] = await app.database.db.select().from(users).where(eq(users.id, user.id));
    const byExternal = await scim(
      app,
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`externalId eq "${row?.scimExternalId}"`)}`,
    );
    expect(byExternal.data.Resources.map((u: { id: string }) => u.id)).toEqual([user.id]);
    const byEmail = await scim(
      app,
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`emails.value eq "${user.userName}"`)}`,
    );
    expect(byEmail.data.totalResults).toBe(1);
    const both = `userName eq "${user.userName}" and emails eq "${user.userName}"`;
    expect((await scim(app, token, 'GET', `/Users?filter=${encodeURIComponent(both)}`)).data.totalResults).toBe(1);
    const nobody = await scim(app, token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "nobody-here"')}`);
    expect(nobody.data).toMatchObject({ schemas: [LIST_SCHEMA], totalResults: 0, Resources: [] });
  });

  it('refuses filters it does not support with 400 invalidFilter', async () => {
    for (const filter of [
      'userName co "a"',
      'userName eq "a" or userName eq "b"',
      'title eq "x"',
      'userName eq',
      'userName eq unquoted',
      '(userName eq "a")',
      'emails[type eq "work"]',
    ]) {
      expectScimError(
        await scim(app, token, 'GET', `/Users?filter=${encodeURIComponent(filter)}`),
        400,
        'invalidFilter',
      );
    }
  });
});

describe('NUL characters (PostgreSQL text cannot hold them)', () => {
  const list = (resource: string, filter: string) =>
    scim(app, token, 'GET', `/${resource}?filter=${encodeURIComponent(filter)}`);

  it('in a filter value: 400 invalidFilter, never a 500', async () => {
    for (const [resource, filter] of [
      ['Users', 'userName eq "a\\u0000b"'],
      ['Users', 'externalId eq "\\u0000"'],
      ['Users', 'emails.value eq "a\\u0000@example.com"'],
      ['Users', 'userName eq "a" and externalId eq "x\\u0000"'],
      ['Users', 'userName eq "a\u0000b"'],
      ['Groups', 'displayName eq "a\\u0000b"'],
      ['Groups', 'externalId eq "a\\u0000b"'],
    ] as const) {
      const res = await list(resource, filter);
      expect(res.statusCode, filter).toBe(400);
      expectScimError(res, 400, 'invalidFilter');
    }
    // Other odd text (a lone surrogate, control characters) is compared as sent and simply matches no one.
    for (const filter of ['userName eq "\\ud800"', 'externalId eq "a\\u0001b"']) {
      const res = await list('Users', filter);
      expect(res.statusCode, filter).toBe(200);
      expect(res.data.totalResults).toBe(0);
    }
  });

  it('in a body (userName, externalId, e-mail, group displayName, patch values): 400 invalidValue', async () => {
    const user = await provisionUser(app, token);
    const bodies: Array<[string, string, unknown]> = [
      ['POST', '/Users', oktaUser({ userName: 'a\u0000b@example.com' })],
      ['POST', '/Users', oktaUser({ externalId: 'x\u0000' })],
      ['POST', '/Users', oktaUser({ emails: [{ value: 'a\u0000@example.com', primary: true }] })],
      ['PUT', `/Users/${user.id}`, oktaUser({ userName: user.userName, externalId: '\u0000' })],
      ['PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'userName', value: 'a\u0000' })],
      ['PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'emails[type eq "work"].value', value: '\u0000' })],
      ['POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'a\u0000b' }],
      ['POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'ok', externalId: '\u0000' }],
    ];
    for (const [method, path, body] of bodies) {
      const res = await scim(app, token, method as 'POST', path, { body });
      expect(res.statusCode, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expectScimError(res, 400, 'invalidValue');
    }
    expect((await scim(app, token, 'GET', `/Users/${user.id}`)).data.userName).toBe(user.userName);
  });
});

describe('PUT /scim/v2/Users/:id', () => {
  it('replaces userName, names, e-mail and externalId; what it leaves out is cleared', async () => {
    const user = await provisionUser(app, token);
    const userName = `${unique('renamed')}@example.com`;
    const res = await scim(app, token, 'PUT', `/Users/${user.id}`, {
      body: {
        schemas: [USER_SCHEMA],
        userName,
        name: { givenName: 'Grace' },
        emails: [{ value: userName, primary: true }],
        active: true,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ userName, name: { givenName: 'Grace' }, emails: [{ value: userName }] });
    expect(res.data.externalId).toBeUndefined();
    expect(res.data.name.familyName).toBeUndefined();
    const taken = await scim(app, token, 'PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: org.admin.username },
    });
    expectScimError(taken, 409, 'uniqueness');
  });
});

describe('PATCH /scim/v2/Users/:id', () => {
  it('applies Okta-style operations, path-less replace included', async () => {
    const user = await provisionUser(app, token);
    const res = await scim(app, token, 'PATCH', `/Users/${user.id}`, {
      body: patchOp(
        { op: 'replace', value: { name: { givenName: 'Augusta' }, externalId: 'okta-1' } },
        { op: 'replace', path: 'name.familyName', value: 'King' },
        { op: 'add', path: 'displayName', value: 'ignored' },
      ),
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      name: { givenName: 'Augusta', familyName: 'King' },
      externalId: 'okta-1',
      active: true,
    });
    const off = await scim(app, token, 'PATCH', `/Users/${user.id}`, {
      body: patchOp({ op: 'replace', value: { active: false } }),
    });
    expect(off.data.active).toBe(false);
  });

  it('applies Entra ID-style operations: capitalised ops, string booleans, filtered e-mail paths', async () => {
    const user = await provisionUser(app, token);
    const email = `${unique('entra')}@example.com`;
    const res = await scim(app, token, 'PATCH', `/Users/${user.id}`, {
      body: patchOp(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: email },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'R&D' },
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:name.givenName', value: 'Emmy' },
        { op: 'Remove', path: 'externalId' },
        { op: 'Replace', path: 'active', value: 'False' },
      ),
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ emails: [{ value: email }], name: { givenName: 'Emmy' }, active: false });
    expect(res.data.externalId).toBeUndefined();
    const on = await scim(app, token, 'PATCH', `/Users/${user.id}`, {
      body: patchOp({ op: 'Replace', path: 'active', value: 'True' }),
    });
    expect(on.data.active).toBe(true);
  });

  it('refuses unknown and read-only paths, a remove without a path, and bad values', async () => {
    const user = await provisionUser(app, token);
    const patch = (...ops: unknown[]) => scim(app, token, 'PATCH', `/Users/${user.id}`, { body: patchOp(...ops) });
    expectScimError(await patch({ op: 'replace', path: 'favouriteColour', value: 'x' }), 400, 'invalidPath');
    expectScimError(await patch({ op: 'replace', path: 'id', value: 'x' }), 400, 'mutability');
    expectScimError(await patch({ op: 'add', path: 'groups', value: [{ value: 'x' }] }), 400, 'mutability');
    expectScimError(await patch({ op: 'remove' }), 400, 'noTarget');
    expectScimError(await patch({ op: 'remove', path: 'userName' }), 400, 'invalidValue');
    expectScimError(await patch({ op: 'replace', path: 'active', value: 'perhaps' }), 400, 'invalidValue');
    expectScimError(
      await patch({ op: 'replace', path: 'emails[type eq "work"].value', value: 'not-an-address' }),
      400,
      'invalidValue',
    );
    expectScimError(await patch({ op: 'move', path: 'active', value: false }), 400, 'invalidSyntax');
    const noOps = await scim(app, token, 'PATCH', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], Operations: [] },
    });
    expectScimError(noOps, 400, 'invalidSyntax');
    // Nothing was half-applied.
    const after = await scim(app, token, 'GET', `/Users/${user.id}`);
    expect(after.data).toMatchObject({ userName: user.userName, active: true });
  });
});

describe('password accounts', () => {
  it('keep their e-mail address: SCIM cannot point it elsewhere (a password reset would follow it)', async () => {
    const local = await createUser(app, org.admin, 'admin');
    const res = await scim(app, token, 'PATCH', `/Users/${local.id}`, {
      body: patchOp({ op: 'replace', path: 'emails[type eq "work"].value', value: `${unique('thief')}@example.com` }),
    });
    expectScimError(res, 400, 'mutability');
    // The same address in another case is no change; names still sync.
    const same = await scim(app, token, 'PUT', `/Users/${local.id}`, {
      body: {
        schemas: [USER_SCHEMA],
        userName: local.username,
        name: { givenName: 'Local' },
        emails: [{ value: local.email.toUpperCase(), primary: true }],
      },
    });
    expect(same.statusCode).toBe(200);
    expect(same.data).toMatchObject({ name: { givenName: 'Local' }, emails: [{ value: local.email }] });
  });
});

describe('managers and admins', () => {
  it('keep their e-mail address too, even without a password (a reset mailed there would make one)', async () => {
    for (const role of ['manager', 'admin', 'super_admin']) {
      const person = await provisionUser(app, token);
      await app.database.db.update(users).set({ role }).where(eq(users.id, person.id));
      const res = await scim(app, token, 'PATCH', `/Users/${person.id}`, {
        body: patchOp({ op: 'replace', path: 'emails[type eq "work"].value', value: `${unique('thief')}@example.com` }),
      });
      expectScimError(res, 400, 'mutability');
      expect(res.data.detail).toMatch(/an admin|a manager/);
      const put = await scim(app, token, 'PUT', `/Users/${person.id}`, {
        body: oktaUser({ userName: person.userName, emails: [{ value: `${unique('thief')}@example.com` }] }),
      });
      expectScimError(put, 400, 'mutability');
      // Names still sync, and the same address in another case is no change.
      const same = await scim(app, token, 'PUT', `/Users/${person.id}`, {
        body: oktaUser({
          userName: person.userName,
          name: { givenName: 'Still' },
          emails: [{ value: person.userName.toUpperCase(), primary: true }],
        }),
      });
      expect(same.statusCode).toBe(200);
      expect(same.data).toMatchObject({ name: { givenName: 'Still' }, emails: [{ value: person.userName }] });
    }
  });
});

describe('e-mail changes', () => {
  async function pendingReset(userId: string) {
    const [row] = await app.database.db
      .insert(passwordResets)
      .values({ userId, tokenHash: unique('reset-hash'), expiresAt: new Date(Date.now() + 3_600_000) })
      .returning();
    if (!row) throw new Error('no reset row');
    return row.id;
  }
  const usedAt = async (id: string) =>
    (await app.database.db.select().from(passwordResets).where(eq(passwordResets.id, id)))[0]?.usedAt;

  it('void the person’s pending password-reset links (they were mailed to the old address)', async () => {
    const person = await provisionUser(app, token);
    const bystander = await provisionUser(app, token);
    const reset = await pendingReset(person.id);
    const kept = await pendingReset(bystander.id);
    // A change that leaves the address alone leaves the link alone.
    await scim(app, token, 'PATCH', `/Users/${person.id}`, {
      body: patchOp({ op: 'replace', path: 'name.givenName', value: 'Renamed' }),
    });
    expect(await usedAt(reset)).toBeNull();
    const res = await scim(app, token, 'PATCH', `/Users/${person.id}`, {
      body: patchOp({ op: 'replace', path: 'emails[type eq "work"].value', value: `${unique('moved')}@example.com` }),
    });
    expect(res.statusCode).toBe(200);
    expect(await usedAt(reset)).toBeInstanceOf(Date);
    expect(await usedAt(kept)).toBeNull();

    const again = await pendingReset(person.id);
    const put = await scim(app, token, 'PUT', `/Users/${person.id}`, {
      body: oktaUser({ userName: person.userName, emails: [{ value: `${unique('moved')}@example.com` }] }),
    });
    expect(put.statusCode).toBe(200);
    expect(await usedAt(again)).toBeInstanceOf(Date);
  });
});

describe('deactivation', () => {
  it('ends the person’s sessions and API tokens at once; reactivation lets them sign in again', async () => {
    const person = await createUser(app, org.admin, 'admin');
    const apiToken = await call(app, 'POST', '/api/admin/api-tokens', {
      as: person,
      body: { name: 'script', role: 'viewer' },
    });
    const bearer = { authorization: `Bearer ${apiToken.data.token}` };
    expect((await call(app, 'GET', '/api/auth/me', { as: person })).statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/canonical-answers', { headers: bearer })).statusCode).toBe(200);

    const off = await scim(app, token, 'PATCH', `/Users/${person.id}`, {
      body: patchOp({ op: 'Replace', path: 'active', value: 'False' }),
    });
    expect(off.statusCode).toBe(200);
    expect(off.data.active).toBe(false);
    expect((await call(app, 'GET', '/api/auth/me', { as: person })).statusCode).toBe(401);
    expect((await call(app, 'GET', '/api/canonical-answers', { headers: bearer })).statusCode).toBe(401);
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: person.username, password: person.password },
    });
    expect(login.statusCode).toBe(401);

    const actions = await app.database.db
      .select({ action: auditLogs.action, userId: auditLogs.userId, details: auditLogs.details })
      .from(auditLogs)
      .where(and(eq(auditLogs.organizationId, org.organizationId), eq(auditLogs.entityId, person.id)));
    expect(actions).toContainEqual({
      action: 'scim_user_deactivated',
      userId: null,
      details: expect.objectContaining({ via: 'scim', tokenId: expect.any(String), sessionsEnded: 1 }),
    });
    expect(actions.map((a) => a.action)).toContain('api_tokens_revoked');

    const on = await scim(app, token, 'PATCH', `/Users/${person.id}`, {
      body: patchOp({ op: 'replace', value: { active: true } }),
    });
    expect(on.data.active).toBe(true);
    const again = await call(app, 'POST', '/api/auth/login', {
      body: { username: person.username, password: person.password },
    });
    expect(again.statusCode).toBe(200);
    // The revoked API token stays revoked.
    expect((await call(app, 'GET', '/api/canonical-answers', { headers: bearer })).statusCode).toBe(401);
  });

  it('reactivates only while the name and address are still free', async () => {
    const removed = await createUser(app, org.admin, 'viewer');
    await scim(app, token, 'PATCH', `/Users/${removed.id}`, {
      body: patchOp({ op: 'replace', path: 'active', value: false }),
    });
    const got = await scim(app, token, 'GET', `/Users/${removed.id}`);
    expect(got.data).toMatchObject({ userName: removed.username, active: false });
    // Someone else took the address meanwhile (under another userName: the deactivated one still holds its own).
    await provisionUser(app, token, { emails: [{ value: removed.email, primary: true }] });
    const back = await scim(app, token, 'PATCH', `/Users/${removed.id}`, {
      body: patchOp({ op: 'replace', path: 'active', value: true }),
    });
    expectScimError(back, 409, 'uniqueness');
  });

  it('never brings back someone an admin removed: not by PUT, not by PATCH, and their old token stays dead', async () => {
    const removed = await createUser(app, org.admin, 'admin');
    const apiToken = await call(app, 'POST', '/api/admin/api-tokens', {
      as: removed,
      body: { name: 'script', role: 'admin' },
    });
    const bearer = { authorization: `Bearer ${apiToken.data.token}` };
    await call(app, 'DELETE', `/api/organizations/users/${removed.id}`, { as: org.admin });
    const got = await scim(app, token, 'GET', `/Users/${removed.id}`);
    expect(got.data.active).toBe(false);
    // An identity provider's routine profile push, and a PATCH, both saying the person is active.
    const put = await scim(app, token, 'PUT', `/Users/${removed.id}`, {
      body: oktaUser({ userName: got.data.userName, emails: got.data.emails, active: true }),
    });
    expectScimError(put, 400, 'mutability');
    expect(put.data.detail).toMatch(/removed by an admin/);
    const patch = await scim(app, token, 'PATCH', `/Users/${removed.id}`, {
      body: patchOp({ op: 'replace', path: 'active', value: true }),
    });
    expectScimError(patch, 400, 'mutability');
    const pathless = await scim(app, token, 'PATCH', `/Users/${removed.id}`, {
      body: patchOp({ op: 'replace', value: { active: 'True' } }),
    });
    expectScimError(pathless, 400, 'mutability');
    expect((await scim(app, token, 'GET', `/Users/${removed.id}`)).data.active).toBe(false);
    expect((await call(app, 'GET', '/api/canonical-answers', { headers: bearer })).statusCode).toBe(401);
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: removed.username, password: removed.password },
    });
    expect(login.statusCode).toBe(401);
    // A push that leaves the person inactive still syncs their name.
    const named = await scim(app, token, 'PUT', `/Users/${removed.id}`, {
      body: oktaUser({
        userName: got.data.userName,
        emails: got.data.emails,
        active: false,
        name: { givenName: 'Gone' },
      }),
    });
    expect(named.statusCode).toBe(200);
    expect(named.data).toMatchObject({ active: false, name: { givenName: 'Gone' } });
  });

  it('never deactivates the organization’s last admin', async () => {
    const lone = await createOrg(app);
    const t = (await createScimToken(app, lone.admin)).token;
    const res = await scim(app, t, 'PATCH', `/Users/${lone.admin.id}`, {
      body: patchOp({ op: 'replace', path: 'active', value: false }),
    });
    expectScimError(res, 409);
    expect(res.data.detail).toMatch(/last admin/);
    expect((await call(app, 'GET', '/api/auth/me', { as: lone.admin })).statusCode).toBe(200);
  });
});

describe('DELETE /scim/v2/Users/:id', () => {
  it('deactivates and removes the user from SCIM: 204, then 404 and no longer listed', async () => {
    const person = await createUser(app, org.admin, 'contributor');
    const res = await scim(app, token, 'DELETE', `/Users/${person.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectScimError(await scim(app, token, 'GET', `/Users/${person.id}`), 404);
    expectScimError(await scim(app, token, 'DELETE', `/Users/${person.id}`), 404);
    const listed = await scim(
      app,
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${person.username}"`)}`,
    );
    expect(listed.data.totalResults).toBe(0);
    expect((await call(app, 'GET', '/api/auth/me', { as: person })).statusCode).toBe(401);
    // Its name is free for a new account.
    await provisionUser(app, token, { userName: person.username, emails: [{ value: person.email, primary: true }] });
  });
});

describe('tenant isolation', () => {
  it('another organization’s token finds none of this organization’s users: 404 on every call by id', async () => {
    const user = await provisionUser(app, token);
    const other = await createOrg(app);
    const otherToken = (await createScimToken(app, other.admin)).token;
    const body = oktaUser();
    expectScimError(await scim(app, otherToken, 'GET', `/Users/${user.id}`), 404);
    expectScimError(await scim(app, otherToken, 'PUT', `/Users/${user.id}`, { body }), 404);
    expectScimError(
      await scim(app, otherToken, 'PATCH', `/Users/${user.id}`, {
        body: patchOp({ op: 'replace', value: { active: false } }),
      }),
      404,
    );
    expectScimError(await scim(app, otherToken, 'DELETE', `/Users/${user.id}`), 404);
    expectScimError(await scim(app, otherToken, 'GET', '/Users/not-a-uuid'), 404);
    const list = await scim(
      app,
      otherToken,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`,
    );
    expect(list.data.totalResults).toBe(0);
    const mine = await scim(app, otherToken, 'GET', '/Users');
    expect(mine.data.Resources.map((u: { id: string }) => u.id)).toEqual([other.admin.id]);
    expect((await scim(app, token, 'GET', `/Users/${user.id}`)).data.active).toBe(true);
  });
});
