import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { scimGroups, users } from '../../server/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { createOrg, unique } from '../helpers/factories';
import { newToken } from '../../server/tokens';
import { SCIM_TOKEN_PREFIX } from '../../common/schemas/scim';
import { API_TOKEN_PREFIX } from '../../common/schemas/api-tokens';
import { createScimToken, GROUP_SCHEMA, oktaUser, patchOp, provisionUser } from '../helpers/scim';

/**
 * The routes outside /api: SCIM (`/scim/v2`, its own bearer tokens) and MCP (`/mcp`, API tokens). They do not go
 * through the /api access hooks, so this sweep holds them to the same promises: it walks the route table (a new route
 * here without a line below fails), and for every route a caller without the right kind of token gets 401 — no
 * token, a browser session, a malformed header, an unknown token of either kind, the other surface's token, a revoked
 * token — another organization's token gets 404 for this organization's ids and none of its data, and the right
 * token succeeds.
 */

type Tenant = {
  admin: Awaited<ReturnType<typeof createOrg>>['admin'];
  organizationId: string;
  scimToken: string;
  apiToken: string;
  userId: string;
  groupId: string;
  marker: string;
};

type Surface = 'scim' | 'mcp';
type Spec = {
  surface: Surface;
  /** The request names this tenant's user or group: another organization's token must get 404. */
  ownsIds?: boolean;
  /** Answers everyone the same refusal (`ok`), so there is no caller to check. */
  open?: boolean;
  /** Consumes its target: run after the others. */
  destroys?: boolean;
  ok?: number;
  request: (t: Tenant) => { url: string; body?: unknown };
};

const MCP_INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sweep', version: '1' } },
};

const SPECS: Record<string, Spec> = {
  'GET /scim/v2/ServiceProviderConfig': { surface: 'scim', request: () => ({ url: '/scim/v2/ServiceProviderConfig' }) },
  'GET /scim/v2/ResourceTypes': { surface: 'scim', request: () => ({ url: '/scim/v2/ResourceTypes' }) },
  'GET /scim/v2/ResourceTypes/:id': { surface: 'scim', request: () => ({ url: '/scim/v2/ResourceTypes/User' }) },
  'GET /scim/v2/Schemas': { surface: 'scim', request: () => ({ url: '/scim/v2/Schemas' }) },
  'GET /scim/v2/Schemas/:id': {
    surface: 'scim',
    request: () => ({ url: '/scim/v2/Schemas/urn:ietf:params:scim:schemas:core:2.0:User' }),
  },
  'GET /scim/v2/Users': { surface: 'scim', request: () => ({ url: '/scim/v2/Users' }) },
  'GET /scim/v2/Users/:id': { surface: 'scim', ownsIds: true, request: (t) => ({ url: `/scim/v2/Users/${t.userId}` }) },
  'POST /scim/v2/Users': { surface: 'scim', ok: 201, request: () => ({ url: '/scim/v2/Users', body: oktaUser() }) },
  'PUT /scim/v2/Users/:id': {
    surface: 'scim',
    ownsIds: true,
    request: (t) => ({
      url: `/scim/v2/Users/${t.userId}`,
      body: oktaUser({ userName: `${t.marker.toLowerCase()}@example.com`, emails: undefined, externalId: undefined }),
    }),
  },
  'PATCH /scim/v2/Users/:id': {
    surface: 'scim',
    ownsIds: true,
    request: (t) => ({
      url: `/scim/v2/Users/${t.userId}`,
      body: patchOp({ op: 'replace', path: 'name.givenName', value: 'Grace' }),
    }),
  },
  'DELETE /scim/v2/Users/:id': {
    surface: 'scim',
    ownsIds: true,
    destroys: true,
    ok: 204,
    request: (t) => ({ url: `/scim/v2/Users/${t.userId}` }),
  },
  'GET /scim/v2/Groups': { surface: 'scim', request: () => ({ url: '/scim/v2/Groups' }) },
  'GET /scim/v2/Groups/:id': {
    surface: 'scim',
    ownsIds: true,
    request: (t) => ({ url: `/scim/v2/Groups/${t.groupId}` }),
  },
  'POST /scim/v2/Groups': {
    surface: 'scim',
    ok: 201,
    request: () => ({ url: '/scim/v2/Groups', body: { schemas: [GROUP_SCHEMA], displayName: unique('Group ') } }),
  },
  'PUT /scim/v2/Groups/:id': {
    surface: 'scim',
    ownsIds: true,
    request: (t) => ({
      url: `/scim/v2/Groups/${t.groupId}`,
      body: { schemas: [GROUP_SCHEMA], displayName: `${t.marker} group`, members: [{ value: t.userId }] },
    }),
  },
  'PATCH /scim/v2/Groups/:id': {
    surface: 'scim',
    ownsIds: true,
    request: (t) => ({
      url: `/scim/v2/Groups/${t.groupId}`,
      body: patchOp({ op: 'add', path: 'members', value: [{ value: t.userId }] }),
    }),
  },
  'DELETE /scim/v2/Groups/:id': {
    surface: 'scim',
    ownsIds: true,
    destroys: true,
    ok: 204,
    request: (t) => ({ url: `/scim/v2/Groups/${t.groupId}` }),
  },
  'POST /mcp': { surface: 'mcp', request: () => ({ url: '/mcp', body: MCP_INIT }) },
  // Nothing to reach: stateless MCP answers 405 to anyone (no stream to open, no session to end).
  'GET /mcp': { surface: 'mcp', ok: 405, open: true, request: () => ({ url: '/mcp' }) },
  'DELETE /mcp': { surface: 'mcp', ok: 405, open: true, request: () => ({ url: '/mcp' }) },
};

