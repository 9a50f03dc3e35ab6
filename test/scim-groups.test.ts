import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, organizations, users } from '../server/db/schema';
import type { SsoConfig } from '../common/schemas/sso';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, createUser, unique } from './helpers/factories';
import { createScimToken, ERROR_SCHEMA, GROUP_SCHEMA, LIST_SCHEMA, patchOp, provisionUser, scim } from './helpers/scim';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
});
afterAll(() => app.close());

/** An organization with a SCIM token and, when given, these SSO settings (group→role mappings, break-glass admin…). */
async function setup(sso?: Pick<SsoConfig, 'defaultRole' | 'groupRoles' | 'ssoRequired' | 'breakGlassUserId'>) {
  const org = await createOrg(app);
  const { token } = await createScimToken(app, org.admin);
  if (sso) {
    await app.database.db
      .update(organizations)
      .set({ ssoConfig: { issuer: 'https://idp.example.com', clientId: 'verity', clientSecretSealed: null, ...sso } })
      .where(eq(organizations.id, org.organizationId));
  }
  return { org, token };
}

/** Replaces the organization's SSO settings, as an admin saving the SSO tab would (without a sync of roles). */
async function setSso(
  organizationId: string,
  sso: Pick<SsoConfig, 'defaultRole' | 'groupRoles' | 'ssoRequired' | 'breakGlassUserId'>,
) {
  await app.database.db
    .update(organizations)
    .set({ ssoConfig: { issuer: 'https://idp.example.com', clientId: 'verity', clientSecretSealed: null, ...sso } })
    .where(eq(organizations.id, organizationId));
}

async function roleOf(userId: string) {
  const [row] = await app.database.db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return row?.role;
}

const group = (displayName: string, members: string[] = [], extra: Record<string, unknown> = {}) => ({
  schemas: [GROUP_SCHEMA],
  displayName,
  members: members.map((value) => ({ value })),
  ...extra,
});

const expectScimError = (res: { statusCode: number; data: unknown }, status: number, scimType?: string) => {
  expect(res.statusCode).toBe(status);
  expect(res.data).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType && { scimType }) });
};

