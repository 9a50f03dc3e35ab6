import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, users } from '../server/db/schema';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import {
  createExpiredInvitation,
  createOrg,
  createTenant,
  createTenantPair,
  createUser,
  lastMailTo,
  unique,
  type Tenant,
  type TestUser,
} from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';
import { settledDocument, uploadDocument } from './helpers/documents';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

const brandProfile = {
  tone: 'friendly',
  languageRules: 'Use British spelling.',
  boilerplate: 'Acme protects your data.',
  disclaimers: 'Answers are provided for information only.',
  bannedTokens: ['guarantee', 'never'],
};

describe('GET/PUT /api/organizations/current', () => {
  it('lets an admin change name, brand name and brand profile', async () => {
    const { admin } = await createOrg(app);
    const res = await call(app, 'PUT', '/api/organizations/current', {
      as: admin,
      body: { name: 'Renamed Org', brandName: 'Acme Trust', brandProfile },
    });
    expect(res.statusCode).toBe(200);
    const got = await call(app, 'GET', '/api/organizations/current', { as: admin });
    expect(got.data).toMatchObject({ name: 'Renamed Org', brandName: 'Acme Trust', brandProfile });
  });

  it('rejects a tone outside the list and an empty name, changing nothing', async () => {
    const { admin } = await createOrg(app);
    const before = (await call(app, 'GET', '/api/organizations/current', { as: admin })).data;
    const tone = await call(app, 'PUT', '/api/organizations/current', {
      as: admin,
      body: { brandProfile: { ...brandProfile, tone: 'sarcastic' } },
    });
    expect(tone.statusCode).toBe(400);
    expect(tone.data.error).toMatch(/Tone must be one of: professional, friendly/);
    const name = await call(app, 'PUT', '/api/organizations/current', { as: admin, body: { name: '   ' } });
    expect(name.statusCode).toBe(400);
    expect(name.data.error).toContain('Organization name is required');
    expect((await call(app, 'GET', '/api/organizations/current', { as: admin })).data).toEqual(before);
  });

  it('rejects a 10,000-character disclaimer and other over-long or malformed brand profiles, changing nothing', async () => {
    const { admin } = await createOrg(app);
    await call(app, 'PUT', '/api/organizations/current', { as: admin, body: { brandProfile } });
    const before = (await call(app, 'GET', '/api/organizations/current', { as: admin })).data;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ disclaimers: 'x'.repeat(10_000) }, 'Disclaimers must be at most 5000 characters'],
      [{ languageRules: 'x'.repeat(5001) }, 'Language rules must be at most 5000 characters'],
      [{ boilerplate: 'x'.repeat(10_001) }, 'Content guidelines must be at most 10000 characters'],
      [{ bannedTokens: ['ok', 'x'.repeat(101)] }, 'Each banned token must be at most 100 characters'],
      [{ bannedTokens: ['ok', '   '] }, 'A banned token cannot be empty'],
      [{ bannedTokens: Array.from({ length: 201 }, (_, i) => `t${i}`) }, 'At most 200 banned tokens are allowed'],
      [{ bannedTokens: 'guarantee' }, 'Banned tokens must be a list of text'],
    ];
    for (const [override, message] of cases) {
      const res = await call(app, 'PUT', '/api/organizations/current', {
        as: admin,
        body: { name: 'Should not stick', brandProfile: { ...brandProfile, ...override } },
      });
      expect(res.statusCode, message).toBe(400);
      expect(res.data).toMatchObject({ code: 'validation_error', error: expect.stringContaining(message) });
    }
    const long = await call(app, 'PUT', '/api/organizations/current', {
      as: admin,
      body: { brandName: 'x'.repeat(61) },
    });
    expect(long.data.error).toBe('Brand name must be at most 60 characters');
    expect((await call(app, 'GET', '/api/organizations/current', { as: admin })).data).toEqual(before);
  });

  it('accepts the longest allowed texts and clears the brand name back to the default', async () => {
    const { admin } = await createOrg(app);
    const res = await call(app, 'PUT', '/api/organizations/current', {
      as: admin,
      body: { brandName: '  ', brandProfile: { ...brandProfile, disclaimers: 'd'.repeat(5000) } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.brandName).toBeNull();
    expect(res.data.brandProfile.disclaimers).toHaveLength(5000);
  });

  it('keeps banned tokens with pattern characters as plain text, in storage and in answers', async () => {
    const org = await createOrg(app);
    const bannedTokens = ['.*', '[a-z]+', 'C++ (legacy)', '^$|\\'];
    const saved = await call(app, 'PUT', '/api/organizations/current', {
      as: org.admin,
      body: { brandProfile: { ...brandProfile, bannedTokens } },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.data.brandProfile.bannedTokens).toEqual(bannedTokens);
    const doc = await uploadDocument(
      app,
      org.admin,
      Buffer.from(
        'Security logs are reviewed weekly by the security operations team. ' +
          'Security logs are also reviewed nightly by C++ (legacy) tooling.',
      ),
      'log-review.txt',
    );
    await settledDocument(app, org.admin, doc.data.id);
    const res = await call(app, 'POST', '/api/qa/ask', {
      as: org.admin,
      body: { question: 'How are security logs reviewed?' },
    });
    expect(res.statusCode).toBe(200);
    // As patterns, '.*' and '[a-z]+' would ban every sentence; as text they ban only sentences that contain them.
    expect(res.data.answerType).toBe('generated');
    expect(res.data.answer).toContain('reviewed weekly by the security operations team');
    expect(res.data.answer).not.toContain('C++ (legacy)');
  });

  it('is readable by every role and changeable by admins only', async () => {
    await expectRolePolicy(app, t, 'organization:read', () => ({ method: 'GET', url: '/api/organizations/current' }));
    await expectRolePolicy(app, t, 'organization:update', () => ({
      method: 'PUT',
      url: '/api/organizations/current',
      body: { brandName: unique('Brand') },
    }));
  });

  it('needs a session', async () => {
    expect((await call(app, 'GET', '/api/organizations/current')).statusCode).toBe(401);
    expect((await call(app, 'PUT', '/api/organizations/current', { body: { name: 'x' } })).statusCode).toBe(401);
  });
});

describe('GET /api/organizations/stats', () => {
  it('returns the counts of the current workspace', async () => {
    const res = await call(app, 'GET', '/api/organizations/stats', { as: t.users.viewer });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      canonicalCount: 0,
      documentCount: 0,
      monthlyQueries: 0,
      pendingTasks: 0,
      openConflicts: 0,
    });
  });

  it("answers 404 for another organization's workspace and 400 for a malformed one", async () => {
    const other = await createOrg(app);
    const res = await call(app, 'GET', '/api/organizations/stats', {
      as: t.users.admin,
      headers: { 'x-workspace-id': other.workspaceId },
    });
    expect(res.statusCode).toBe(404);
    const bad = await call(app, 'GET', '/api/organizations/stats', {
      as: t.users.admin,
      headers: { 'x-workspace-id': 'abc' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('users and roles', () => {
  it('lists the live users of the organization without secrets', async () => {
    const res = await call(app, 'GET', '/api/organizations/users', { as: t.users.viewer });
    expect(res.statusCode).toBe(200);
    expect(res.data.map((u: { username: string }) => u.username).sort()).toEqual(
      Object.values(t.users)
        .map((u) => u.username)
        .sort(),
    );
    expect(JSON.stringify(res.data)).not.toMatch(/argon2|password/i);
  });

  it('lets an admin change a role; the new role applies at once and is audited', async () => {
    const org = await createOrg(app);
    const user = await createUser(app, org.admin, 'viewer');
    expect((await call(app, 'POST', '/api/workspaces', { as: user, body: { name: 'Nope' } })).statusCode).toBe(403);
    const res = await call(app, 'PUT', `/api/organizations/users/${user.id}/role`, {
      as: org.admin,
      body: { role: 'manager' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.role).toBe('manager');
    expect((await call(app, 'POST', '/api/workspaces', { as: user, body: { name: 'Now yes' } })).statusCode).toBe(201);
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data).toContainEqual(
      expect.objectContaining({
        action: 'user_role_changed',
        entityType: 'user',
        entityId: user.id,
        userId: org.admin.id,
      }),
    );
  });

  it('never lets an organization lose its last admin', async () => {
    const org = await createOrg(app);
    const demote = await call(app, 'PUT', `/api/organizations/users/${org.admin.id}/role`, {
      as: org.admin,
      body: { role: 'viewer' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.data.error).toMatch(/at least one admin/);
    const second = await createUser(app, org.admin, 'admin');
    const ok = await call(app, 'PUT', `/api/organizations/users/${org.admin.id}/role`, {
      as: second,
      body: { role: 'viewer' },
    });
    expect(ok.statusCode).toBe(200);
    const removeFormer = await call(app, 'DELETE', `/api/organizations/users/${org.admin.id}`, { as: second });
    expect(removeFormer.statusCode).toBe(200);
    // `second` is now the only admin: removing them is the same conflict as demoting them.
    const removeLast = await call(app, 'DELETE', `/api/organizations/users/${second.id}`, { as: second });
    expect(removeLast.statusCode).toBe(409);
    expect(removeLast.data).toEqual({
      code: 'conflict',
      error: 'An organization must keep at least one admin. Make another user admin first.',
    });
    const demoteSelf = await call(app, 'PUT', `/api/organizations/users/${second.id}/role`, {
      as: second,
      body: { role: 'manager' },
    });
    expect(demoteSelf.statusCode).toBe(409);
    expect((await call(app, 'GET', '/api/auth/me', { as: second })).data.user.role).toBe('admin');
  });

  it('refuses removing yourself while another admin remains, with a sentence saying who can', async () => {
    const org = await createOrg(app);
    await createUser(app, org.admin, 'admin');
    const res = await call(app, 'DELETE', `/api/organizations/users/${org.admin.id}`, { as: org.admin });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toBe('You cannot remove yourself. Ask another admin to do it.');
    expect((await call(app, 'GET', '/api/auth/me', { as: org.admin })).statusCode).toBe(200);
  });

  it('rejects an unknown role or a malformed id', async () => {
    const bad = await call(app, 'PUT', `/api/organizations/users/${t.users.viewer.id}/role`, {
      as: t.users.admin,
      body: { role: 'owner' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error).toMatch(/Role must be one of: viewer, contributor, manager, admin/);
    const id = await call(app, 'PUT', '/api/organizations/users/123/role', {
      as: t.users.admin,
      body: { role: 'viewer' },
    });
    expect(id.statusCode).toBe(400);
  });

  it('removing a user ends their sessions and sign-in, keeps the audit trail, and frees the username', async () => {
    const org = await createOrg(app);
    const user = await createUser(app, org.admin, 'contributor');
    const res = await call(app, 'DELETE', `/api/organizations/users/${user.id}`, { as: org.admin });
    expect(res.statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/auth/me', { as: user })).statusCode).toBe(401);
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(login.statusCode).toBe(401);
    const users = await call(app, 'GET', '/api/organizations/users', { as: org.admin });
    expect(users.data.map((u: { id: string }) => u.id)).not.toContain(user.id);
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data).toContainEqual(expect.objectContaining({ action: 'invitation_accepted', userId: user.id }));
    expect(logs.data).toContainEqual(expect.objectContaining({ action: 'user_removed', entityId: user.id }));
    const again = await call(app, 'DELETE', `/api/organizations/users/${user.id}`, { as: org.admin });
    expect(again.statusCode).toBe(404);
    const reuse = await call(app, 'POST', '/api/auth/register', {
      body: { username: user.username, email: user.email, password: 'secret-1234', organizationName: unique('Own ') },
    });
    expect(reuse.statusCode).toBe(201);
  });

  it('lets only admins manage users', async () => {
    const target = await createUser(app, t.users.admin, 'viewer');
    await expectRolePolicy(app, t, 'users:manage', () => ({
      method: 'PUT',
      url: `/api/organizations/users/${target.id}/role`,
      body: { role: 'viewer' },
    }));
    await expectRolePolicy(app, t, 'users:manage', async () => {
      const victim = await createUser(app, t.users.admin, 'viewer');
      return { method: 'DELETE', url: `/api/organizations/users/${victim.id}` };
    });
  });
});

describe('who is an admin changes only with a person signed in', () => {
  const adminToken = async (admin: TestUser) => {
    const made = await call(app, 'POST', '/api/admin/api-tokens', { as: admin, body: { name: 'ops', role: 'admin' } });
    return { authorization: `Bearer ${made.data.token}` };
  };

  it('an admin API token may change other roles but neither makes, demotes nor removes an admin', async () => {
    const org = await createOrg(app);
    const other = await createUser(app, org.admin, 'admin');
    const viewer = await createUser(app, org.admin, 'viewer');
    const bearer = await adminToken(org.admin);
    const promote = await call(app, 'PUT', `/api/organizations/users/${viewer.id}/role`, {
      headers: bearer,
      body: { role: 'admin' },
    });
    expect(promote.statusCode).toBe(403);
    expect(promote.data.error).toMatch(/Sign in to Verity/);
    const demote = await call(app, 'PUT', `/api/organizations/users/${other.id}/role`, {
      headers: bearer,
      body: { role: 'viewer' },
    });
    expect(demote.statusCode).toBe(403);
    const remove = await call(app, 'DELETE', `/api/organizations/users/${other.id}`, { headers: bearer });
    expect(remove.statusCode).toBe(403);
    const roles = await call(app, 'GET', '/api/organizations/users', { as: org.admin });
    const roleOf = (id: string) => roles.data.find((u: { id: string }) => u.id === id)?.role;
    expect([roleOf(viewer.id), roleOf(other.id)]).toEqual(['viewer', 'admin']);
    // Below admin, a token still manages roles and removals.
    const ok = await call(app, 'PUT', `/api/organizations/users/${viewer.id}/role`, {
      headers: bearer,
      body: { role: 'manager' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/organizations/users/${viewer.id}`, { headers: bearer })).statusCode).toBe(
      200,
    );
  });

  it('keeps the break-glass admin while SSO is required, until another one is named', async () => {
    const org = await createOrg(app);
    const second = await createUser(app, org.admin, 'admin');
    const sso = { issuer: 'https://idp.example', clientId: 'verity', clientSecretSealed: null, ssoRequired: true };
    const requireSso = (breakGlassUserId: string | null, ssoRequired = true) =>
      app.database.db
        .update(organizations)
        .set({ ssoConfig: { ...sso, ssoRequired, breakGlassUserId } })
        .where(eq(organizations.id, org.organizationId));
    await requireSso(org.admin.id);
    const demote = await call(app, 'PUT', `/api/organizations/users/${org.admin.id}/role`, {
      as: second,
      body: { role: 'manager' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.data.error).toMatch(/break-glass admin/);
    const remove = await call(app, 'DELETE', `/api/organizations/users/${org.admin.id}`, { as: second });
    expect(remove.statusCode).toBe(409);
    expect((await call(app, 'GET', '/api/auth/me', { as: org.admin })).data.user.role).toBe('admin');
    // With another break-glass admin named, or SSO no longer required, the first is an admin like any other.
    await requireSso(second.id);
    expect(
      (
        await call(app, 'PUT', `/api/organizations/users/${org.admin.id}/role`, {
          as: second,
          body: { role: 'manager' },
        })
      ).statusCode,
    ).toBe(200);
    await requireSso(second.id, false);
    const third = await createUser(app, second, 'admin');
    expect((await call(app, 'DELETE', `/api/organizations/users/${second.id}`, { as: third })).statusCode).toBe(200);
  });
});

describe('a removed admin', () => {
  it('keeps no way back: API tokens revoked and the password cleared for good, not only while removed', async () => {
    const org = await createOrg(app);
    const removed = await createUser(app, org.admin, 'admin');
    const made = await call(app, 'POST', '/api/admin/api-tokens', {
      as: removed,
      body: { name: 'mine', role: 'admin' },
    });
    const bearer = { authorization: `Bearer ${made.data.token}` };
    expect((await call(app, 'GET', '/api/organizations/users', { headers: bearer })).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/organizations/users/${removed.id}`, { as: org.admin })).statusCode).toBe(
      200,
    );
    // Even if the row were ever made live again, nothing the person held opens it.
    await app.database.db.update(users).set({ deletedAt: null }).where(eq(users.id, removed.id));
    expect((await call(app, 'GET', '/api/organizations/users', { headers: bearer })).statusCode).toBe(401);
    const login = await call(app, 'POST', '/api/auth/login', {
      body: { username: removed.username, password: removed.password },
    });
    expect(login.statusCode).toBe(401);
    const [row] = await app.database.db.select().from(users).where(eq(users.id, removed.id));
    expect(row).toMatchObject({ passwordHash: null, removedByAdminAt: expect.any(Date) });
  });
});

describe('invitations', () => {
  it('mails a 7-day single-use link that makes the invitee a member with the invited role', async () => {
    const org = await createOrg(app);
    const email = `${unique('invitee')}@example.com`;
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email, role: 'manager' },
    });
    expect(inv.statusCode).toBe(201);
    expect(inv.data).toMatchObject({
      email,
      role: 'manager',
      url: expect.stringContaining(`/login?invite=${inv.data.token}`),
    });
    const days = (Date.parse(inv.data.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect((await lastMailTo(app, email))?.text).toContain(inv.data.url);

    const preview = await call(app, 'GET', `/api/auth/invitations/${inv.data.token}`);
    expect(preview.data).toEqual({ email, role: 'manager', organizationName: org.organizationName });

    const username = unique('joiner');
    const reg = await call(app, 'POST', '/api/auth/register', {
      body: { username, email, password: 'secret-1234', invitationToken: inv.data.token },
    });
    expect(reg.statusCode).toBe(201);
    expect(reg.data.user).toMatchObject({ role: 'manager', organizationId: org.organizationId });

    const reuse = await call(app, 'POST', '/api/auth/register', {
      body: {
        username: unique('second'),
        email: `${unique('x')}@example.com`,
        password: 'secret-1234',
        invitationToken: inv.data.token,
      },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.data.error).toMatch(/invalid or has expired/);
    expect((await call(app, 'GET', `/api/auth/invitations/${inv.data.token}`)).statusCode).toBe(404);
  });

  it('requires the invited address and refuses existing members', async () => {
    const org = await createOrg(app);
    const email = `${unique('invitee')}@example.com`;
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email, role: 'viewer' },
    });
    const wrong = await call(app, 'POST', '/api/auth/register', {
      body: {
        username: unique('u'),
        email: `${unique('other')}@example.com`,
        password: 'secret-1234',
        invitationToken: inv.data.token,
      },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.data.error).toContain(email);
    const member = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email: org.admin.email, role: 'viewer' },
    });
    expect(member.statusCode).toBe(409);
    const bad = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email: 'x', role: 'god' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 409 for an address already in use in another organization, and creates nothing', async () => {
    const { a, b } = await createTenantPair(app);
    const before = (await call(app, 'GET', '/api/organizations/invitations', { as: a.users.admin })).data;
    const res = await call(app, 'POST', '/api/organizations/invitations', {
      as: a.users.admin,
      body: { email: b.users.viewer.email.toUpperCase(), role: 'viewer' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.data).toEqual({ code: 'conflict', error: 'An account with this email already exists.' });
    const member = await call(app, 'POST', '/api/organizations/invitations', {
      as: a.users.admin,
      body: { email: a.users.viewer.email, role: 'admin' },
    });
    expect(member.data.error).toBe('This person is already a member of your organization.');
    expect((await call(app, 'GET', '/api/organizations/invitations', { as: a.users.admin })).data).toEqual(before);
  });

  it('inviting an address again replaces its pending invitation: only the newest link and role work', async () => {
    const org = await createOrg(app);
    const email = `${unique('again')}@example.com`;
    const first = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email, role: 'viewer' },
    });
    const second = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email: email.toUpperCase(), role: 'contributor' },
    });
    expect(second.statusCode).toBe(201);
    const list = await call(app, 'GET', '/api/organizations/invitations', { as: org.admin });
    expect(list.data.map((i: { id: string }) => i.id)).toEqual([second.data.id]);
    expect((await call(app, 'GET', `/api/auth/invitations/${first.data.token}`)).statusCode).toBe(404);
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data).toContainEqual(
      expect.objectContaining({
        action: 'invitation_created',
        entityId: second.data.id,
        details: expect.objectContaining({ replacedInvitationIds: [first.data.id] }),
      }),
    );
    const reg = await call(app, 'POST', '/api/auth/register', {
      body: { username: unique('again'), email, password: 'secret-1234', invitationToken: second.data.token },
    });
    expect(reg.data.user.role).toBe('contributor');
  });

  it('refuses an expired link with a sentence saying what to do', async () => {
    const org = await createOrg(app);
    const email = `${unique('late')}@example.com`;
    const inv = await createExpiredInvitation(app, org.admin, email);
    const message = 'This invitation link is invalid or has expired. Ask your admin for a new one.';
    const preview = await call(app, 'GET', `/api/auth/invitations/${inv.data.token}`);
    expect(preview.statusCode).toBe(404);
    expect(preview.data).toEqual({ code: 'invitation_invalid', error: message });
    const reg = await call(app, 'POST', '/api/auth/register', {
      body: { username: unique('late'), email, password: 'secret-1234', invitationToken: inv.data.token },
    });
    expect(reg.statusCode).toBe(400);
    expect(reg.data).toEqual({ code: 'invitation_invalid', error: message });
  });

  it('can be listed and revoked by admins; a revoked link no longer works', async () => {
    const org = await createOrg(app);
    const email = `${unique('invitee')}@example.com`;
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: org.admin,
      body: { email, role: 'viewer' },
    });
    const list = await call(app, 'GET', '/api/organizations/invitations', { as: org.admin });
    expect(list.data).toContainEqual(expect.objectContaining({ id: inv.data.id, email, acceptedAt: null }));
    expect(JSON.stringify(list.data)).not.toContain(inv.data.token);
    expect(
      (await call(app, 'DELETE', `/api/organizations/invitations/${inv.data.id}`, { as: org.admin })).statusCode,
    ).toBe(200);
    expect((await call(app, 'GET', `/api/auth/invitations/${inv.data.token}`)).statusCode).toBe(404);
  });

  it('lets only admins invite', async () => {
    await expectRolePolicy(app, t, 'invitations:manage', () => ({
      method: 'POST',
      url: '/api/organizations/invitations',
      body: { email: `${unique('r')}@example.com`, role: 'viewer' },
    }));
  });
});

