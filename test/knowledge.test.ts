import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createOrg, createTenant, createTenantPair, unique, type Tenant } from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

const longAnswer = 'Yes. All customer data is encrypted at rest with AES-256.';

describe('POST /api/canonical-answers', () => {
  it('creates an approved entry owned and verified by its author, and audits it', async () => {
    const org = await createOrg(app);
    const res = await call(app, 'POST', '/api/canonical-answers', {
      as: org.admin,
      body: { question: 'Do you encrypt data at rest?', answer: longAnswer, tags: ['encryption', 'data'] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({
      question: 'Do you encrypt data at rest?',
      answer: longAnswer,
      tags: ['encryption', 'data'],
      status: 'approved',
      confidence: null,
      owner: { id: org.admin.id, username: org.admin.username },
      createdBy: { id: org.admin.id },
      lastVerifiedBy: { id: org.admin.id },
      workspaceId: org.workspaceId,
    });
    expect(Date.parse(res.data.lastVerifiedAt)).not.toBeNaN();
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data[0]).toMatchObject({ action: 'canonical_answer_created', entityId: res.data.id });
    const stats = await call(app, 'GET', '/api/organizations/stats', { as: org.admin });
    expect(stats.data.canonicalCount).toBe(1);
  });

  it("answers the specification's messages for a short question or answer and creates nothing", async () => {
    const org = await createOrg(app);
    const short = await call(app, 'POST', '/api/canonical-answers', {
      as: org.admin,
      body: { question: 'Short?', answer: 'Too short', tags: [] },
    });
    expect(short.statusCode).toBe(400);
    expect(short.data.error).toContain('Question must be at least 10 characters');
    expect(short.data.error).toContain('Answer must be at least 20 characters');
    const list = await call(app, 'GET', '/api/canonical-answers', { as: org.admin });
    expect(list.data).toEqual([]);
  });

  it('refuses bad input with a clear 4xx: bad status, bad tags, a 5 MB answer, an owner from elsewhere', async () => {
    const other = await createOrg(app);
    const cases: Array<[unknown, number, string]> = [
      [{ question: 'Do you encrypt backups?', answer: longAnswer, status: 'published' }, 400, 'Status must be'],
      [{ question: 'Do you encrypt backups?', answer: longAnswer, tags: 'a,b' }, 400, 'Tags must be a list'],
      [{ question: 'Do you encrypt backups?', answer: longAnswer, tags: [''] }, 400, 'Tags cannot be empty'],
      [{ question: 'Do you encrypt backups?', answer: 'x'.repeat(20_001) }, 400, 'at most 20,000 characters'],
      [{ question: 'Do you encrypt backups?', answer: 'x'.repeat(5 * 1024 * 1024) }, 413, 'MB this call accepts'],
      [{ question: '?!?!?!?!?!?!', answer: longAnswer }, 400, 'letters or numbers'],
      [{ question: 'Do you encrypt backups?', answer: longAnswer, ownerId: other.admin.id }, 400, 'Owner must be'],
      [{ question: 'Do you encrypt backups?', answer: longAnswer, ownerId: 'me' }, 400, 'Owner must be a user id'],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(app, 'POST', '/api/canonical-answers', { as: t.users.admin, body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.data.error).toContain(message);
    }
    const list = await call(app, 'GET', '/api/canonical-answers?q=backups', { as: t.users.admin });
    expect(list.data).toEqual([]);
  });

  it('refuses a question already in the library (same words, other case and punctuation) with 409', async () => {
    const org = await createOrg(app);
    const first = await createAnswer(app, org.admin, { question: 'Do you perform annual penetration tests?' });
    const again = await call(app, 'POST', '/api/canonical-answers', {
      as: org.admin,
      body: { question: '  do YOU perform annual   penetration-tests ', answer: longAnswer },
    });
    expect(again.statusCode).toBe(409);
    expect(again.data).toMatchObject({
      code: 'duplicate_question',
      error: 'This question is already in the library.',
      details: { existingId: first.id },
    });
  });

  it('lets contributors create drafts only; viewers nothing', async () => {
    const draft = await call(app, 'POST', '/api/canonical-answers', {
      as: t.users.contributor,
      body: { question: `${unique('Contributor draft ')}?`, answer: longAnswer, status: 'draft' },
    });
    expect(draft.statusCode).toBe(201);
    expect(draft.data).toMatchObject({ status: 'draft', lastVerifiedAt: null });
    const approved = await call(app, 'POST', '/api/canonical-answers', {
      as: t.users.contributor,
      body: { question: `${unique('Contributor approved ')}?`, answer: longAnswer },
    });
    expect(approved.statusCode).toBe(403);
    await expectRolePolicy(app, t, 'knowledge:approve', () => ({
      method: 'POST',
      url: '/api/canonical-answers',
      body: { question: `${unique('Role matrix question ')}?`, answer: longAnswer },
    }));
    await expectRolePolicy(app, t, 'knowledge:create_draft', () => ({
      method: 'POST',
      url: '/api/canonical-answers',
      body: { question: `${unique('Role matrix draft ')}?`, answer: longAnswer, status: 'draft' },
    }));
  });
});

describe('GET /api/canonical-answers', () => {
  let org: Awaited<ReturnType<typeof createOrg>>;
  beforeAll(async () => {
    org = await createOrg(app);
    await createAnswer(app, org.admin, {
      question: 'Is customer data encrypted at rest?',
      answer: 'Yes, with AES-256 managed by a cloud KMS.',
      tags: ['encryption'],
    });
    await createAnswer(app, org.admin, {
      question: 'Do you run a bug bounty programme?',
      answer: 'We run a private programme on HackerOne with a safe harbour.',
      tags: ['appsec', 'testing'],
    });
    await createAnswer(app, org.admin, {
      question: 'How are backups protected?',
      answer: 'Backups are encrypted and stored in a second region for 35 days.',
      tags: ['backup'],
      status: 'draft',
    });
    await createAnswer(app, org.admin, {
      question: 'Do you still support TLS 1.0?',
      answer: 'No. Only TLS 1.2 and 1.3 are accepted on every endpoint.',
      status: 'archived',
    });
  });

  it('lists approved and drafts by default, newest first, with the total in X-Total-Count', async () => {
    const res = await call(app, 'GET', '/api/canonical-answers', { as: org.admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.data.map((a: { question: string }) => a.question)).toEqual([
      'How are backups protected?',
      'Do you run a bug bounty programme?',
      'Is customer data encrypted at rest?',
    ]);
  });

  it('filters by status and tag, and pages with limit and offset', async () => {
    const archived = await call(app, 'GET', '/api/canonical-answers?status=archived', { as: org.admin });
    expect(archived.data.map((a: { status: string }) => a.status)).toEqual(['archived']);
    const tagged = await call(app, 'GET', '/api/canonical-answers?tag=appsec', { as: org.admin });
    expect(tagged.data.map((a: { tags: string[] }) => a.tags)).toEqual([['appsec', 'testing']]);
    const page = await call(app, 'GET', '/api/canonical-answers?limit=2&offset=2', { as: org.admin });
    expect(page.data).toHaveLength(1);
    expect(page.headers['x-total-count']).toBe('3');
  });

  it('searches question, answer and tags with ranking, stemming and word prefixes', async () => {
    const search = async (q: string) =>
      (await call(app, 'GET', `/api/canonical-answers?q=${encodeURIComponent(q)}`, { as: org.admin })).data.map(
        (a: { question: string }) => a.question,
      );
    // "encrypted" is in one question and one answer: the question match ranks first.
    expect(await search('encryption')).toEqual(['Is customer data encrypted at rest?', 'How are backups protected?']);
    expect(await search('hackerone')).toEqual(['Do you run a bug bounty programme?']);
    expect(await search('appsec')).toEqual(['Do you run a bug bounty programme?']);
    expect(await search('encr')).toHaveLength(2);
    expect(await search('bounty encrypted')).toEqual([]);
    expect(await search("'; drop table canonical_answers; --")).toEqual([]);
    expect(await search('the')).toEqual([]);
    expect(await search('ounty prog')).toEqual(['Do you run a bug bounty programme?']);
  });

  it('counts per tab and lists every matching id for Select All', async () => {
    const counts = await call(app, 'GET', '/api/canonical-answers/counts', { as: org.admin });
    expect(counts.data).toEqual({ all: 3, approved: 2, draft: 1, archived: 1, reverify: 0 });
    const searched = await call(app, 'GET', '/api/canonical-answers/counts?q=encrypted', { as: org.admin });
    expect(searched.data).toEqual({ all: 2, approved: 1, draft: 1, archived: 0, reverify: 0 });
    const ids = await call(app, 'GET', '/api/canonical-answers/ids?status=approved', { as: org.admin });
    expect(ids.data.ids).toHaveLength(2);
    const tags = await call(app, 'GET', '/api/canonical-answers/tags', { as: org.admin });
    expect(tags.data).toEqual(
      expect.arrayContaining([
        { tag: 'encryption', count: 1 },
        { tag: 'appsec', count: 1 },
      ]),
    );
    expect(tags.data.map((x: { tag: string }) => x.tag)).not.toContain('archived');
  });

  it('refuses a bad status, limit or offset', async () => {
    for (const [query, message] of [
      ['status=published', 'Status must be'],
      ['limit=0', 'limit must be between 1 and 10000'],
      ['limit=10001', 'limit must be between 1 and 10000'],
      ['offset=-1', 'offset must be 0 or more'],
      [`q=${'x'.repeat(501)}`, 'Search text must be at most 500 characters'],
    ] as const) {
      const res = await call(app, 'GET', `/api/canonical-answers?${query}`, { as: org.admin });
      expect(res.statusCode, query).toBe(400);
      expect(res.data.error).toContain(message);
    }
  });

  it('is readable by every role and by no one signed out', async () => {
    await expectRolePolicy(app, t, 'knowledge:read', () => ({ method: 'GET', url: '/api/canonical-answers' }));
    expect((await call(app, 'GET', '/api/canonical-answers')).statusCode).toBe(401);
  });
});

describe('PUT /api/canonical-answers/{id}, verify and versions', () => {
  it('edits, keeps every previous version, and re-verifies on approval and answer edits', async () => {
    const org = await createTenant(app);
    const draft = await createAnswer(app, org.admin, {
      question: 'Do you have an incident response plan?',
      answer: 'A plan is being written and will be tested.',
      status: 'draft',
    });
    const edited = await call(app, 'PUT', `/api/canonical-answers/${draft.id}`, {
      as: org.users.contributor,
      body: { answer: 'Yes. The plan is tested twice a year with tabletop exercises.', tags: ['ir'] },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.data).toMatchObject({ status: 'draft', tags: ['ir'], lastVerifiedAt: null });

    const approved = await call(app, 'PUT', `/api/canonical-answers/${draft.id}`, {
      as: org.users.manager,
      body: { status: 'approved', ownerId: org.users.contributor.id },
    });
    expect(approved.data).toMatchObject({
      status: 'approved',
      owner: { id: org.users.contributor.id },
      lastVerifiedBy: { id: org.users.manager.id },
    });

    const versions = await call(app, 'GET', `/api/canonical-answers/${draft.id}/versions`, { as: org.users.viewer });
    expect(versions.data).toMatchObject([
      { version: 2, status: 'draft', tags: ['ir'], replacedBy: { id: org.users.manager.id } },
      {
        version: 1,
        status: 'draft',
        answer: 'A plan is being written and will be tested.',
        tags: [],
        replacedBy: { id: org.users.contributor.id },
      },
    ]);

    const verified = await call(app, 'POST', `/api/canonical-answers/${draft.id}/verify`, { as: org.users.admin });
    expect(verified.data.lastVerifiedBy).toMatchObject({ id: org.users.admin.id });
    expect(Date.parse(verified.data.lastVerifiedAt)).toBeGreaterThanOrEqual(Date.parse(approved.data.lastVerifiedAt));
    const after = await call(app, 'GET', `/api/canonical-answers/${draft.id}/versions`, { as: org.users.viewer });
    expect(after.data).toHaveLength(2);

    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data.slice(0, 3).map((l: { action: string }) => l.action)).toEqual([
      'canonical_answer_verified',
      'canonical_answer_approved',
      'canonical_answer_updated',
    ]);
  });

  it('keeps contributors off approved entries, approvals and owners; viewers off everything', async () => {
    const org = await createTenant(app);
    const approved = await createAnswer(app, org.admin);
    const draft = await createAnswer(app, org.admin, { status: 'draft' });
    const tries: Array<[string, unknown]> = [
      [approved.id, { answer: 'Contributors may not rewrite approved answers.' }],
      [draft.id, { status: 'approved' }],
      [draft.id, { ownerId: org.users.contributor.id }],
    ];
    for (const [id, body] of tries) {
      const res = await call(app, 'PUT', `/api/canonical-answers/${id}`, { as: org.users.contributor, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
    }
    const viewer = await call(app, 'PUT', `/api/canonical-answers/${draft.id}`, {
      as: org.users.viewer,
      body: { tags: ['x'] },
    });
    expect(viewer.statusCode).toBe(403);
    expect((await call(app, 'GET', `/api/canonical-answers/${approved.id}`, { as: org.admin })).data).toMatchObject({
      answer: approved.answer,
    });
    await expectRolePolicy(app, org, 'knowledge:approve', () => ({
      method: 'POST',
      url: `/api/canonical-answers/${approved.id}/verify`,
    }));
  });

  it('refuses an empty edit, a short answer, a duplicate question and verifying a draft', async () => {
    const org = await createOrg(app);
    const a = await createAnswer(app, org.admin, { question: 'Is there a security awareness training?' });
    const b = await createAnswer(app, org.admin, { status: 'draft' });
    const cases: Array<[string, unknown, number, string]> = [
      [a.id, {}, 400, 'Nothing to update'],
      [a.id, { answer: 'Yes.' }, 400, 'Answer must be at least 20 characters'],
      [b.id, { question: 'Is there a security-awareness training' }, 409, 'already in the library'],
    ];
    for (const [id, body, status, message] of cases) {
      const res = await call(app, 'PUT', `/api/canonical-answers/${id}`, { as: org.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.data.error).toContain(message);
    }
    const verifyDraft = await call(app, 'POST', `/api/canonical-answers/${b.id}/verify`, { as: org.admin });
    expect(verifyDraft.statusCode).toBe(409);
    expect(verifyDraft.data.error).toBe('Only approved answers can be verified. Approve it first.');
    const versions = await call(app, 'GET', `/api/canonical-answers/${b.id}/versions`, { as: org.admin });
    expect(versions.data).toEqual([]);
  });
});

describe('DELETE /api/canonical-answers/{id}', () => {
  it('is for managers and admins, and removes the entry with its versions', async () => {
    const org = await createTenant(app);
    await expectRolePolicy(app, org, 'knowledge:delete', async () => ({
      method: 'DELETE',
      url: `/api/canonical-answers/${(await createAnswer(app, org.admin)).id}`,
    }));
    const a = await createAnswer(app, org.admin);
    expect((await call(app, 'DELETE', `/api/canonical-answers/${a.id}`, { as: org.admin })).statusCode).toBe(200);
    expect((await call(app, 'GET', `/api/canonical-answers/${a.id}`, { as: org.admin })).statusCode).toBe(404);
    expect((await call(app, 'DELETE', `/api/canonical-answers/${a.id}`, { as: org.admin })).statusCode).toBe(404);
  });
});

describe('tenant isolation', () => {
  it("never shows, changes or exports another organization's or workspace's entries", async () => {
    const { a, b } = await createTenantPair(app);
    const entry = await createAnswer(app, a.admin, { question: 'Is the isolation entry visible elsewhere?' });
    const attempts = [
      call(app, 'GET', `/api/canonical-answers/${entry.id}`, { as: b.admin }),
      call(app, 'GET', `/api/canonical-answers/${entry.id}/versions`, { as: b.admin }),
      call(app, 'PUT', `/api/canonical-answers/${entry.id}`, { as: b.admin, body: { tags: ['stolen'] } }),
      call(app, 'POST', `/api/canonical-answers/${entry.id}/verify`, { as: b.admin }),
      call(app, 'DELETE', `/api/canonical-answers/${entry.id}`, { as: b.admin }),
      call(app, 'POST', '/api/canonical-answers/export', { as: b.admin, body: { answerIds: [entry.id] } }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.statusCode).toBe(404);
    // B's admin naming A's workspace in the header is "not found" too.
    const foreignWs = await call(app, 'GET', '/api/canonical-answers', {
      as: b.admin,
      headers: { 'x-workspace-id': a.workspaceId },
    });
    expect(foreignWs.statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/canonical-answers', { as: b.admin })).data).toEqual([]);
    expect((await call(app, 'GET', '/api/canonical-answers/ids', { as: b.admin })).data).toEqual({ ids: [] });
    expect((await call(app, 'GET', '/api/canonical-answers/counts', { as: b.admin })).data.all).toBe(0);

    // A second workspace of the same organization has its own library.
    const ws2 = await call(app, 'POST', '/api/workspaces', { as: a.admin, body: { name: 'Second' } });
    const inWs2 = { ...a.admin, workspaceId: ws2.data.id };
    expect((await call(app, 'GET', `/api/canonical-answers/${entry.id}`, { as: inWs2 })).statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/canonical-answers', { as: inWs2 })).data).toEqual([]);
    // The same question may live in both workspaces.
    await createAnswer(app, inWs2, { question: entry.question });
    expect((await call(app, 'GET', `/api/canonical-answers/${entry.id}`, { as: a.admin })).data.tags).toEqual([]);
  });
});
