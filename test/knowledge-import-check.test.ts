import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createOrg, createTenant } from './helpers/factories';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const ANSWER = 'Yes. All customer data is encrypted at rest with AES-256.';

/** The Import Q&A preview asks the server which entries it would skip, before anything is saved. */
describe('POST /api/canonical-answers/import with dryRun: the preview check', () => {
  it('names questions the workspace already has and repeats within the import, and saves nothing', async () => {
    const org = await createOrg(app);
    const existing = await createAnswer(app, org.admin, { question: 'Do you encrypt data at rest?' });
    const entries = [
      { question: 'do you ENCRYPT data at rest', answer: ANSWER },
      { question: 'Is MFA enforced for every employee?', answer: ANSWER },
      { question: 'Is MFA enforced for every employee', answer: ANSWER },
    ];
    const res = await call(app, 'POST', '/api/canonical-answers/import', {
      as: org.admin,
      body: { entries, dryRun: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      imported: 1,
      skipped: 2,
      duplicates: [
        { index: 0, question: entries[0]?.question, existingId: existing.id },
        { index: 2, question: entries[2]?.question, existingId: null },
      ],
    });

    const list = await call(app, 'GET', '/api/canonical-answers', { as: org.admin });
    expect(list.data.map((e: { question: string }) => e.question)).toEqual(['Do you encrypt data at rest?']);
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data.some((l: { action: string }) => l.action === 'canonical_answers_imported')).toBe(false);
  });

  it('without dryRun the import saves as before', async () => {
    const org = await createOrg(app);
    const res = await call(app, 'POST', '/api/canonical-answers/import', {
      as: org.admin,
      body: { entries: [{ question: 'Do you run yearly penetration tests?', answer: ANSWER }] },
    });
    expect(res.data).toMatchObject({ imported: 1, skipped: 0 });
  });

  it('refuses a dryRun that is not a boolean', async () => {
    const org = await createOrg(app);
    const res = await call(app, 'POST', '/api/canonical-answers/import', {
      as: org.admin,
      body: { entries: [{ question: 'Do you run yearly penetration tests?', answer: ANSWER }], dryRun: 'yes' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('dryRun must be true or false');
  });

  it('only compares with the caller’s own workspace, and is refused to roles that cannot import', async () => {
    const a = await createTenant(app);
    const b = await createOrg(app);
    await createAnswer(app, b.admin, { question: 'Do you encrypt data at rest?' });
    const body = { entries: [{ question: 'Do you encrypt data at rest?', answer: ANSWER }], dryRun: true };
    const mine = await call(app, 'POST', '/api/canonical-answers/import', { as: a.admin, body });
    expect(mine.data).toMatchObject({ imported: 1, skipped: 0, duplicates: [] });
    for (const role of ['contributor', 'viewer'] as const) {
      const res = await call(app, 'POST', '/api/canonical-answers/import', { as: a.users[role], body });
      expect(res.statusCode).toBe(403);
    }
  });
});