describe('SCIM groups', () => {
  it('creates a group with members (201, Location, meta) and shows it on the members', async () => {
    const { token } = await setup();
    const ada = await provisionUser(app, token);
    const name = unique('Engineering ');
    const res = await scim(app, token, 'POST', '/Groups', { body: group(name, [ada.id], { externalId: 'okta-g1' }) });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe(`http://verity.test/scim/v2/Groups/${res.data.id}`);
    expect(res.data).toEqual({
      schemas: [GROUP_SCHEMA],
      id: expect.any(String),
      externalId: 'okta-g1',
      displayName: name,
      members: [{ value: ada.id, display: ada.userName, $ref: `http://verity.test/scim/v2/Users/${ada.id}` }],
      meta: {
        resourceType: 'Group',
        created: expect.any(String),
        lastModified: expect.any(String),
        location: res.headers.location,
      },
    });
    const user = await scim(app, token, 'GET', `/Users/${ada.id}`);
    expect(user.data.groups).toEqual([
      { value: res.data.id, display: name, $ref: `http://verity.test/scim/v2/Groups/${res.data.id}` },
    ]);
    expectScimError(await scim(app, token, 'POST', '/Groups', { body: group(name.toUpperCase()) }), 409, 'uniqueness');
  });

  it('lists with a displayName filter (any case), pages, and leaves members out on request', async () => {
    const { token } = await setup();
    const ada = await provisionUser(app, token);
    await scim(app, token, 'POST', '/Groups', { body: group('Alpha', [ada.id]) });
    await scim(app, token, 'POST', '/Groups', { body: group('Beta') });
    const all = await scim(app, token, 'GET', '/Groups');
    expect(all.data).toMatchObject({ schemas: [LIST_SCHEMA], totalResults: 2, itemsPerPage: 2, startIndex: 1 });
    const alpha = await scim(app, token, 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "ALPHA"')}`);
    expect(alpha.data.Resources.map((g: { displayName: string }) => g.displayName)).toEqual(['Alpha']);
    const lean = await scim(app, token, 'GET', '/Groups?excludedAttributes=members&count=1&startIndex=2');
    expect(lean.data).toMatchObject({ totalResults: 2, itemsPerPage: 1, startIndex: 2 });
    expect(lean.data.Resources[0].members).toBeUndefined();
    const one = await scim(app, token, 'GET', `/Groups/${alpha.data.Resources[0].id}?excludedAttributes=members`);
    expect(one.data.members).toBeUndefined();
    expectScimError(await scim(app, token, 'GET', '/Groups?filter=displayName%20sw%20%22A%22'), 400, 'invalidFilter');
  });

  it('patches members the ways Okta and Entra ID do, renames, and replaces with PUT', async () => {
    const { token } = await setup();
    const [a, b, c] = [
      await provisionUser(app, token),
      await provisionUser(app, token),
      await provisionUser(app, token),
    ];
    const created = await scim(app, token, 'POST', '/Groups', { body: group('Team') });
    const id: string = created.data.id;
    const members = async () =>
      ((await scim(app, token, 'GET', `/Groups/${id}`)).data.members ?? [])
        .map((m: { value: string }) => m.value)
        .sort();

    // Entra ID: add a list, remove with a value list.
    await scim(app, token, 'PATCH', `/Groups/${id}`, {
      body: patchOp({ op: 'Add', path: 'members', value: [{ value: a.id }, { value: b.id }, { value: c.id }] }),
    });
    expect(await members()).toEqual([a.id, b.id, c.id].sort());
    await scim(app, token, 'PATCH', `/Groups/${id}`, {
      body: patchOp({ op: 'Remove', path: 'members', value: [{ value: c.id }] }),
    });
    expect(await members()).toEqual([a.id, b.id].sort());
    // Okta: a filtered remove path, and a path-less replace repeating the id with the new name.
    const okta = await scim(app, token, 'PATCH', `/Groups/${id}`, {
      body: patchOp(
        { op: 'remove', path: `members[value eq "${a.id}"]` },
        { op: 'replace', value: { id, displayName: 'Team Renamed' } },
      ),
    });
    expect(okta.statusCode).toBe(200);
    expect(okta.data.displayName).toBe('Team Renamed');
    expect(await members()).toEqual([b.id]);

    const put = await scim(app, token, 'PUT', `/Groups/${id}`, { body: group('Team Final', [c.id]) });
    expect(put.data).toMatchObject({ displayName: 'Team Final', members: [{ value: c.id }] });
    await scim(app, token, 'PATCH', `/Groups/${id}`, { body: patchOp({ op: 'remove', path: 'members' }) });
    expect(await members()).toEqual([]);

    const audit = await app.database.db
      .select({ action: auditLogs.action, userId: auditLogs.userId, details: auditLogs.details })
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, id), eq(auditLogs.action, 'scim_group_updated')));
    expect(audit.length).toBeGreaterThanOrEqual(4);
    expect(audit[0]).toMatchObject({ userId: null, details: { via: 'scim', tokenId: expect.any(String) } });
  });

  it('refuses bad group bodies and patches', async () => {
    const { token, org } = await setup();
    const created = await scim(app, token, 'POST', '/Groups', { body: group(unique('G ')) });
    const id: string = created.data.id;
    const patch = (...ops: unknown[]) => scim(app, token, 'PATCH', `/Groups/${id}`, { body: patchOp(...ops) });
    expectScimError(
      await scim(app, token, 'POST', '/Groups', { body: { schemas: [GROUP_SCHEMA] } }),
      400,
      'invalidValue',
    );
    expectScimError(
      await scim(app, token, 'POST', '/Groups', { body: group('x', ['not-a-user']) }),
      400,
      'invalidValue',
    );
    expectScimError(await patch({ op: 'add', path: 'owners', value: [] }), 400, 'invalidPath');
    expectScimError(await patch({ op: 'remove', path: 'displayName' }), 400, 'invalidValue');
    expectScimError(await patch({ op: 'remove' }), 400, 'noTarget');
    expectScimError(await patch({ op: 'add', path: 'members', value: [{ value: 42 }] }), 400, 'invalidValue');
    // Another organization's user cannot be made a member here.
    const other = await setup();
    const stranger = await provisionUser(app, other.token);
    expectScimError(await patch({ op: 'add', path: 'members', value: [{ value: stranger.id }] }), 400, 'invalidValue');
    // The organization's own admin (signed up, not provisioned) can.
    expect((await patch({ op: 'add', path: 'members', value: [{ value: org.admin.id }] })).statusCode).toBe(200);
  });

  it('belongs to its organization: another token gets 404, and DELETE removes it (204, then 404)', async () => {
    const { token } = await setup();
    const other = await setup();
    const created = await scim(app, token, 'POST', '/Groups', { body: group('Mine') });
    const id: string = created.data.id;
    expectScimError(await scim(app, other.token, 'GET', `/Groups/${id}`), 404);
    expectScimError(
      await scim(app, other.token, 'PATCH', `/Groups/${id}`, { body: patchOp({ op: 'remove', path: 'members' }) }),
      404,
    );
    expectScimError(await scim(app, other.token, 'PUT', `/Groups/${id}`, { body: group('Theirs') }), 404);
    expectScimError(await scim(app, other.token, 'DELETE', `/Groups/${id}`), 404);
    expect((await scim(app, other.token, 'GET', '/Groups')).data.totalResults).toBe(0);
    expect((await scim(app, token, 'DELETE', `/Groups/${id}`)).statusCode).toBe(204);
    expectScimError(await scim(app, token, 'GET', `/Groups/${id}`), 404);
  });
});

