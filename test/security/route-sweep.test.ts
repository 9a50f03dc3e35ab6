import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccess } from '../../server/http/access';
import { can } from '../../common/policies';
import { ROLES, type Role } from '../../common/roles';
import { DEFAULT_BODY_LIMIT } from '../../common/constants';
import { ASSESSMENT_FILE_MAX_BYTES } from '../../common/schemas/assessments';
import { createTestApp, type TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { multipartBody } from '../helpers/assessments';
import { createTenantPair, type TestUser } from '../helpers/factories';
import { seedTenant, snapshot, type Fixture } from './fixtures';
import { ROUTE_SPECS, type Req, type RouteSpec } from './route-specs';

/**
 * The tenant-isolation and role sweep (issue 8 §1). It walks Fastify's own route table, so a route added without a
 * line in ROUTE_SPECS fails the first test. For every route: anonymous callers get 401, every role below the policy
 * gets 403, a user (or API token) of another organization gets 404 for this tenant's ids and never a byte of its
 * data, none of it changes anything, bad input never produces a 500 or internals, bodies over the route's limit
 * get 413, and the roles the policy allows succeed.
 */

type Caller = { user?: TestUser | null; bearer?: string; workspaceId?: string };
type Route = { key: string; method: string; url: string; spec: RouteSpec; sessionOnly: boolean; bodyLimit: number };

let app: TestApp;
let A: Fixture;
let B: Fixture;
let routes: Route[];

beforeAll(async () => {
  app = await createTestApp();
  const { a, b } = await createTenantPair(app);
  A = await seedTenant(app, a);
  B = await seedTenant(app, b);
  routes = app.routeTable
    .filter((r) => r.url.startsWith('/api/'))
    .flatMap((r) => {
      const key = `${r.method} ${r.url}`;
      const spec = ROUTE_SPECS[key];
      if (!spec) return [];
      const bodyLimit = r.bodyLimit ?? DEFAULT_BODY_LIMIT;
      return [{ key, method: r.method, url: r.url, spec, sessionOnly: r.config.sessionOnly === true, bodyLimit }];
    })
    // A password change revokes its user's API tokens: the tokens' calls go first (sort is stable).
    .sort((x, y) => Number(x.spec.endsTokens === true) - Number(y.spec.endsTokens === true));
}, 180_000);
afterAll(async () => {
  await app.close();
});

async function send(method: string, req: Req, caller: Caller) {
  const headers: Record<string, string> = {};
  if (caller.user) headers.cookie = caller.user.cookie;
  if (caller.bearer) headers.authorization = `Bearer ${caller.bearer}`;
  const workspaceId = caller.workspaceId ?? caller.user?.workspaceId;
  if (workspaceId) headers['x-workspace-id'] = workspaceId;
  let body: unknown = req.body;
  if (req.multipart) {
    const mp = await multipartBody(req.multipart.fields, req.multipart.file);
    body = mp.payload;
    Object.assign(headers, mp.headers);
  } else if (req.contentType) {
    headers['content-type'] = req.contentType;
  }
  return call(app, method as 'GET', req.url, { body, headers });
}

/** The lowest role the spec admits (null: no session needed). */
function leastRole(spec: RouteSpec): Role | null {
  if (spec.access === 'public') return null;
  if (spec.access === 'signed-in') return 'viewer';
  const action = spec.access;
  const role = ROLES.find((r) => can(r, action));
  if (!role) throw new Error(`no role may ${action}`);
  return role;
}

function userOf(f: Fixture, role: Role | null): TestUser | null {
  return role ? f.users[role] : null;
}

/** Strings of tenant A found in a response meant for someone else. */
function leaksOf(body: string): string[] {
  return A.markers.filter((m) => m.length >= 6 && body.includes(m));
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The same path (query aside): a destructive call there would remove the fixture's target. */
function sameTarget(a: string, b: string): boolean {
  return a.split('?')[0] === b.split('?')[0];
}

/** Every query value with a NUL byte appended (or a `q` and `search` of NUL when there is no query). */
function withNulQuery(url: string): string {
  const [path, query] = url.split('?');
  if (!query) return `${path}?q=%00&search=%00`;
  const params = new URLSearchParams(query);
  for (const [k, v] of [...params]) params.set(k, `${v}\u0000`);
  return `${path}?${params.toString()}`;
}

/** The body with a NUL character appended to every string in it. */
function withNulStrings(value: unknown): unknown {
  if (typeof value === 'string') return `${value}\u0000`;
  if (Array.isArray(value)) return value.map(withNulStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNulStrings(v)]));
  }
  return value;
}