describe('tenant isolation: organizations', () => {
  it("cannot read or change the other organization's users, settings or invitations", async () => {
    const { a, b } = await createTenantPair(app);
    const bUsers = await call(app, 'GET', '/api/organizations/users', { as: a.users.admin });
    expect(bUsers.statusCode).toBe(200);
    expect(bUsers.data).toHaveLength(4);
    for (const u of Object.values(b.users)) expect(JSON.stringify(bUsers.data)).not.toContain(u.id);

    const role = await call(app, 'PUT', `/api/organizations/users/${b.users.viewer.id}/role`, {
      as: a.users.admin,
      body: { role: 'admin' },
    });
    expect(role.statusCode).toBe(404);
    const del = await call(app, 'DELETE', `/api/organizations/users/${b.users.viewer.id}`, { as: a.users.admin });
    expect(del.statusCode).toBe(404);
    const me = await call(app, 'GET', '/api/auth/me', { as: b.users.viewer });
    expect(me.data.user.role).toBe('viewer');

    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: b.users.admin,
      body: { email: `${unique('b')}@example.com`, role: 'viewer' },
    });
    const revoke = await call(app, 'DELETE', `/api/organizations/invitations/${inv.data.id}`, { as: a.users.admin });
    expect(revoke.statusCode).toBe(404);

    // The organization a user edits is always their own, whatever the body says.
    const own = await call(app, 'PUT', '/api/organizations/current', {
      as: a.users.admin,
      body: { name: 'A renamed', id: b.organizationId, organizationId: b.organizationId },
    });
    expect(own.statusCode).toBe(200);
    expect(own.data).toMatchObject({ id: a.organizationId, name: 'A renamed' });
    const bOrg = await call(app, 'GET', '/api/organizations/current', { as: b.users.admin });
    expect(bOrg.data.name).toBe(b.organizationName);
  });
});