describe('roles from group membership', () => {
  it('gives the highest mapped role of the member’s groups, the default role when none is mapped', async () => {
    const { token } = await setup({
      defaultRole: 'contributor',
      groupRoles: [
        { group: 'Verity Managers', role: 'manager' },
        { group: 'verity viewers', role: 'viewer' },
      ],
    });
    const ada = await provisionUser(app, token);
    expect(await roleOf(ada.id)).toBe('contributor');
    const viewers = await scim(app, token, 'POST', '/Groups', { body: group('Verity Viewers', [ada.id]) });
    expect(await roleOf(ada.id)).toBe('viewer');
    const managers = await scim(app, token, 'POST', '/Groups', { body: group('Unmapped yet') });
    await scim(app, token, 'PATCH', `/Groups/${managers.data.id}`, {
      body: patchOp({ op: 'add', path: 'members', value: [{ value: ada.id }] }),
    });
    expect(await roleOf(ada.id)).toBe('viewer');
    // Renaming the group to a mapped name gives its members the mapped role.
    await scim(app, token, 'PATCH', `/Groups/${managers.data.id}`, {
      body: patchOp({ op: 'replace', path: 'displayName', value: 'VERITY MANAGERS' }),
    });
    expect(await roleOf(ada.id)).toBe('manager');
    await scim(app, token, 'PATCH', `/Groups/${managers.data.id}`, {
      body: patchOp({ op: 'remove', path: `members[value eq "${ada.id}"]` }),
    });
    expect(await roleOf(ada.id)).toBe('viewer');
    await scim(app, token, 'DELETE', `/Groups/${viewers.data.id}`);
    expect(await roleOf(ada.id)).toBe('contributor');
    const changes = await app.database.db
      .select({ details: auditLogs.details })
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, ada.id), eq(auditLogs.action, 'scim_user_role_changed')))
      .orderBy(auditLogs.seq);
    expect(changes.map((c) => [c.details?.from, c.details?.to])).toEqual([
      ['contributor', 'viewer'],
      ['viewer', 'manager'],
      ['manager', 'viewer'],
      ['viewer', 'contributor'],
    ]);
  });

  it('leaves roles alone when the organization maps no groups', async () => {
    const { org, token } = await setup();
    const manager = await createUser(app, org.admin, 'manager');
    await scim(app, token, 'POST', '/Groups', { body: group('Anything', [manager.id]) });
    expect(await roleOf(manager.id)).toBe('manager');
  });

  it('never demotes the last admin: the change is skipped and audited', async () => {
    const { org, token } = await setup({ defaultRole: 'viewer', groupRoles: [{ group: 'Admins', role: 'admin' }] });
    const admins = await scim(app, token, 'POST', '/Groups', { body: group('Admins', [org.admin.id]) });
    expect(await roleOf(org.admin.id)).toBe('admin');
    await scim(app, token, 'PATCH', `/Groups/${admins.data.id}`, { body: patchOp({ op: 'remove', path: 'members' }) });
    expect(await roleOf(org.admin.id)).toBe('admin');
    const [skipped] = await app.database.db
      .select({ details: auditLogs.details })
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, org.admin.id), eq(auditLogs.action, 'scim_role_change_skipped')));
    expect(skipped?.details).toMatchObject({ via: 'scim', from: 'admin', to: 'viewer', reason: 'last_admin' });
    expect((await call(app, 'GET', '/api/auth/me', { as: org.admin })).data.user.role).toBe('admin');

    // With a second admin, the demotion goes through.
    const second = await provisionUser(app, token);
    await scim(app, token, 'PATCH', `/Groups/${admins.data.id}`, {
      body: patchOp({ op: 'add', path: 'members', value: [{ value: second.id }, { value: org.admin.id }] }),
    });
    expect(await roleOf(second.id)).toBe('admin');
    await scim(app, token, 'PATCH', `/Groups/${admins.data.id}`, {
      body: patchOp({ op: 'remove', path: 'members', value: [{ value: org.admin.id }] }),
    });
    expect(await roleOf(org.admin.id)).toBe('viewer');
  });
});