const INTERNALS =
  /\bat \S+ \(|\.ts:\d+|node_modules|\bSELECT\b|\bINSERT INTO\b|\brelation "|syntax error|violates .* constraint/i;

describe('the sweep covers every route', () => {
  it('has a spec for each route in the route table, and a route for each spec', () => {
    const registered = app.routeTable.filter((r) => r.url.startsWith('/api/')).map((r) => `${r.method} ${r.url}`);
    const missing = registered.filter((k) => !ROUTE_SPECS[k]);
    const stale = Object.keys(ROUTE_SPECS).filter((k) => !registered.includes(k));
    expect(missing, 'routes without a line in test/security/route-specs.ts').toEqual([]);
    expect(stale, 'specs of routes that no longer exist').toEqual([]);
    expect(routes.length).toBe(registered.length);
  });

  it('every route declares its access and its spec agrees', () => {
    const failures = app.routeTable
      .filter((r) => r.url.startsWith('/api/'))
      .flatMap((r) => {
        const key = `${r.method} ${r.url}`;
        const declared = r.config.access;
        const expected = ROUTE_SPECS[key]?.access;
        if (declared === undefined) return [`${key} declares no config.access`];
        return expected !== undefined && declared !== expected
          ? [`${key} declares ${declared}; spec: ${expected}`]
          : [];
      });
    expect(failures).toEqual([]);
  });

  it('refuses to register an /api route that declares no access', async () => {
    const bare = Fastify();
    registerAccess(bare);
    await expect(
      bare.register(async (child) => {
        child.get('/api/undeclared', async () => ({}));
      }),
    ).rejects.toThrow(/declares no config.access/);
  });
});

describe('isolation and roles', () => {
  let before: string;
  beforeAll(async () => {
    before = await snapshot(app, A);
  });

  it('anonymous callers get 401 on every route that is not public', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.spec.access !== 'public')) {
      const res = await send(r.method, await r.spec.request(A, userOf(A, leastRole(r.spec)), app), {});
      if (res.statusCode !== 401 || res.data?.code !== 'unauthenticated') {
        failures.push(`${r.key} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('every role below the policy gets 403, by session and by API token', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const r of routes) {
      const access = r.spec.access;
      if (access === 'public' || access === 'signed-in') continue;
      for (const role of ROLES.filter((x) => !can(x, access))) {
        const res = await send(r.method, await r.spec.request(A, A.users[role], app), { user: A.users[role] });
        checked += 1;
        if (res.statusCode !== 403 || res.data?.code !== 'forbidden') {
          failures.push(`${r.key} as ${role} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
      if (!can('viewer', access)) {
        const res = await send(r.method, await r.spec.request(A, A.users.viewer, app), {
          bearer: A.viewerApiToken,
          workspaceId: A.ids.workspace,
        });
        checked += 1;
        if (res.statusCode !== 403) failures.push(`${r.key} with a viewer token → ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('checks the role before the body: a role below the policy sending bad input gets 403, not 400', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const r of routes) {
      const access = r.spec.access;
      if (access === 'public' || access === 'signed-in') continue;
      const declared = app.routeTable.find((x) => `${x.method} ${x.url}` === r.key)?.config.access;
      if (declared !== access) {
        failures.push(`${r.key} declares config.access ${String(declared)}; its spec says ${access}`);
        continue;
      }
      for (const role of ROLES.filter((x) => !can(x, access))) {
        const valid = await r.spec.request(A, A.users[role], app);
        const bad: Req[] = [{ url: valid.url.replace(UUID, 'not-an-id'), body: valid.body }];
        if (r.method !== 'GET' && r.method !== 'DELETE') {
          bad.push(
            { url: valid.url, body: [1, 2, 3] },
            { url: valid.url, body: '{"unterminated": ', contentType: 'application/json' },
          );
        }
        for (const req of bad) {
          const res = await send(r.method, req, { user: A.users[role] });
          checked += 1;
          if (res.statusCode !== 403 || res.data?.code !== 'forbidden') {
            failures.push(`${r.key} as ${role} ${JSON.stringify(req.body)?.slice(0, 30)} → ${res.statusCode}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('API tokens get 403 on session-only routes (passwords, sessions, tokens)', async () => {
    const failures: string[] = [];
    const sessionOnly = routes.filter((r) => r.sessionOnly);
    for (const r of sessionOnly) {
      const res = await send(r.method, await r.spec.request(A, A.users.admin, app), { bearer: A.apiToken });
      if (res.statusCode !== 403) failures.push(`${r.key} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(sessionOnly.length).toBeGreaterThanOrEqual(7);
  });

  it("another organization's admin gets 404 for this tenant's ids and never any of its data", async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.spec.access !== 'public')) {
      const callers: Array<[string, Caller]> = [
        ['B admin', { user: B.users.admin }],
        ['B admin naming A workspace', { user: B.users.admin, workspaceId: A.ids.workspace }],
        ...(r.sessionOnly
          ? []
          : [['B admin token', { bearer: B.apiToken, workspaceId: B.ids.workspace }] as [string, Caller]]),
      ];
      for (const [who, caller] of callers) {
        const res = await send(r.method, await r.spec.request(A, B.users.admin, app), caller);
        const leaks = leaksOf(res.body);
        if (leaks.length > 0) failures.push(`${r.key} as ${who} leaked ${leaks.join(', ')}`);
        // Naming A's workspace alone: routes that ignore the header answer for B; the leak check and the snapshot
        // below prove nothing of A was read or written.
        if (r.spec.ownsIds && res.statusCode !== 404) {
          failures.push(`${r.key} as ${who} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('none of those attempts changed anything of the tenant', async () => {
    expect(await snapshot(app, A)).toBe(before);
  });
});

async function expectPermitted(list: Route[]) {
  const failures: string[] = [];
  for (const r of list) {
    const user = userOf(A, leastRole(r.spec));
    const res = await send(r.method, await r.spec.request(A, user, app), { user });
    const ok = r.spec.ok ? res.statusCode === r.spec.ok : res.statusCode >= 200 && res.statusCode < 300;
    if (!ok) failures.push(`${r.key} as ${user?.role ?? 'anonymous'} → ${res.statusCode} ${res.body.slice(0, 160)}`);
  }
  expect(failures).toEqual([]);
}

describe('permitted callers', () => {
  it('the least role the policy allows succeeds on every route that keeps its target', async () => {
    await expectPermitted(routes.filter((r) => !r.spec.destroys));
  });
});

describe('bad input', () => {
  it('never produces a 500, a stack trace or SQL: always the {error, code} shape', async () => {
    const failures: string[] = [];
    const bodies: unknown[] = [{}, [1, 2, 3], 'text'];
    for (const r of routes) {
      if (r.key === 'PUT /api/objects/local/*') continue;
      const caller: Caller = r.spec.access === 'public' ? {} : { user: A.users.admin };
      const valid = await r.spec.request(A, A.users.admin, app);
      const urls = [
        valid.url.replace(UUID, 'not-an-id'),
        valid.url.replace(UUID, '00000000-0000-4000-8000-000000000000'),
        withNulQuery(valid.url),
      ];
      const variants: Req[] = urls.map((url) => ({ url, body: valid.body, multipart: valid.multipart }));
      if (r.method !== 'GET') {
        variants.push(
          ...bodies.map((body) => ({ url: valid.url, body })),
          ...(valid.body !== undefined && !Buffer.isBuffer(valid.body)
            ? [{ url: valid.url, body: withNulStrings(valid.body) }]
            : []),
          { url: valid.url, body: '{"unterminated": ', contentType: 'application/json' },
          { url: valid.url, body: '{"__proto__": {"role": "admin"}}', contentType: 'application/json' },
          {
            url: valid.url,
            body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
            contentType: 'application/json',
          },
        );
      }
      for (const v of variants) {
        // Logout would end the admin's session; a destructive call on the target's path would remove it.
        if (r.key === 'POST /api/auth/logout' || (r.spec.destroys && sameTarget(v.url, valid.url))) continue;
        const res = await send(r.method, v, caller);
        const shaped =
          res.statusCode < 400 || (typeof res.data?.error === 'string' && typeof res.data?.code === 'string');
        if (res.statusCode >= 500 || !shaped || INTERNALS.test(res.body)) {
          failures.push(
            `${r.key} ${JSON.stringify(v.body)?.slice(0, 40)} → ${res.statusCode} ${res.body.slice(0, 160)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("a body over the route's limit gets 413 before it is parsed", async () => {
    const failures: string[] = [];
    for (const r of routes) {
      if (r.method === 'GET' || r.method === 'DELETE' || r.key === 'PUT /api/objects/local/*') continue;
      const caller: Caller = r.spec.access === 'public' ? {} : { user: A.users.admin };
      const valid = await r.spec.request(A, A.users.admin, app);
      let res;
      if (valid.multipart) {
        const file = { name: 'big.csv', bytes: `Question\n${'x'.repeat(ASSESSMENT_FILE_MAX_BYTES + 1)}` };
        res = await send(r.method, { url: valid.url, multipart: { fields: valid.multipart.fields, file } }, caller);
      } else {
        const body = `{"pad":"${'x'.repeat(r.bodyLimit)}"}`;
        res = await send(r.method, { url: valid.url, body, contentType: 'application/json' }, caller);
      }
      if (res.statusCode !== 413 || typeof res.data?.error !== 'string') {
        failures.push(`${r.key} (limit ${r.bodyLimit}) → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('permitted callers, destructive calls last', () => {
  it('the least role the policy allows succeeds on every route that removes its target', async () => {
    await expectPermitted(routes.filter((r) => r.spec.destroys));
  });
});