let app: TestApp;
let A: Tenant;
let B: Tenant;

async function seed(): Promise<Tenant> {
  const org = await createOrg(app);
  const { token: scimToken } = await createScimToken(app, org.admin);
  const api = await call(app, 'POST', '/api/admin/api-tokens', {
    as: org.admin,
    body: { name: 'sweep', role: 'admin' },
  });
  if (api.statusCode !== 201) throw new Error(`API token: ${api.statusCode} ${api.body}`);
  const marker = unique('Wombat');
  const user = await provisionUser(app, scimToken, { name: { givenName: marker, familyName: 'Sweep' } });
  const [group] = await app.database.db
    .insert(scimGroups)
    .values({ organizationId: org.organizationId, displayName: `${marker} team` })
    .returning({ id: scimGroups.id });
  return {
    admin: org.admin,
    organizationId: org.organizationId,
    scimToken,
    apiToken: api.data.token as string,
    userId: user.id,
    groupId: group?.id ?? '',
    marker,
  };
}

beforeAll(async () => {
  app = await createTestApp({ worker: false });
  A = await seed();
  B = await seed();
}, 120_000);
afterAll(async () => {
  await app.close();
});

type Caller = { authorization?: string; cookie?: string };

/**
 * Each call comes from its own address: SCIM counts calls whose token does not authenticate per address, and this
 * sweep sends more of them than one address may (that limit has its own test in test/scim.test.ts).
 */
let calls = 0;
const nextAddress = () => {
  calls += 1;
  return `10.${(calls >> 16) & 255}.${(calls >> 8) & 255}.${calls & 255}`;
};

async function send(key: string, t: Tenant, caller: Caller) {
  const spec = SPECS[key];
  if (!spec) throw new Error(`no spec for ${key}`);
  const [method] = key.split(' ');
  const req = spec.request(t);
  const headers: Record<string, string> = { ...caller } as Record<string, string>;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  if (spec.surface === 'mcp') headers.accept = 'application/json, text/event-stream';
  return app.inject({
    method: method as 'GET',
    url: req.url,
    remoteAddress: nextAddress(),
    headers,
    ...(req.body !== undefined && { payload: JSON.stringify(req.body) }),
  });
}

const tokenFor = (t: Tenant, surface: Surface) => `Bearer ${surface === 'scim' ? t.scimToken : t.apiToken}`;
const otherKindFor = (t: Tenant, surface: Surface) => `Bearer ${surface === 'scim' ? t.apiToken : t.scimToken}`;

/** A's people and groups as stored: nothing another organization sends may change them. */
async function snapshotOf(t: Tenant) {
  const people = await app.database.db
    .select()
    .from(users)
    .where(eq(users.organizationId, t.organizationId))
    .orderBy(users.id);
  const groups = await app.database.db
    .select()
    .from(scimGroups)
    .where(eq(scimGroups.organizationId, t.organizationId))
    .orderBy(scimGroups.id);
  return JSON.stringify({ people, groups });
}