describe('reactivation', () => {
  it('gives the person the role their groups give now, not the one they left with', async () => {
    const mappings = (role: 'manager' | 'contributor') => ({
      defaultRole: 'viewer' as const,
      groupRoles: [{ group: 'Leads', role }],
    });
    const { org, token } = await setup(mappings('manager'));
    const ada = await provisionUser(app, token);
    await scim(app, token, 'POST', '/Groups', { body: group('Leads', [ada.id]) });
    expect(await roleOf(ada.id)).toBe('manager');
    const off = await scim(app, token, 'PATCH', `/Users/${ada.id}`, {
      body: patchOp({ op: 'replace', path: 'active', value: false }),
    });
    expect(off.statusCode).toBe(200);
    // While Ada was away the admins mapped the group to a lesser role: no membership changed, so no sync ran.
    await setSso(org.organizationId, mappings('contributor'));
    expect(await roleOf(ada.id)).toBe('manager');
    const on = await scim(app, token, 'PATCH', `/Users/${ada.id}`, {
      body: patchOp({ op: 'replace', path: 'active', value: true }),
    });
    expect(on.statusCode).toBe(200);
    expect(await roleOf(ada.id)).toBe('contributor');
    const [changed] = await app.database.db
      .select({ details: auditLogs.details })
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, ada.id), eq(auditLogs.action, 'scim_user_role_changed')))
      .orderBy(desc(auditLogs.seq))
      .limit(1);
    expect(changed?.details).toMatchObject({ via: 'scim', from: 'manager', to: 'contributor' });
  });
});

describe('the break-glass admin', () => {
  /** An organization requiring SSO whose break-glass admin is a second admin (so the last-admin rule is not what holds). */
  async function withBreakGlass(ssoRequired = true) {
    const { org, token } = await setup();
    const breakGlass = await createUser(app, org.admin, 'admin');
    const sso = {
      defaultRole: 'viewer' as const,
      groupRoles: [{ group: 'Staff', role: 'contributor' as const }],
      ssoRequired,
      breakGlassUserId: breakGlass.id,
    };
    await setSso(org.organizationId, sso);
    return { org, token, breakGlass };
  }

  it('keeps its role whatever its groups say: the change is skipped and audited', async () => {
    const { token, breakGlass } = await withBreakGlass();
    await scim(app, token, 'POST', '/Groups', { body: group('Staff', [breakGlass.id]) });
    expect(await roleOf(breakGlass.id)).toBe('admin');
    const [skipped] = await app.database.db
      .select({ details: auditLogs.details })
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, breakGlass.id), eq(auditLogs.action, 'scim_role_change_skipped')));
    expect(skipped?.details).toMatchObject({ via: 'scim', from: 'admin', to: 'contributor', reason: 'break_glass' });
  });

  it('stays active while SSO is required: deactivation and DELETE answer 409 naming what to do', async () => {
    const { token, breakGlass } = await withBreakGlass();
    const attempts = [
      () =>
        scim(app, token, 'PATCH', `/Users/${breakGlass.id}`, {
          body: patchOp({ op: 'replace', path: 'active', value: false }),
        }),
      () =>
        scim(app, token, 'PUT', `/Users/${breakGlass.id}`, {
          body: {
            schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
            userName: breakGlass.username,
            emails: [{ value: breakGlass.email, primary: true }],
            active: false,
          },
        }),
      () => scim(app, token, 'DELETE', `/Users/${breakGlass.id}`),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expectScimError(res, 409);
      expect(res.data.detail).toMatch(/break-glass admin/);
      expect(res.data.detail).toMatch(/SSO Settings/);
    }
    expect((await call(app, 'GET', '/api/auth/me', { as: breakGlass })).statusCode).toBe(200);
    expect((await scim(app, token, 'GET', `/Users/${breakGlass.id}`)).data.active).toBe(true);
  });

  it('may be deactivated when SSO is not required', async () => {
    const { token, breakGlass } = await withBreakGlass(false);
    const res = await scim(app, token, 'PATCH', `/Users/${breakGlass.id}`, {
      body: patchOp({ op: 'replace', path: 'active', value: false }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.active).toBe(false);
  });
});
