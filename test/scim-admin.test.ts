import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimTokens } from '../server/db/schema';
import { hashToken } from '../server/tokens';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createTenant, createTenantPair, type Tenant } from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';
import { scim } from './helpers/scim';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
  t = await createTenant(app);
});
afterAll(() => app.close());

describe('SCIM tokens in the admin API', () => {
  it('shows the base URL and the live tokens; a new token is shown once and kept only as a hash', async () => {
    const empty = await call(app, 'GET', '/api/admin/scim', { as: t.users.admin });
    expect(empty.statusCode).toBe(200);
    expect(empty.data).toEqual({ baseUrl: 'http://verity.test/scim/v2', tokens: [] });

    const created = await call(app, 'POST', '/api/admin/scim/tokens', { as: t.users.admin });
    expect(created.statusCode).toBe(201);
    expect(created.data.token).toMatch(/^vscim_[A-Za-z0-9_-]{40,}$/);
    expect(created.data.view).toEqual({
      id: expect.any(String),
      prefix: created.data.token.slice(0, 12),
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const [row] = await app.database.db.select().from(scimTokens).where(eq(scimTokens.id, created.data.view.id));
    expect(row?.tokenHash).toBe(hashToken(created.data.token));
    expect(JSON.stringify(row)).not.toContain(created.data.token);

    await scim(app, created.data.token, 'GET', '/ServiceProviderConfig');
    const listed = await call(app, 'GET', '/api/admin/scim', { as: t.users.admin });
    expect(listed.data.tokens).toEqual([{ ...created.data.view, lastUsedAt: expect.any(String) }]);
    expect(listed.body).not.toContain(created.data.token);

    const revoked = await call(app, 'DELETE', `/api/admin/scim/tokens/${created.data.view.id}`, { as: t.users.admin });
    expect(revoked.statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/admin/scim', { as: t.users.admin })).data.tokens).toEqual([]);

    const audit = await call(app, 'GET', '/api/admin/audit-logs?limit=5', { as: t.users.admin });
    expect(audit.data.map((r: { action: string }) => r.action).slice(0, 2)).toEqual([
      'scim_token_revoked',
      'scim_token_created',
    ]);
    expect(audit.data[0]).toMatchObject({ userId: t.users.admin.id, entityType: 'scim_token' });
  });

  it('is for admins only (sso:manage): viewers, contributors and managers get 403', async () => {
    await expectRolePolicy(app, t, 'sso:manage', () => ({ method: 'GET', url: '/api/admin/scim' }));
    await expectRolePolicy(app, t, 'sso:manage', () => ({ method: 'POST', url: '/api/admin/scim/tokens' }));
    await expectRolePolicy(app, t, 'sso:manage', async () => {
      const made = await call(app, 'POST', '/api/admin/scim/tokens', { as: t.users.admin });
      return { method: 'DELETE', url: `/api/admin/scim/tokens/${made.data.view.id}` };
    });
  });

  it('takes no API token for minting or revoking, and another organization’s token id is not found', async () => {
    const { a, b } = await createTenantPair(app);
    const apiToken = await call(app, 'POST', '/api/admin/api-tokens', {
      as: a.users.admin,
      body: { name: 'script', role: 'admin' },
    });
    const bearer = { authorization: `Bearer ${apiToken.data.token}` };
    expect((await call(app, 'POST', '/api/admin/scim/tokens', { headers: bearer })).statusCode).toBe(403);
    const theirs = await call(app, 'POST', '/api/admin/scim/tokens', { as: b.users.admin });
    const cross = await call(app, 'DELETE', `/api/admin/scim/tokens/${theirs.data.view.id}`, { as: a.users.admin });
    expect(cross.statusCode).toBe(404);
    expect((await scim(app, theirs.data.token, 'GET', '/Users')).statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/admin/scim', { as: a.users.admin })).data.tokens).toEqual([]);
    const bad = await call(app, 'DELETE', '/api/admin/scim/tokens/not-an-id', { as: a.users.admin });
    expect(bad.statusCode).toBe(400);
  });
});
