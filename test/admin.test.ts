import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, createTenant, createTenantPair, type Tenant } from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

describe('GET /api/admin/users', () => {
  it('lists id, username, email, role and last activity', async () => {
    const res = await call(app, 'GET', '/api/admin/users', { as: t.users.admin });
    expect(res.statusCode).toBe(200);
    expect(res.data).toHaveLength(4);
    expect(Object.keys(res.data[0]).sort()).toEqual(['email', 'id', 'lastActive', 'role', 'username']);
    expect(res.data.find((u: { id: string }) => u.id === t.users.admin.id).lastActive).toBeTruthy();
  });

  it('is for admins only', async () => {
    await expectRolePolicy(app, t, 'users:manage', () => ({ method: 'GET', url: '/api/admin/users' }));
  });
});

describe('GET /api/admin/audit-logs', () => {
  it('records every mutation, newest first, with the acting user', async () => {
    const org = await createOrg(app);
    await call(app, 'PUT', '/api/organizations/current', { as: org.admin, body: { brandName: 'Trust' } });
    const res = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(res.statusCode).toBe(200);
    expect(res.data.map((r: { action: string }) => r.action)).toEqual([
      'organization_updated',
      'user_registered',
      'workspace_created',
      'organization_created',
    ]);
    expect(res.data[0]).toMatchObject({
      userId: org.admin.id,
      username: org.admin.username,
      entityType: 'organization',
      entityId: org.organizationId,
    });
    expect(res.headers['x-total-count']).toBe('4');
  });

  it('pages with limit and offset and rejects bad paging', async () => {
    const org = await createOrg(app);
    const page = await call(app, 'GET', '/api/admin/audit-logs?limit=2&offset=1', { as: org.admin });
    expect(page.data.map((r: { action: string }) => r.action)).toEqual(['workspace_created', 'organization_created']);
    expect(page.headers['x-total-count']).toBe('3');
    for (const q of ['limit=0', 'limit=501', 'offset=-1', 'limit=abc']) {
      const bad = await call(app, 'GET', `/api/admin/audit-logs?${q}`, { as: org.admin });
      expect(bad.statusCode, q).toBe(400);
    }
  });

  it('is for admins only and never shows another organization', async () => {
    await expectRolePolicy(app, t, 'audit:read', () => ({ method: 'GET', url: '/api/admin/audit-logs' }));
    const { a, b } = await createTenantPair(app);
    const logs = await call(app, 'GET', '/api/admin/audit-logs?limit=500', { as: a.users.admin });
    expect(logs.statusCode).toBe(200);
    expect(logs.data.length).toBeGreaterThan(5);
    const text = JSON.stringify(logs.data);
    expect(text).not.toContain(b.organizationId);
    for (const u of Object.values(b.users)) expect(text).not.toContain(u.id);
  });
});

describe('audit trail of account changes', () => {
  it('writes a row for sign-in, profile, password, invitation and sign-out', async () => {
    const org = await createOrg(app);
    const admin = org.admin;
    await call(app, 'PUT', '/api/auth/profile', {
      as: admin,
      body: { username: admin.username, email: admin.email, firstName: 'A' },
    });
    await call(app, 'PUT', '/api/auth/change-password', {
      as: admin,
      body: { currentPassword: admin.password, newPassword: 'another-one', confirmPassword: 'another-one' },
    });
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: admin,
      body: { email: `audit-${Date.now()}@example.com`, role: 'viewer' },
    });
    await call(app, 'DELETE', `/api/organizations/invitations/${inv.data.id}`, { as: admin });
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: admin.username, password: 'another-one' },
    });
    const second = { cookie: `verity_session=${login.cookies.find((c) => c.name === 'verity_session')?.value}` };
    await call(app, 'POST', '/api/auth/logout', { as: second });
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: admin });
    expect(logs.data.map((r: { action: string }) => r.action).slice(0, 6)).toEqual([
      'user_logged_out',
      'user_logged_in',
      'invitation_revoked',
      'invitation_created',
      'password_changed',
      'user_profile_updated',
    ]);
  });
});
