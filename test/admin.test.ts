import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../server/db/schema';
import { unseal } from '../server/secret';
import { SSO_SECRET_PURPOSE } from '../server/modules/sso/settings';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createOrg, createTenant, createTenantPair, createUser, unique, type Tenant } from './helpers/factories';
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

type AuditRow = { action: string; userId: string | null; details: Record<string, unknown> | null };

async function auditRows(as: Session, query = ''): Promise<{ rows: AuditRow[]; total: string | undefined }> {
  const res = await call(app, 'GET', `/api/admin/audit-logs?limit=500${query}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return { rows: res.data, total: res.headers['x-total-count'] as string | undefined };
}

describe('GET /api/admin/audit-logs filters', () => {
  it('narrows the trail to one action and to one user, and counts what matches', async () => {
    const org = await createOrg(app);
    const viewer = await createUser(app, org.admin, 'viewer');
    const other = await createUser(app, org.admin, 'contributor');
    await call(app, 'PUT', `/api/organizations/users/${viewer.id}/role`, { as: org.admin, body: { role: 'manager' } });
    await call(app, 'PUT', `/api/organizations/users/${other.id}/role`, { as: org.admin, body: { role: 'viewer' } });
    await call(app, 'PUT', '/api/auth/profile', {
      as: viewer,
      body: { username: viewer.username, email: viewer.email, firstName: 'Vi' },
    });

    const roles = await auditRows(org.admin, '&action=user_role_changed');
    expect(roles.rows.map((r) => r.details)).toEqual([
      { from: 'contributor', to: 'viewer' },
      { from: 'viewer', to: 'manager' },
    ]);
    expect(roles.total).toBe('2');

    const byViewer = await auditRows(org.admin, `&userId=${viewer.id}`);
    expect(byViewer.rows.length).toBeGreaterThan(0);
    expect(byViewer.rows.every((r) => r.userId === viewer.id)).toBe(true);
    expect(byViewer.rows.map((r) => r.action)).toContain('user_profile_updated');
    expect(byViewer.total).toBe(String(byViewer.rows.length));

    const both = await auditRows(org.admin, `&userId=${org.admin.id}&action=user_role_changed`);
    expect(both.total).toBe('2');
    const paged = await call(app, 'GET', '/api/admin/audit-logs?action=user_role_changed&limit=1&offset=1', {
      as: org.admin,
    });
    expect(paged.data.map((r: AuditRow) => r.details)).toEqual([{ from: 'viewer', to: 'manager' }]);
    expect(paged.headers['x-total-count']).toBe('2');
    expect((await auditRows(org.admin, '&userId=system')).total).toBe('0');
  });

  it('lists the actions and the acting users to filter by', async () => {
    const org = await createOrg(app);
    const gone = await createUser(app, org.admin, 'viewer');
    await call(app, 'PUT', '/api/auth/profile', { as: gone, body: { username: gone.username, email: gone.email } });
    await call(app, 'DELETE', `/api/organizations/users/${gone.id}`, { as: org.admin });
    const res = await call(app, 'GET', '/api/admin/audit-logs/filters', { as: org.admin });
    expect(res.statusCode).toBe(200);
    expect(res.data.actions).toEqual([...res.data.actions].sort());
    expect(res.data.actions).toEqual(expect.arrayContaining(['organization_created', 'user_removed']));
    // A removed user's rows stay in the trail, so they stay findable.
    expect(res.data.users).toEqual(
      expect.arrayContaining([
        { id: org.admin.id, username: org.admin.username },
        { id: gone.id, username: gone.username },
      ]),
    );
    expect(res.data.hasSystem).toBe(false);
  });

  it('rejects bad filters', async () => {
    for (const q of ['action=DROP%20TABLE', `action=${'a'.repeat(101)}`, 'userId=abc', 'userId=']) {
      const bad = await call(app, 'GET', `/api/admin/audit-logs?${q}`, { as: t.admin });
      expect(bad.statusCode, q).toBe(400);
      expect(bad.data.code, q).toBe('validation_error');
    }
  });

  it('is for admins only and never filters into another organization', async () => {
    await expectRolePolicy(app, t, 'audit:read', () => ({ method: 'GET', url: '/api/admin/audit-logs/filters' }));
    const { a, b } = await createTenantPair(app);
    const foreign = await auditRows(a.users.admin, `&userId=${b.users.admin.id}`);
    expect(foreign.rows).toEqual([]);
    expect(foreign.total).toBe('0');
    const filters = await call(app, 'GET', '/api/admin/audit-logs/filters', { as: a.users.admin });
    const text = JSON.stringify(filters.data);
    for (const u of Object.values(b.users)) expect(text).not.toContain(u.id);
    expect(text).toContain(a.users.viewer.id);
  });
});

describe('PUT /api/organizations/current slug', () => {
  const getOrg = async (as: Session) => (await call(app, 'GET', '/api/organizations/current', { as })).data;

  it('changes the slug and records from what to what', async () => {
    const org = await createOrg(app);
    const before = await getOrg(org.admin);
    const slug = unique('acme-trust-');
    const res = await call(app, 'PUT', '/api/organizations/current', {
      as: org.admin,
      body: { name: 'Acme Inc', brandName: 'Acme Trust', slug: `  ${slug}  ` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ name: 'Acme Inc', brandName: 'Acme Trust', slug });
    expect((await getOrg(org.admin)).slug).toBe(slug);
    const { rows } = await auditRows(org.admin, '&action=organization_slug_changed');
    expect(rows).toEqual([expect.objectContaining({ userId: org.admin.id, details: { from: before.slug, to: slug } })]);
    // Saving the same slug again is no change.
    await call(app, 'PUT', '/api/organizations/current', { as: org.admin, body: { slug } });
    expect((await auditRows(org.admin, '&action=organization_slug_changed')).total).toBe('1');
  });

  it('refuses a slug another organization holds, and changes nothing', async () => {
    const { a, b } = await createTenantPair(app);
    const theirs = (await getOrg(b.users.admin)).slug;
    const before = await getOrg(a.users.admin);
    const res = await call(app, 'PUT', '/api/organizations/current', {
      as: a.users.admin,
      body: { name: 'Renamed', slug: theirs },
    });
    expect(res.statusCode).toBe(409);
    expect(res.data).toMatchObject({ code: 'conflict', error: expect.stringContaining('already taken') });
    expect(await getOrg(a.users.admin)).toEqual(before);
    expect((await getOrg(b.users.admin)).slug).toBe(theirs);
  });

  it('accepts only lower-case letters, digits and single hyphens', async () => {
    const org = await createOrg(app);
    const before = await getOrg(org.admin);
    const bad = [
      'Acme',
      'acme_sec',
      '-acme',
      'acme-',
      'acme--sec',
      'ac me',
      'a',
      'acmé',
      'acme/sec',
      'x'.repeat(64),
      '',
    ];
    for (const slug of bad) {
      const res = await call(app, 'PUT', '/api/organizations/current', { as: org.admin, body: { slug } });
      expect(res.statusCode, slug).toBe(400);
      expect(res.data, slug).toMatchObject({ code: 'validation_error', error: expect.stringMatching(/slug/i) });
    }
    expect(await getOrg(org.admin)).toEqual(before);
  });

  it('is for admins only', async () => {
    await expectRolePolicy(app, t, 'organization:update', () => ({
      method: 'PUT',
      url: '/api/organizations/current',
      body: { slug: unique('policy-') },
    }));
  });
});

describe('GET/PUT/DELETE /api/admin/sso', () => {
  const SECRET = 'client-secret-Zq8!never-shown';
  const sealedOf = async (organizationId: string) => {
    const [row] = await app.database.db
      .select({ sso: organizations.ssoConfig })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    return row?.sso ?? null;
  };

  it('starts empty', async () => {
    const org = await createOrg(app);
    const res = await call(app, 'GET', '/api/admin/sso', { as: org.admin });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ issuer: null, clientId: null, hasClientSecret: false });
  });

  it('stores the client secret sealed and never sends it back', async () => {
    const org = await createOrg(app);
    const body = { issuer: 'https://login.example.com/tenant-1', clientId: 'verity-app', clientSecret: SECRET };
    const saved = await call(app, 'PUT', '/api/admin/sso', { as: org.admin, body });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.data).toMatchObject({ issuer: body.issuer, clientId: 'verity-app', hasClientSecret: true });
    const got = await call(app, 'GET', '/api/admin/sso', { as: org.admin });
    expect(got.data).toEqual(saved.data);
    for (const res of [saved, got]) expect(res.body).not.toContain(SECRET);

    const stored = await sealedOf(org.organizationId);
    expect(stored?.clientSecretSealed).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    const sealed = stored?.clientSecretSealed ?? '';
    expect(unseal(app.config.sessionSecret ?? '', SSO_SECRET_PURPOSE, sealed, org.organizationId)).toBe(SECRET);
    // Bound to its organization and to the server secret.
    expect(() => unseal(app.config.sessionSecret ?? '', SSO_SECRET_PURPOSE, sealed, 'another-org')).toThrow();
    expect(() => unseal('another-server-secret', SSO_SECRET_PURPOSE, sealed, org.organizationId)).toThrow();

    const { rows } = await auditRows(org.admin, '&action=sso_settings_updated');
    expect(rows).toEqual([
      expect.objectContaining({
        userId: org.admin.id,
        details: expect.objectContaining({ issuer: body.issuer, clientId: 'verity-app', clientSecret: 'replaced' }),
      }),
    ]);
    expect(JSON.stringify((await auditRows(org.admin)).rows)).not.toContain(SECRET);
  });

  it('keeps the stored secret when saved without a new one, and replaces it with a new one', async () => {
    const org = await createOrg(app);
    const issuer = 'https://idp.example.org';
    await call(app, 'PUT', '/api/admin/sso', {
      as: org.admin,
      body: { issuer, clientId: 'one', clientSecret: SECRET },
    });
    const first = (await sealedOf(org.organizationId))?.clientSecretSealed;

    for (const body of [
      { issuer, clientId: 'two' },
      { issuer, clientId: 'three', clientSecret: '' },
    ]) {
      const res = await call(app, 'PUT', '/api/admin/sso', { as: org.admin, body });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.data).toMatchObject({ issuer, clientId: body.clientId, hasClientSecret: true });
      expect((await sealedOf(org.organizationId))?.clientSecretSealed).toBe(first);
    }
    const kept = await auditRows(org.admin, '&action=sso_settings_updated');
    expect(kept.rows[0]?.details).toMatchObject({ clientId: 'three', clientSecret: 'kept' });

    await call(app, 'PUT', '/api/admin/sso', {
      as: org.admin,
      body: { issuer, clientId: 'three', clientSecret: 'a-new-secret' },
    });
    const replaced = (await sealedOf(org.organizationId))?.clientSecretSealed ?? '';
    expect(replaced).not.toBe(first);
    expect(unseal(app.config.sessionSecret ?? '', SSO_SECRET_PURPOSE, replaced, org.organizationId)).toBe(
      'a-new-secret',
    );
  });

  it('refuses to keep a secret for a different issuer, and changes nothing', async () => {
    const org = await createOrg(app);
    await call(app, 'PUT', '/api/admin/sso', {
      as: org.admin,
      body: { issuer: 'https://idp-one.example.org', clientId: 'one', clientSecret: SECRET },
    });
    const before = await sealedOf(org.organizationId);
    const res = await call(app, 'PUT', '/api/admin/sso', {
      as: org.admin,
      body: { issuer: 'https://idp-two.example.org', clientId: 'one' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toContain('Enter the client secret for the new issuer');
    expect(await sealedOf(org.organizationId)).toEqual(before);
    const moved = await call(app, 'PUT', '/api/admin/sso', {
      as: org.admin,
      body: { issuer: 'https://idp-two.example.org', clientId: 'one', clientSecret: 'second-secret' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it('rejects issuers that are not https URLs and missing client ids, and changes nothing', async () => {
    const org = await createOrg(app);
    const good = { issuer: 'https://login.example.com', clientId: 'app', clientSecret: SECRET };
    await call(app, 'PUT', '/api/admin/sso', { as: org.admin, body: good });
    const before = await sealedOf(org.organizationId);
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...good, issuer: 'http://login.example.com' }, /https/],
      [{ ...good, issuer: 'login.example.com' }, /https/],
      [{ ...good, issuer: 'javascript:alert(1)' }, /https/],
      [{ ...good, issuer: 'https://login.example.com/?tenant=1' }, /query/],
      [{ ...good, issuer: 'https://login.example.com/#x' }, /fragment/],
      [{ ...good, issuer: 'https://user:pw@login.example.com' }, /https/],
      [{ ...good, issuer: '' }, /Issuer URL is required/],
      [{ clientId: 'app' }, /Issuer URL is required/],
      [{ ...good, clientId: '  ' }, /Client ID is required/],
      [{ ...good, clientId: 'x'.repeat(256) }, /Client ID/],
      [{ ...good, clientSecret: 'x'.repeat(1001) }, /Client secret/],
    ];
    for (const [body, message] of bad) {
      const res = await call(app, 'PUT', '/api/admin/sso', { as: org.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data).toMatchObject({ code: 'validation_error', error: expect.stringMatching(message) });
    }
    expect(await sealedOf(org.organizationId)).toEqual(before);
    expect((await auditRows(org.admin, '&action=sso_settings_updated')).total).toBe('1');
  });

  it('removes the configuration, secret included', async () => {
    const org = await createOrg(app);
    await call(app, 'PUT', '/api/admin/sso', {
      as: org.admin,
      body: { issuer: 'https://login.example.com', clientId: 'app', clientSecret: SECRET },
    });
    const res = await call(app, 'DELETE', '/api/admin/sso', { as: org.admin });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ issuer: null, clientId: null, hasClientSecret: false });
    expect(await sealedOf(org.organizationId)).toBeNull();
    expect((await auditRows(org.admin, '&action=sso_settings_removed')).total).toBe('1');
  });

  it('is for admins only, and one organization never sees or changes another’s', async () => {
    const body = () => ({ issuer: 'https://login.example.com', clientId: unique('client-'), clientSecret: SECRET });
    await expectRolePolicy(app, t, 'sso:manage', () => ({ method: 'GET', url: '/api/admin/sso' }));
    await expectRolePolicy(app, t, 'sso:manage', () => ({ method: 'PUT', url: '/api/admin/sso', body: body() }));
    await expectRolePolicy(app, t, 'sso:manage', () => ({ method: 'DELETE', url: '/api/admin/sso' }));
    expect((await call(app, 'PUT', '/api/admin/sso', { body: body() })).statusCode).toBe(401);

    const { a, b } = await createTenantPair(app);
    const theirs = { issuer: 'https://b.example.com', clientId: 'b-app', clientSecret: 'b-secret' };
    await call(app, 'PUT', '/api/admin/sso', { as: b.users.admin, body: theirs });
    const bStored = await sealedOf(b.organizationId);
    expect((await call(app, 'GET', '/api/admin/sso', { as: a.users.admin })).data).toMatchObject({
      issuer: null,
      clientId: null,
      hasClientSecret: false,
    });
    await call(app, 'PUT', '/api/admin/sso', {
      as: a.users.admin,
      body: { issuer: 'https://a.example.com', clientId: 'a-app', clientSecret: 'a-secret' },
    });
    await call(app, 'DELETE', '/api/admin/sso', { as: a.users.admin });
    expect(await sealedOf(b.organizationId)).toEqual(bStored);
    expect((await call(app, 'GET', '/api/admin/sso', { as: b.users.admin })).data).toMatchObject({
      issuer: theirs.issuer,
      clientId: theirs.clientId,
      hasClientSecret: true,
    });
  });
});