describe('tenant isolation and roles: invitations', () => {
  it("lists only the organization's own invitations, to admins only", async () => {
    const { a, b } = await createTenantPair(app);
    const bInv = await call(app, 'POST', '/api/organizations/invitations', {
      as: b.users.admin,
      body: { email: `${unique('b')}@example.com`, role: 'viewer' },
    });
    const list = await call(app, 'GET', '/api/organizations/invitations', { as: a.users.admin });
    expect(list.statusCode).toBe(200);
    expect(list.data.length).toBe(3);
    expect(list.data.map((i: { id: string }) => i.id)).not.toContain(bInv.data.id);
    await expectRolePolicy(app, a, 'invitations:manage', () => ({
      method: 'GET',
      url: '/api/organizations/invitations',
    }));
    await expectRolePolicy(app, a, 'invitations:manage', async () => {
      const inv = await call(app, 'POST', '/api/organizations/invitations', {
        as: a.users.admin,
        body: { email: `${unique('d')}@example.com`, role: 'viewer' },
      });
      return { method: 'DELETE', url: `/api/organizations/invitations/${inv.data.id}` };
    });
  });
});

describe('admin-only endpoints', () => {
  it('answer 403 with a sentence to managers, contributors and viewers, and change nothing', async () => {
    const org = await createTenant(app);
    const before = (await call(app, 'GET', '/api/organizations/current', { as: org.admin })).data;
    const endpoints: Array<
      [
        Parameters<typeof expectRolePolicy>[2],
        () => Promise<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown }>,
      ]
    > = [
      [
        'organization:update',
        async () => ({ method: 'PUT', url: '/api/organizations/current', body: { brandProfile } }),
      ],
      [
        'users:manage',
        async () => {
          const target = await createUser(app, org.admin, 'viewer');
          return { method: 'PUT', url: `/api/organizations/users/${target.id}/role`, body: { role: 'contributor' } };
        },
      ],
      [
        'users:manage',
        async () => {
          const target = await createUser(app, org.admin, 'viewer');
          return { method: 'DELETE', url: `/api/organizations/users/${target.id}` };
        },
      ],
      [
        'invitations:manage',
        async () => ({
          method: 'POST',
          url: '/api/organizations/invitations',
          body: { email: `${unique('m')}@example.com`, role: 'admin' },
        }),
      ],
      ['invitations:manage', async () => ({ method: 'GET', url: '/api/organizations/invitations' })],
    ];
    for (const [action, request] of endpoints) await expectRolePolicy(app, org, action, request);
    // Only the admin's calls changed anything: the organization carries the admin's brand profile, roles are intact.
    const after = (await call(app, 'GET', '/api/organizations/current', { as: org.admin })).data;
    expect(after).toEqual({ ...before, brandProfile });
    for (const role of ['manager', 'contributor', 'viewer'] as const) {
      const me = await call(app, 'GET', '/api/auth/me', { as: org.users[role] });
      expect(me.data.user.role).toBe(role);
    }
  });
});