describe('routes outside /api', () => {
  it('each has a line here, and each line a route', () => {
    // The web app's files (one route each when the app is built) are static and public by design.
    const webFile = (url: string) =>
      url === '/*' || url === '/' || fs.existsSync(path.join(app.config.webDistDir, decodeURIComponent(url)));
    const registered = app.routeTable
      .filter((r) => !r.url.startsWith('/api/') && r.url !== '/api' && !webFile(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(registered.filter((k) => !SPECS[k])).toEqual([]);
    expect(Object.keys(SPECS).filter((k) => !registered.includes(k))).toEqual([]);
  });

  it('refuse every caller without the right kind of token (401)', async () => {
    const failures: string[] = [];
    for (const [key, spec] of Object.entries(SPECS)) {
      if (spec.open) continue;
      const callers: Array<[string, Caller]> = [
        ['nobody', {}],
        ['a browser session', { cookie: A.admin.cookie }],
        ['a malformed header', { authorization: 'Basic dXNlcjpwYXNz' }],
        // Well-formed tokens of each kind that match nothing, so each surface's lookup runs (not just its prefix check).
        ['an unknown SCIM token', { authorization: `Bearer ${SCIM_TOKEN_PREFIX}${newToken()}` }],
        ['an unknown API token', { authorization: `Bearer ${API_TOKEN_PREFIX}${newToken()}` }],
        ["the other surface's token", { authorization: otherKindFor(A, spec.surface) }],
      ];
      for (const [who, caller] of callers) {
        const res = await send(key, A, caller);
        if (res.statusCode !== 401) failures.push(`${key} as ${who}: ${res.statusCode}`);
        if (A.marker && res.body.includes(A.marker)) failures.push(`${key} as ${who} leaked data`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("give another organization's token 404 for this organization's ids, its data never, and change nothing", async () => {
    const before = await snapshotOf(A);
    const failures: string[] = [];
    for (const [key, spec] of Object.entries(SPECS)) {
      const res = await send(key, A, { authorization: tokenFor(B, spec.surface) });
      if (spec.ownsIds && res.statusCode !== 404) failures.push(`${key}: ${res.statusCode}`);
      if (res.body.includes(A.marker)) failures.push(`${key} leaked A's data`);
    }
    expect(failures).toEqual([]);
    expect(await snapshotOf(A)).toBe(before);
  });

  it('answer the right token (destructive calls last)', async () => {
    const ordered = Object.entries(SPECS).sort(
      ([, x], [, y]) => Number(x.destroys === true) - Number(y.destroys === true),
    );
    const failures: string[] = [];
    for (const [key, spec] of ordered) {
      const res = await send(key, A, { authorization: tokenFor(A, spec.surface) });
      const expected = spec.ok ?? 200;
      if (res.statusCode !== expected)
        failures.push(`${key}: ${res.statusCode} (expected ${expected}) ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuse a revoked token', async () => {
    const t = await seed();
    const list = await call(app, 'GET', '/api/admin/scim', { as: t.admin });
    for (const token of list.data.tokens as Array<{ id: string }>) {
      expect((await call(app, 'DELETE', `/api/admin/scim/tokens/${token.id}`, { as: t.admin })).statusCode).toBe(200);
    }
    const apiTokens = await call(app, 'GET', '/api/admin/api-tokens', { as: t.admin });
    for (const token of apiTokens.data as Array<{ id: string }>) {
      await call(app, 'DELETE', `/api/admin/api-tokens/${token.id}`, { as: t.admin });
    }
    for (const [key, spec] of Object.entries(SPECS)) {
      if (spec.open) continue;
      expect((await send(key, t, { authorization: tokenFor(t, spec.surface) })).statusCode, key).toBe(401);
    }
  });

  it('answer unknown addresses under them, and the metadata clients probe, in JSON (never the web page)', async () => {
    for (const url of [
      '/scim/v2/Nope',
      '/mcp/extra',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
    ]) {
      const res = await app.inject({ method: 'GET', url, remoteAddress: nextAddress() });
      // Under /scim the token is asked for first (401), as for any SCIM address.
      expect([401, 404], url).toContain(res.statusCode);
      expect(res.headers['content-type'], url).toMatch(/application\/(scim\+)?json/);
    }
  });
});
