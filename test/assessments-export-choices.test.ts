import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { importCsv, waitForBatch } from './helpers/assessments';
import { createAnswer, createTenantPair } from './helpers/factories';

// An export of "all answers" lets the reviewer choose both kinds of unreviewed answer: Verity's own (in by default)
// and a colleague's unapproved draft (out by default), independently.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const MACHINE_Q = 'Is customer data encrypted at rest in every datastore?';
const MACHINE_A = 'Yes. Every datastore volume is encrypted with AES-256.';
const PERSON_Q = 'Do you carry cyber liability insurance?';
const PERSON_A = 'Yes, a policy of 5 million covers cyber incidents.';
const APPROVED_Q = 'Do you hold an ISO 27001 certificate?';
const APPROVED_A = 'Yes. Certified since 2021 by BSI.';

async function assessment(as: { admin: Session; manager: Session; contributor: Session }) {
  await createAnswer(app, as.admin, { question: MACHINE_Q, answer: MACHINE_A });
  await createAnswer(app, as.admin, { question: APPROVED_Q, answer: APPROVED_A });
  const created = await importCsv(app, as.contributor, `Question\n"${MACHINE_Q}"\n"${PERSON_Q}"\n"${APPROVED_Q}"\n`);
  const detail = await waitForBatch(app, as.contributor, created.id);
  const id = (q: string) => detail.questions.find((x) => x.question === q)?.id ?? '';
  const written = await call(app, 'PUT', `/api/assessments/${created.id}/questions/${id(PERSON_Q)}`, {
    as: as.contributor,
    body: { answer: PERSON_A },
  });
  expect(written.statusCode, written.body).toBe(200);
  const approved = await call(app, 'POST', `/api/assessments/${created.id}/questions/${id(APPROVED_Q)}/review`, {
    as: as.manager,
    body: { action: 'approve' },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return created.id;
}

async function exported(as: Session, id: string, query: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/assessments/${id}/export?format=csv${query}`,
    headers: { cookie: as.cookie },
  });
  return res;
}

describe('choosing which unreviewed answers an export of all answers holds', () => {
  it("takes Verity's unreviewed answers and a colleague's drafts each on their own", async () => {
    const { a } = await createTenantPair(app);
    const id = await assessment(a.users);

    const standard = await exported(a.users.viewer, id, '');
    expect(standard.body).toContain(MACHINE_A);
    expect(standard.body).not.toContain(PERSON_A);
    expect(standard.body).toContain(APPROVED_A);

    const draftsOnly = await exported(a.users.viewer, id, '&machine=0&drafts=1');
    expect(draftsOnly.statusCode).toBe(200);
    expect(draftsOnly.body).not.toContain(MACHINE_A);
    expect(draftsOnly.body).toContain(`Draft — not approved: ${PERSON_A}`);
    expect(draftsOnly.body).toContain(APPROVED_A);
    expect(draftsOnly.headers['content-disposition']).toContain('approved answers and drafts.csv');

    const neither = await exported(a.users.viewer, id, '&machine=0');
    expect(neither.body).not.toContain(MACHINE_A);
    expect(neither.body).not.toContain(PERSON_A);
    expect(neither.body).toContain(APPROVED_A);
    expect(neither.headers['content-disposition']).toContain('approved answers only.csv');
  });

  it('refuses an unknown value, and another organization gets 404', async () => {
    const { a, b } = await createTenantPair(app);
    const id = await assessment(a.users);
    const bad = await exported(a.users.viewer, id, '&machine=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'validation_error',
      error: expect.stringContaining('machine must be 0 or 1'),
    });
    expect((await exported(b.users.admin, id, '&machine=0')).statusCode).toBe(404);
  });
});
