import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessmentQuestions } from '../server/db/schema';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createTenant, createTenantPair, lastMailTo, unique, type Tenant } from './helpers/factories';
import { detail, importCsv, waitForBatch } from './helpers/assessments';
import { expectRolePolicy } from './helpers/roles-matrix';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

const answer = 'Yes. Every laptop has full-disk encryption enforced by the MDM.';

/** A pending suggestion made by `as` (the tenant's contributor unless said otherwise). */
async function suggest(tenant: Tenant, body: Record<string, unknown> = {}, as = tenant.users.contributor) {
  const res = await call(app, 'POST', '/api/library-suggestions', {
    as,
    body: { question: `${unique('Do you encrypt laptops ')}?`, answer, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`suggest failed: ${res.statusCode} ${res.body}`);
  return res.data as { id: string; question: string; answer: string; tags: string[] };
}

describe('a contributor suggests, an approver approves', () => {
  it('waits in the inbox as pending, then becomes an approved entry; the suggester is told', async () => {
    const org = await createTenant(app);
    const { contributor, manager } = org.users;
    const s = await suggest(org, { question: 'Do you encrypt laptops?', tags: ['endpoint'] });
    expect(s).toMatchObject({
      status: 'pending',
      question: 'Do you encrypt laptops?',
      tags: ['endpoint'],
      suggestedBy: { id: contributor.id, username: contributor.username },
      reason: null,
      decidedBy: null,
      canonicalAnswerId: null,
      sourceBatchId: null,
    });
    // Nothing enters the library until someone approves it.
    expect((await call(app, 'GET', '/api/canonical-answers', { as: manager })).data).toEqual([]);

    const inbox = await call(app, 'GET', '/api/library-suggestions?status=pending', { as: manager });
    expect(inbox.statusCode).toBe(200);
    expect(inbox.data.map((x: { id: string }) => x.id)).toEqual([s.id]);

    const approved = await call(app, 'POST', `/api/library-suggestions/${s.id}/approve`, { as: manager, body: {} });
    expect(approved.statusCode).toBe(200);
    expect(approved.data).toMatchObject({ status: 'approved', decidedBy: { id: manager.id } });
    expect(Date.parse(approved.data.decidedAt)).not.toBeNaN();

    const entry = await call(app, 'GET', `/api/canonical-answers/${approved.data.canonicalAnswerId}`, { as: manager });
    expect(entry.data).toMatchObject({
      question: 'Do you encrypt laptops?',
      answer,
      tags: ['endpoint'],
      status: 'approved',
      lastVerifiedBy: { id: manager.id },
    });
    expect((await call(app, 'GET', '/api/library-suggestions?status=pending', { as: manager })).data).toEqual([]);

    const mine = await call(app, 'GET', '/api/library-suggestions', { as: contributor });
    expect(mine.data).toMatchObject([{ id: s.id, status: 'approved' }]);
    const mail = await lastMailTo(app, contributor.email);
    expect(mail?.subject).toBe('Your library suggestion was approved');
    expect(mail?.text).toContain('Do you encrypt laptops?');
    expect(mail?.text).toContain(manager.username);

    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    const actions = logs.data.map((l: { action: string }) => l.action);
    expect(actions).toContain('library_suggestion_created');
    expect(actions).toContain('library_suggestion_approved');
  });

  it('updates an entry with the same question as its next version instead of adding a second one', async () => {
    const org = await createTenant(app);
    const existing = await createAnswer(app, org.admin, {
      question: 'Do you rotate encryption keys?',
      answer: 'Keys are rotated every two years by the platform team.',
      tags: ['encryption', 'keys'],
    });
    const s = await suggest(org, { question: 'Do you rotate encryption keys', answer: 'Yes, every year, automated.' });
    const res = await call(app, 'POST', `/api/library-suggestions/${s.id}/approve`, {
      as: org.users.manager,
      body: {},
    });
    expect(res.data.canonicalAnswerId).toBe(existing.id);
    const list = await call(app, 'GET', '/api/canonical-answers', { as: org.admin });
    expect(list.data).toHaveLength(1);
    // The suggestion brings a new answer; the entry keeps its own wording of the question and its tags.
    expect(list.data[0]).toMatchObject({
      id: existing.id,
      question: 'Do you rotate encryption keys?',
      answer: 'Yes, every year, automated.',
      status: 'approved',
      tags: ['encryption', 'keys'],
    });
    const versions = await call(app, 'GET', `/api/canonical-answers/${existing.id}/versions`, { as: org.admin });
    expect(versions.data).toMatchObject([
      { version: 1, answer: 'Keys are rotated every two years by the platform team.' },
    ]);
  });

  it('"edit then approve" saves the approver\'s wording; the suggestion keeps what was suggested', async () => {
    const org = await createTenant(app);
    const s = await suggest(org, { question: 'Do you scan for malware?', tags: ['x'] });
    const res = await call(app, 'POST', `/api/library-suggestions/${s.id}/approve`, {
      as: org.admin,
      body: {
        question: 'Do you scan endpoints for malware?',
        answer: 'Yes. Every endpoint runs EDR with real-time scanning.',
        tags: ['endpoint', 'malware'],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ status: 'approved', question: 'Do you scan for malware?', tags: ['x'] });
    const entry = await call(app, 'GET', `/api/canonical-answers/${res.data.canonicalAnswerId}`, { as: org.admin });
    expect(entry.data).toMatchObject({
      question: 'Do you scan endpoints for malware?',
      answer: 'Yes. Every endpoint runs EDR with real-time scanning.',
      tags: ['endpoint', 'malware'],
      status: 'approved',
    });
    expect((await lastMailTo(app, org.users.contributor.email))?.text).toContain('with changes');
  });

  it('points assessment questions saved as this suggestion at the approved entry', async () => {
    const org = await createTenant(app);
    const batch = await importCsv(app, org.admin, 'Question\nDo you keep audit logs?\n');
    await waitForBatch(app, org.admin, batch.id);
    const [q] = (await detail(app, org.admin, batch.id)).questions;
    if (!q) throw new Error('no question imported');
    const s = await suggest(org, { question: 'Do you keep audit logs?' });
    await app.database.db
      .update(assessmentQuestions)
      .set({ librarySuggestionId: s.id })
      .where(eq(assessmentQuestions.id, q.id));
    const res = await call(app, 'POST', `/api/library-suggestions/${s.id}/approve`, { as: org.admin, body: {} });
    const [row] = await app.database.db
      .select({ libraryEntryId: assessmentQuestions.libraryEntryId })
      .from(assessmentQuestions)
      .where(eq(assessmentQuestions.id, q.id));
    expect(row?.libraryEntryId).toBe(res.data.canonicalAnswerId);
  });
});

describe('rejecting a suggestion', () => {
  it('needs a reason, which the suggester sees in the list and in an e-mail', async () => {
    const org = await createTenant(app);
    const { contributor, manager } = org.users;
    const s = await suggest(org);
    const res = await call(app, 'POST', `/api/library-suggestions/${s.id}/reject`, {
      as: manager,
      body: { reason: '  We do not claim this for every laptop yet.  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      status: 'rejected',
      reason: 'We do not claim this for every laptop yet.',
      decidedBy: { id: manager.id },
      canonicalAnswerId: null,
    });
    const mine = await call(app, 'GET', '/api/library-suggestions?status=rejected', { as: contributor });
    expect(mine.data).toMatchObject([{ id: s.id, reason: 'We do not claim this for every laptop yet.' }]);
    const mail = await lastMailTo(app, contributor.email);
    expect(mail?.subject).toBe('Your library suggestion was not accepted');
    expect(mail?.text).toContain('Reason: We do not claim this for every laptop yet.');
    expect(mail?.text).toContain('http://verity.test/library');
    expect((await call(app, 'GET', '/api/canonical-answers', { as: manager })).data).toEqual([]);
  });

  it('refuses a missing, empty or too long reason and changes nothing', async () => {
    const s = await suggest(t);
    const cases: Array<[unknown, string]> = [
      [{}, 'Give a reason for the rejection'],
      [{ reason: '   ' }, 'Give a reason for the rejection'],
      [{ reason: 'x'.repeat(501) }, 'The reason must be at most 500 characters'],
      [{ reason: 42 }, 'Give a reason for the rejection'],
    ];
    for (const [body, message] of cases) {
      const res = await call(app, 'POST', `/api/library-suggestions/${s.id}/reject`, { as: t.users.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data.error).toContain(message);
    }
    const ok = await call(app, 'POST', `/api/library-suggestions/${s.id}/reject`, {
      as: t.users.admin,
      body: { reason: 'x'.repeat(500) },
    });
    expect(ok.data).toMatchObject({ status: 'rejected', reason: 'x'.repeat(500) });
  });
});

describe('deciding twice', () => {
  it('answers 409 with a sentence, whichever decision came first, and keeps the first', async () => {
    const approved = await suggest(t);
    const rejected = await suggest(t);
    const as = t.users.manager;
    await call(app, 'POST', `/api/library-suggestions/${approved.id}/approve`, { as, body: {} });
    await call(app, 'POST', `/api/library-suggestions/${rejected.id}/reject`, { as, body: { reason: 'No.' } });
    const tries: Array<[string, string, unknown, string]> = [
      [approved.id, 'approve', {}, 'This suggestion was already approved.'],
      [approved.id, 'reject', { reason: 'Too late.' }, 'This suggestion was already approved.'],
      [rejected.id, 'approve', {}, 'This suggestion was already rejected.'],
      [rejected.id, 'reject', { reason: 'Again.' }, 'This suggestion was already rejected.'],
    ];
    for (const [id, action, body, message] of tries) {
      const res = await call(app, 'POST', `/api/library-suggestions/${id}/${action}`, { as, body });
      expect(res.statusCode, `${action} ${id}`).toBe(409);
      expect(res.data.error).toContain(message);
    }
    const list = await call(app, 'GET', '/api/library-suggestions', { as });
    const byId = new Map(list.data.map((x: { id: string }) => [x.id, x]));
    expect(byId.get(approved.id)).toMatchObject({ status: 'approved', reason: null });
    expect(byId.get(rejected.id)).toMatchObject({ status: 'rejected', reason: 'No.' });
  });
});

describe('who sees and decides what', () => {
  it('approvers see the whole inbox; contributors only their own; viewers nothing', async () => {
    const org = await createTenant(app);
    const mineC = await suggest(org);
    const mineM = await suggest(org, {}, org.users.manager);
    const ids = (res: { data: Array<{ id: string }> }) => res.data.map((x) => x.id).sort();
    for (const who of [org.users.manager, org.users.admin]) {
      expect(ids(await call(app, 'GET', '/api/library-suggestions', { as: who }))).toEqual([mineC.id, mineM.id].sort());
    }
    expect(ids(await call(app, 'GET', '/api/library-suggestions', { as: org.users.contributor }))).toEqual([mineC.id]);
    const viewer = await call(app, 'GET', '/api/library-suggestions', { as: org.users.viewer });
    expect(viewer.statusCode).toBe(403);
    const viewerPost = await call(app, 'POST', '/api/library-suggestions', {
      as: org.users.viewer,
      body: { question: 'Do viewers suggest entries?', answer },
    });
    expect(viewerPost.statusCode).toBe(403);
  });

  it('approving and rejecting are for managers and admins', async () => {
    const org = await createTenant(app);
    await expectRolePolicy(app, org, 'knowledge:approve', async () => ({
      method: 'POST',
      url: `/api/library-suggestions/${(await suggest(org)).id}/approve`,
      body: {},
    }));
    await expectRolePolicy(app, org, 'knowledge:approve', async () => ({
      method: 'POST',
      url: `/api/library-suggestions/${(await suggest(org)).id}/reject`,
      body: { reason: 'Not our wording.' },
    }));
    await expectRolePolicy(app, org, 'knowledge:create_draft', () => ({
      method: 'GET',
      url: '/api/library-suggestions',
    }));
  });

  it("another organization's or workspace's suggestion is not found and stays pending", async () => {
    const { a, b } = await createTenantPair(app);
    const s = await suggest(a);
    for (const action of ['approve', 'reject']) {
      const res = await call(app, 'POST', `/api/library-suggestions/${s.id}/${action}`, {
        as: b.users.admin,
        body: { reason: 'Not yours.' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.data.error).toBe('Suggestion not found');
    }
    expect((await call(app, 'GET', '/api/library-suggestions', { as: b.users.admin })).data).toEqual([]);

    const ws = await call(app, 'POST', '/api/workspaces', { as: a.admin, body: { name: unique('Other ') } });
    const inOther = { ...a.admin, workspaceId: ws.data.id as string };
    const res = await call(app, 'POST', `/api/library-suggestions/${s.id}/approve`, { as: inOther, body: {} });
    expect(res.statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/library-suggestions', { as: inOther })).data).toEqual([]);
    const still = await call(app, 'GET', '/api/library-suggestions', { as: a.admin });
    expect(still.data).toMatchObject([{ id: s.id, status: 'pending' }]);
  });
});

describe('bad input', () => {
  it('refuses suggestions the library form would refuse', async () => {
    const cases: Array<[unknown, string]> = [
      [{ question: 'Short?', answer }, 'Question must be at least 10 characters'],
      [{ question: 'Do you encrypt backups?', answer: 'Yes.' }, 'Answer must be at least 20 characters'],
      [{ question: 'Do you encrypt backups?', answer, tags: 'a,b' }, 'Tags must be a list'],
      [{ question: 'Do you encrypt backups?', answer, tags: [''] }, 'Tags cannot be empty'],
      [{ question: '?!?!?!?!?!?!', answer }, 'letters or numbers'],
      [{ answer }, 'Question is required'],
    ];
    for (const [body, message] of cases) {
      const res = await call(app, 'POST', '/api/library-suggestions', { as: t.users.contributor, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data.error).toContain(message);
    }
  });

  it('refuses a bad status filter, bad ids and edits the form would refuse', async () => {
    const bad = await call(app, 'GET', '/api/library-suggestions?status=done', { as: t.users.admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error).toContain('status must be pending, approved or rejected');
    const badId = await call(app, 'POST', '/api/library-suggestions/not-an-id/approve', { as: t.admin, body: {} });
    expect(badId.statusCode).toBe(400);
    expect(badId.data.error).toContain('Invalid id');
    const unknown = await call(app, 'POST', '/api/library-suggestions/00000000-0000-4000-8000-000000000000/reject', {
      as: t.admin,
      body: { reason: 'Gone.' },
    });
    expect(unknown.statusCode).toBe(404);

    const s = await suggest(t);
    const edits: Array<[unknown, string]> = [
      [{ answer: 'Yes.' }, 'Answer must be at least 20 characters'],
      [{ question: 'Short?' }, 'Question must be at least 10 characters'],
      [{ tags: ['x'.repeat(61)] }, 'A tag must be at most 60 characters'],
    ];
    for (const [body, message] of edits) {
      const res = await call(app, 'POST', `/api/library-suggestions/${s.id}/approve`, { as: t.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data.error).toContain(message);
    }
    const list = await call(app, 'GET', '/api/library-suggestions?status=pending', { as: t.admin });
    expect(list.data.map((x: { id: string }) => x.id)).toContain(s.id);
  });
});
