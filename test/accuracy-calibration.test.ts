import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccuracyCalibration, AccuracyView } from '../common/schemas/accuracy';
import type { AssessmentDetail, AssessmentQuestionView } from '../common/schemas/assessments';
import { assessmentQuestions } from '../server/db/schema';
import { createTestApp, type TestApp } from './helpers/app';
import { plantOutcomes } from './helpers/outcomes';
import { call, type Session } from './helpers/api';
import { createAnswer, createTenant, type Tenant } from './helpers/factories';
import { importCsv, waitForBatch } from './helpers/assessments';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const MFA_Q = 'Is multi-factor authentication required for all employee access to production systems?';
const MFA_A = 'Yes. Every employee signs in through Okta with phishing-resistant MFA (FIDO2 security keys).';
const ENC_Q = 'Is customer data encrypted at rest in every production datastore?';
const ENC_A = 'Yes. All production datastores use AES-256 encryption at rest with keys held in AWS KMS.';
const DRONE_Q = 'Does your company operate delivery drones over customer sites?';

/** A tenant whose library answers MFA_Q and ENC_Q verbatim, and an unreviewed assessment of those two and DRONE_Q. */
async function answeredAssessment() {
  const t = await createTenant(app);
  await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, tags: ['mfa'] });
  await createAnswer(app, t.users.admin, { question: ENC_Q, answer: ENC_A, tags: ['encryption'] });
  const csv = `Category,Question\nAccess,"${MFA_Q}"\nData,"${ENC_Q}"\nOps,"${DRONE_Q}"\n`;
  const created = await importCsv(app, t.users.contributor, csv, 'Acme calibration');
  await waitForBatch(app, t.users.contributor, created.id);
  return { t, batchId: created.id };
}

type Seed = { confidence: number; kept: boolean; answerType?: string };

/** `seeds` reviewed machine answers written directly (helpers/outcomes.ts): kept ones unchanged, the rest replaced. */
const seedOutcomes = (t: Tenant, seeds: readonly Seed[]) =>
  plantOutcomes(
    app,
    t,
    seeds.map((s) => ({
      confidence: s.confidence,
      outcome: s.kept ? 'unchanged' : 'replaced',
      answerType: s.answerType,
    })),
  );

/** `n` reviews spread over 50–99%, of which only 60% were kept whatever the engine said: it is overconfident here. */
function overconfident(n: number): Seed[] {
  return Array.from({ length: n }, (_, i) => ({ confidence: 50 + (i % 50), kept: i % 5 < 3 }));
}

async function calibration(as: Session) {
  const res = await call(app, 'GET', '/api/admin/accuracy', { as });
  expect(res.statusCode, res.body).toBe(200);
  return (res.data as AccuracyView).calibration;
}

async function setCalibration(as: Session, enabled: unknown, headers?: Record<string, string>) {
  return call(app, 'PUT', '/api/admin/accuracy/calibration', { as, body: { enabled }, headers });
}

