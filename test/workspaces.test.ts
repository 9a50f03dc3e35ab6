import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, createTenant, createTenantPair, unique, type Tenant } from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

describe('GET /api/workspaces', () => {
  it("lists the caller's workspaces, with or without their own organizationId", async () => {
    const plain = await call(app, 'GET', '/api/workspaces', { as: t.users.viewer });
    expect(plain.statusCode).toBe(200);
    const withOrg = await call(app, 'GET', `/api/workspaces?organizationId=${t.organizationId}`, {
      as: t.users.viewer,
    });
    expect(withOrg.data).toEqual(plain.data);
  });

  it('answers 404 for another organization id and 400 for a malformed one', async () => {
    const other = await createOrg(app);
    const res = await call(app, 'GET', `/api/workspaces?organizationId=${other.organizationId}`, { as: t.users.admin });
    expect(res.statusCode).toBe(404);
    expect(res.data).toMatchObject({ code: 'not_found' });
    const bad = await call(app, 'GET', '/api/workspaces?organizationId=nope', { as: t.users.admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error).toContain('Invalid organization id');
  });

  it('needs a session', async () => {
    expect((await call(app, 'GET', '/api/workspaces')).statusCode).toBe(401);
  });
});

describe('POST/PUT/DELETE /api/workspaces', () => {
  it('creates, renames and deletes a workspace, auditing each change', async () => {
    const org = await createOrg(app);
    const created = await call(app, 'POST', '/api/workspaces', {
      as: org.admin,
      body: { name: 'EMEA deals', description: 'Questionnaires from EMEA customers' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.data).toMatchObject({ name: 'EMEA deals', organizationId: org.organizationId });
    const renamed = await call(app, 'PUT', `/api/workspaces/${created.data.id}`, {
      as: org.admin,
      body: { name: 'EMEA' },
    });
    expect(renamed.data).toMatchObject({ name: 'EMEA', description: 'Questionnaires from EMEA customers' });
    const list = await call(app, 'GET', '/api/workspaces', { as: org.admin });
    expect(list.data.map((w: { name: string }) => w.name)).toEqual(['Default', 'EMEA']);
    expect((await call(app, 'DELETE', `/api/workspaces/${created.data.id}`, { as: org.admin })).statusCode).toBe(200);
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    const actions = logs.data.map((l: { action: string }) => l.action);
    expect(actions.slice(0, 3)).toEqual(['workspace_deleted', 'workspace_updated', 'workspace_created']);
  });

  it('selects the workspace of X-Workspace-Id', async () => {
    const org = await createOrg(app);
    const second = await call(app, 'POST', '/api/workspaces', { as: org.admin, body: { name: 'Second' } });
    const res = await call(app, 'GET', '/api/organizations/stats', {
      as: org.admin,
      headers: { 'x-workspace-id': second.data.id },
    });
    expect(res.statusCode).toBe(200);
  });

  it('never deletes the last workspace', async () => {
    const org = await createOrg(app);
    const res = await call(app, 'DELETE', `/api/workspaces/${org.workspaceId}`, { as: org.admin });
    expect(res.statusCode).toBe(409);
    expect(res.data.error).toMatch(/at least one workspace/);
    expect((await call(app, 'GET', '/api/workspaces', { as: org.admin })).data).toHaveLength(1);
  });

  it('rejects an empty or too long name and a malformed id, changing nothing', async () => {
    const org = await createOrg(app);
    const empty = await call(app, 'POST', '/api/workspaces', { as: org.admin, body: { name: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.data.error).toBe('Workspace name is required');
    const long = await call(app, 'POST', '/api/workspaces', { as: org.admin, body: { name: 'x'.repeat(81) } });
    expect(long.statusCode).toBe(400);
    const missing = await call(app, 'POST', '/api/workspaces', { as: org.admin, body: {} });
    expect(missing.data.error).toBe('name is required');
    const badId = await call(app, 'PUT', '/api/workspaces/not-a-uuid', { as: org.admin, body: { name: 'x' } });
    expect(badId.statusCode).toBe(400);
    const unknown = await call(app, 'PUT', `/api/workspaces/${crypto.randomUUID()}`, {
      as: org.admin,
      body: { name: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/workspaces', { as: org.admin })).data).toHaveLength(1);
  });

  it('lets admins and managers manage workspaces, not contributors or viewers', async () => {
    await expectRolePolicy(app, t, 'workspaces:manage', () => ({
      method: 'POST',
      url: '/api/workspaces',
      body: { name: unique('WS ') },
    }));
    const target = await call(app, 'POST', '/api/workspaces', { as: t.users.admin, body: { name: unique('Target ') } });
    await expectRolePolicy(app, t, 'workspaces:manage', () => ({
      method: 'PUT',
      url: `/api/workspaces/${target.data.id}`,
      body: { description: 'changed' },
    }));
    await expectRolePolicy(app, t, 'workspaces:manage', async () => {
      const victim = await call(app, 'POST', '/api/workspaces', {
        as: t.users.admin,
        body: { name: unique('Victim ') },
      });
      return { method: 'DELETE', url: `/api/workspaces/${victim.data.id}` };
    });
  });
});

describe('tenant isolation: workspaces', () => {
  it("cannot see, use, rename or delete the other organization's workspaces", async () => {
    const { a, b } = await createTenantPair(app);
    const extra = await call(app, 'POST', '/api/workspaces', { as: b.users.admin, body: { name: 'B private' } });
    expect(extra.statusCode).toBe(201);
    const list = await call(app, 'GET', '/api/workspaces', { as: a.users.admin });
    expect(list.statusCode).toBe(200);
    expect(list.data.map((w: { id: string }) => w.id)).toEqual([a.workspaceId]);
    for (const user of Object.values(a.users)) {
      const use = await call(app, 'GET', '/api/organizations/stats', {
        as: user,
        headers: { 'x-workspace-id': b.workspaceId },
      });
      expect(use.statusCode).toBe(404);
    }
    const rename = await call(app, 'PUT', `/api/workspaces/${extra.data.id}`, {
      as: a.users.admin,
      body: { name: 'Hijacked' },
    });
    expect(rename.statusCode).toBe(404);
    const del = await call(app, 'DELETE', `/api/workspaces/${extra.data.id}`, { as: a.users.admin });
    expect(del.statusCode).toBe(404);
    const bList = await call(app, 'GET', '/api/workspaces', { as: b.users.admin });
    expect(bList.data.map((w: { name: string }) => w.name)).toEqual(['Default', 'B private']);
  });
});
