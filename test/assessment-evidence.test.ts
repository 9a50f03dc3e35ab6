import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentDetail, AssessmentQuestionView } from '../common/schemas/assessments';
import type { EvidenceResponse } from '../common/schemas/evidence';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createAnswer, createTenant, type Tenant } from './helpers/factories';
import { importCsv, waitForBatch } from './helpers/assessments';
import { settledDocument, uploadDocument } from './helpers/documents';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const ENC_Q = 'Is customer data encrypted at rest in every production datastore?';
const ENC_A = 'Yes. All production datastores use AES-256 encryption at rest with keys held in AWS KMS.';
const VPN_Q = 'Do remote employees connect through a VPN?';
const VPN_A = 'Yes. Remote staff reach internal systems only through the corporate WireGuard VPN.';
const POLICY =
  'Backup Policy\n\nBackups of production databases are taken every six hours and kept for 35 days.\n' +
  'Backup copies are stored in a second region and restored in a test every quarter.\n';

/** A tenant with two library entries, a ready backup policy, and an assessment asking about both subjects. */
async function questionsToAnswer() {
  const t = await createTenant(app);
  await createAnswer(app, t.users.admin, { question: ENC_Q, answer: ENC_A, tags: ['encryption'] });
  await createAnswer(app, t.users.admin, { question: VPN_Q, answer: VPN_A, tags: ['remote'] });
  const upload = await uploadDocument(app, t.users.admin, new TextEncoder().encode(POLICY), 'backup-policy.txt', {
    mimeType: 'text/plain',
  });
  expect(upload.statusCode, upload.body).toBe(201);
  expect((await settledDocument(app, t.users.admin, (upload.data as { id: string }).id)).status).toBe('ready');
  const csv =
    'Question\n"Describe how stored customer information is encrypted."\n"How often are backups of production databases taken?"\n';
  const created = await importCsv(app, t.users.contributor, csv, 'Evidence review');
  const d = (await waitForBatch(app, t.users.contributor, created.id)) as unknown as AssessmentDetail;
  const [encryption, backups] = d.questions as [AssessmentQuestionView, AssessmentQuestionView];
  return { t, batchId: created.id, encryption, backups };
}

const evidenceUrl = (batchId: string, qid: string, q?: string) =>
  `/api/assessments/${batchId}/questions/${qid}/evidence${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`;

async function evidence(as: Session, batchId: string, qid: string, q?: string): Promise<EvidenceResponse> {
  const res = await call(app, 'GET', evidenceUrl(batchId, qid, q), { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as EvidenceResponse;
}

describe('evidence for a person writing an answer', () => {
  let setup: Awaited<ReturnType<typeof questionsToAnswer>>;
  beforeAll(async () => {
    setup = await questionsToAnswer();
  });

  it("searches the question's own words when nothing is typed, and ranks the entry that answers it first", async () => {
    const { t, batchId, encryption } = setup;
    const found = await evidence(t.users.contributor, batchId, encryption.id);
    expect(found.query).toBe(encryption.question);
    expect(found.entries[0]).toMatchObject({ question: ENC_Q, answer: ENC_A, status: 'approved' });
    expect(found.entries[0]?.match).toBeGreaterThan(0);
    // The remote-access entry has nothing to do with encryption: not listed at 0%.
    expect(found.entries.map((e) => e.question)).not.toContain(VPN_Q);
  });

  it("finds a document's passage with its name, for a question the library does not cover", async () => {
    const { t, batchId, backups } = setup;
    const found = await evidence(t.users.contributor, batchId, backups.id);
    expect(found.passages[0]).toMatchObject({ name: 'backup-policy.txt' });
    expect(found.passages[0]?.text).toContain('every six hours');
  });

  it('searches typed words instead of the question, so a person can look for what the engine missed', async () => {
    const { t, batchId, backups } = setup;
    const found = await evidence(t.users.contributor, batchId, backups.id, '  WireGuard VPN for remote staff ');
    expect(found.query).toBe('WireGuard VPN for remote staff');
    expect(found.entries[0]).toMatchObject({ question: VPN_Q });
  });

  it('lets the person cite what it found, and the answer then shows that source as theirs', async () => {
    const { t, batchId, backups } = setup;
    const [passage] = (await evidence(t.users.contributor, batchId, backups.id)).passages;
    const res = await call(app, 'PUT', `/api/assessments/${batchId}/questions/${backups.id}`, {
      as: t.users.contributor,
      body: { answer: 'Every six hours, kept for 35 days.', cite: { type: 'document', id: passage?.documentId } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.data as AssessmentQuestionView).sources).toEqual([
      expect.objectContaining({ type: 'document', documentId: passage?.documentId, name: 'backup-policy.txt' }),
    ]);
  });
});

describe('evidence: bad input, roles and tenants', () => {
  let setup: Awaited<ReturnType<typeof questionsToAnswer>>;
  let other: Tenant;
  beforeAll(async () => {
    setup = await questionsToAnswer();
    other = await createTenant(app);
  });

  it('refuses a search longer than a question with a sentence', async () => {
    const { t, batchId, encryption } = setup;
    const res = await call(app, 'GET', evidenceUrl(batchId, encryption.id, 'x'.repeat(2001)), {
      as: t.users.contributor,
    });
    expect(res.statusCode).toBe(400);
    expect(res.data).toMatchObject({ error: expect.stringContaining('at most 2000 characters') });
  });

  it('refuses an id that is not one', async () => {
    const res = await call(app, 'GET', evidenceUrl(setup.batchId, 'not-an-id'), { as: setup.t.users.contributor });
    expect(res.statusCode).toBe(400);
  });

  it('is not for viewers, who cannot write answers', async () => {
    const res = await call(app, 'GET', evidenceUrl(setup.batchId, setup.encryption.id), { as: setup.t.users.viewer });
    expect(res.statusCode).toBe(403);
  });

  it("does not show another organization's question, nor search its library", async () => {
    const res = await call(app, 'GET', evidenceUrl(setup.batchId, setup.encryption.id), { as: other.users.admin });
    expect(res.statusCode).toBe(404);
  });
});