async function detail(as: Session, batchId: string) {
  const res = await call(app, 'GET', `/api/assessments/${batchId}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return (res.data as AssessmentDetail).questions;
}

const byQuestion = (questions: readonly AssessmentQuestionView[], q: string) => {
  const found = questions.find((x) => x.question === q);
  if (!found) throw new Error(`no question ${q}`);
  return found;
};

describe('the workspace’s own calibration of the confidence', () => {
  it('is off by default, and switching it on before 200 reviews changes nothing shown', async () => {
    const { t, batchId } = await answeredAssessment();
    await seedOutcomes(t, overconfident(199));
    const before = await calibration(t.users.manager);
    expect(before).toEqual({
      enabled: false,
      reviews: 199,
      minReviews: 200,
      available: false,
      active: false,
      curve: [],
    } satisfies AccuracyCalibration);
    const shown = await detail(t.users.manager, batchId);

    const res = await setCalibration(t.users.manager, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ enabled: true, reviews: 199, available: false, active: false, curve: [] });
    expect(await calibration(t.users.admin)).toMatchObject({ enabled: true, available: false, active: false });
    const after = await detail(t.users.manager, batchId);
    expect(after).toEqual(shown);
    for (const q of after) expect(q.confidenceCalibrated).toBe(false);
  });

  it('Needs Review rows state no confidence and do not count', async () => {
    const t = await createTenant(app);
    await seedOutcomes(t, [
      ...overconfident(199),
      ...Array.from({ length: 20 }, () => ({ confidence: 0, kept: false, answerType: 'unknown' })),
    ]);
    expect(await calibration(t.users.manager)).toMatchObject({ reviews: 199, available: false });
  });

  it('with 200 reviews fits a monotone curve and shows the recalibrated confidence, never another answer', async () => {
    const { t, batchId } = await answeredAssessment();
    await seedOutcomes(t, overconfident(250));
    const engine = await detail(t.users.manager, batchId);
    const mfa = byQuestion(engine, MFA_Q);
    expect(mfa).toMatchObject({ answerType: 'canonical', confidenceCalibrated: false });
    expect(mfa.engineConfidence).toBe(mfa.confidence);
    const stored = await app.database.db
      .select({ id: assessmentQuestions.id, confidence: assessmentQuestions.confidence })
      .from(assessmentQuestions)
      .where(eq(assessmentQuestions.batchId, batchId));

    // Available, drawn on the chart, but not shown to reviewers until switched on.
    const off = await calibration(t.users.manager);
    expect(off).toMatchObject({ enabled: false, reviews: 250, available: true, active: false });
    expect(off.curve.length).toBeGreaterThan(0);
    for (const [a, b] of off.curve.slice(1).map((s, i) => [off.curve[i], s] as const)) {
      expect(b.confidence).toBeGreaterThan(a?.confidence ?? -1);
      expect(b.calibrated).toBeGreaterThanOrEqual(a?.calibrated ?? 0);
    }
    expect(byQuestion(await detail(t.users.manager, batchId), MFA_Q).confidenceCalibrated).toBe(false);

    expect((await setCalibration(t.users.manager, true)).statusCode).toBe(200);
    expect(await calibration(t.users.manager)).toMatchObject({ enabled: true, active: true });
    const calibrated = await detail(t.users.manager, batchId);
    for (const q of calibrated) {
      const was = engine.find((x) => x.id === q.id);
      // Only the figure shown changes: the answer, its type and the engine's own figure stay as they were.
      expect({ answer: q.answer, answerType: q.answerType, engineConfidence: q.engineConfidence }).toEqual({
        answer: was?.answer,
        answerType: was?.answerType,
        engineConfidence: was?.confidence,
      });
    }
    const mfaNow = byQuestion(calibrated, MFA_Q);
    expect(mfaNow.confidenceCalibrated).toBe(true);
    // 60% of this workspace's high-confidence answers were kept: the shown figure drops well below the engine's.
    expect(mfaNow.confidence ?? 100).toBeLessThan((mfa.confidence ?? 0) - 10);
    expect(mfaNow.confidence ?? 0).toBeGreaterThan(40);
    // Needs Review states no confidence, and stays so.
    expect(byQuestion(calibrated, DRONE_Q)).toMatchObject({ answerType: 'unknown', confidenceCalibrated: false });

    // The stored confidence is the engine's.
    const storedNow = await app.database.db
      .select({ id: assessmentQuestions.id, confidence: assessmentQuestions.confidence })
      .from(assessmentQuestions)
      .where(eq(assessmentQuestions.batchId, batchId));
    expect(storedNow).toEqual(expect.arrayContaining(stored));
    expect(storedNow).toHaveLength(stored.length);

    // Switching off restores the engine's figure.
    const off2 = await setCalibration(t.users.admin, false);
    expect(off2.data).toMatchObject({ enabled: false, available: true, active: false });
    expect(await detail(t.users.manager, batchId)).toEqual(engine);
  });

  it('bulk accept compares the figure the reviewer sees', async () => {
    const { t, batchId } = await answeredAssessment();
    await seedOutcomes(t, overconfident(250));
    expect((await setCalibration(t.users.manager, true)).statusCode).toBe(200);
    const shown = byQuestion(await detail(t.users.manager, batchId), MFA_Q);
    expect(shown.confidenceCalibrated).toBe(true);
    const above = (shown.confidence ?? 0) + 1;
    // Above the shown figure though below the engine's: nothing is accepted.
    expect(above).toBeLessThanOrEqual(shown.engineConfidence ?? 0);
    const none = await call(app, 'POST', `/api/assessments/${batchId}/review`, {
      as: t.users.manager,
      body: { action: 'accept', minConfidence: above },
    });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.data).toEqual({ updated: 0 });
    const accepted = await call(app, 'POST', `/api/assessments/${batchId}/review`, {
      as: t.users.manager,
      body: { action: 'accept', minConfidence: shown.confidence },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((accepted.data as { updated: number }).updated).toBeGreaterThanOrEqual(1);
    expect(byQuestion(await detail(t.users.manager, batchId), MFA_Q).reviewState).toBe('approved');
  });

  it('refuses a body that is not {enabled: boolean}', async () => {
    const t = await createTenant(app);
    for (const body of [{}, { enabled: 'yes' }, { enabled: 1 }, null]) {
      const res = await call(app, 'PUT', '/api/admin/accuracy/calibration', { as: t.users.manager, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data.error).toMatch(/^[A-Za-z].*\S/);
    }
    expect(await calibration(t.users.manager)).toMatchObject({ enabled: false });
  });

  it('is switched by managers and admins of the workspace’s own organization', async () => {
    const t = await createTenant(app);
    const other = await createTenant(app);
    for (const [user, status] of [
      [t.users.viewer, 403],
      [t.users.contributor, 403],
      [t.users.manager, 200],
      [t.users.admin, 200],
    ] as const) {
      expect((await setCalibration(user, true)).statusCode, user.role).toBe(status);
    }
    const cross = await setCalibration(t.users.admin, true, { 'x-workspace-id': other.workspaceId });
    expect(cross.statusCode).toBe(404);
    expect(await calibration(other.users.admin)).toMatchObject({ enabled: false });
  });
});
