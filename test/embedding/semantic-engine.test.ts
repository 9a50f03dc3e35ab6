import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, isNull, or, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { call, type Session } from '../helpers/api';
import { createAnswer, createOrg, createUser } from '../helpers/factories';
import { canonicalAnswers } from '../../server/db/schema';
import { defaultModel, modelDir, ownModel } from '../../server/embedding/model-spec';
import { verifyModel } from '../../server/embedding/setup';
import { createEmbedder, localModelName } from '../../server/embedding/embedder';
import pino from 'pino';
import { loadConfig } from '../../server/config';
import { waitUntil } from '../helpers/wait';
import { postMultipart, waitForBatch } from '../helpers/assessments';
import ExcelJS from 'exceljs';

/**
 * The engine with the real models: Verity's own (committed under models/) and the published one it falls back to
 * (obtained by `npm run models`, which `.ci/run` runs). Without the published model the fallback's test is skipped
 * with a note, unless VERITY_REQUIRE_MODEL=1 (CI), where a missing model fails it.
 */
const spec = ownModel();
const fallback = defaultModel();
const { modelsDir, ownModelsDir } = loadConfig({ ...process.env, EMBEDDING_PROVIDER: 'local' }).embedding;
const present = (await verifyModel(modelDir(ownModelsDir, spec), spec)).ok;
const fallbackPresent = (await verifyModel(modelDir(modelsDir, fallback), fallback)).ok;
const required = process.env.VERITY_REQUIRE_MODEL === '1';
if (!present && !required) console.warn(`semantic-engine.test.ts skipped: no model in ${ownModelsDir}`);
if (!fallbackPresent && !required)
  console.warn(`semantic-engine.test.ts: the fallback's test skipped: no model in ${modelsDir} (npm run models)`);

describe.skipIf(!present && !required)('answers with the built-in embedding model', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Its own database: on the shared PostgreSQL this app's worker would embed every other test file's rows too.
    app = await createTestApp({ env: { EMBEDDING_PROVIDER: 'local' }, privateDatabase: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  const ask = (as: Session, question: string) => call(app, 'POST', '/api/qa/ask', { as, body: { question } });

  async function allEmbedded(organizationId: string) {
    await waitUntil(
      async () => {
        const waiting = await app.database.db
          .select({ id: canonicalAnswers.id })
          .from(canonicalAnswers)
          .where(
            and(
              eq(canonicalAnswers.organizationId, organizationId),
              or(isNull(canonicalAnswers.embedding), ne(canonicalAnswers.embeddingModel, localModelName(spec))),
            ),
          );
        if (waiting.length > 0) throw new Error(`${waiting.length} entries still waiting`);
      },
      { interval: 100 },
    );
  }

  it('tells admins the engine matches by meaning', async () => {
    const org = await createOrg(app);
    const res = await call(app, 'GET', '/api/admin/engine', { as: org.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ semantic: true, provider: 'local', model: localModelName(spec), notice: null });
  });

  it('ranks first the entry a question means, in words the entry does not use', async () => {
    const org = await createOrg(app);
    const library = [
      { question: 'Are pets welcome in the workplace?', answer: 'Yes. Dogs may come to the office on Fridays.' },
      { question: 'How long are backups retained?', answer: 'Database snapshots are kept for 35 days.' },
      { question: 'Is customer data encrypted at rest?', answer: 'Yes. Storage volumes use AES-256.' },
      { question: 'Do you hold ISO 27001 certification?', answer: 'Yes. Certified since 2021 by BSI.' },
      { question: 'Do you run a bug bounty?', answer: 'Yes, on HackerOne since 2020.' },
    ];
    const ids: string[] = [];
    for (const e of library) ids.push((await createAnswer(app, org.admin, e)).id);
    await allEmbedded(org.organizationId);
    const cases: Array<[string, number]> = [
      ['Can employees bring their animals to the office?', 0],
      ['For how many days do you keep restore points?', 1],
      ['Is stored client information protected with cryptography?', 2],
    ];
    for (const [question, want] of cases) {
      const res = await ask(org.admin, question);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { matches?: Array<{ id: string }>; sources: Array<{ canonicalAnswerId?: string }> };
      const first = body.matches?.[0]?.id ?? body.sources[0]?.canonicalAnswerId;
      expect(first, question).toBe(ids[want]);
    }
  });

  it('embeds questions asked for together exactly as one by one', async () => {
    const config = loadConfig({ ...process.env, EMBEDDING_PROVIDER: 'local' }).embedding;
    const embedder = await createEmbedder(config, null, pino({ level: 'silent' }));
    if (!embedder) throw new Error('no embedder');
    try {
      // Lengths far apart: embedded in one model call, the shorter ones would be padded to the longest.
      const texts = [
        'Can employees bring their animals to the office?',
        'Backups kept how long?',
        'Is stored client information protected with cryptography, and which algorithm and key length are used for it?',
        'Do you hold FedRAMP High authorization?',
        'For how many days do you keep restore points of production databases and file stores?',
        'MFA?',
      ];
      const together = await embedder.embedQueries(texts);
      for (const [i, text] of texts.entries()) {
        expect(Array.from(together[i] ?? [])).toEqual(Array.from(await embedder.embedQuery(text)));
      }
    } finally {
      await embedder.close();
    }
  });

  it('answers a bulk assessment as Ask does, its questions embedded together ahead of answering', async () => {
    const org = await createOrg(app);
    for (const e of [
      { question: 'Are pets welcome in the workplace?', answer: 'Yes. Dogs may come to the office on Fridays.' },
      { question: 'How long are backups retained?', answer: 'Database snapshots are kept for 35 days.' },
      { question: 'Is customer data encrypted at rest?', answer: 'Yes. Storage volumes use AES-256.' },
    ])
      await createAnswer(app, org.admin, e);
    await allEmbedded(org.organizationId);
    // Lengths far apart, so that the questions embedded in one call are padded to the longest.
    const questions = [
      'Can employees bring their animals to the office?',
      'Backups kept how long?',
      'Is stored client information protected with cryptography, and which algorithm and key length are used for it?',
      'Do you hold FedRAMP High authorization?',
      'For how many days do you keep restore points of production databases and file stores?',
    ];
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Security');
    ws.addRow(['Question', 'Response']);
    for (const q of questions) ws.addRow([q, '']);
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      org.admin,
      { name: 'Vendor review' },
      { name: 'vendor.xlsx', bytes: new Uint8Array(await wb.xlsx.writeBuffer()) },
    );
    expect(res.statusCode, res.body).toBe(201);
    const d = await waitForBatch(app, org.admin, res.data.id);
    const verdict = (a: { answerType: string | null; confidence: number | null; answer: string | null }) => ({
      answerType: a.answerType,
      confidence: a.confidence,
      answer: a.answer,
    });
    const fromBulk = [...d.questions].sort((a, b) => a.orderIndex - b.orderIndex).map(verdict);
    const fromAsk = [];
    for (const q of questions) fromAsk.push(verdict((await ask(org.admin, q)).json()));
    expect(fromBulk).toEqual(fromAsk);
    expect(fromBulk.filter((v) => v.answerType === 'canonical').length).toBeGreaterThan(0);
  });

  it('answers long, emoji and non-English questions, or sends them to review, never an error', async () => {
    const org = await createOrg(app);
    await createAnswer(app, org.admin, {
      question: 'How long are backups retained?',
      answer: 'Database snapshots are kept for 35 days.',
    });
    await allEmbedded(org.organizationId);
    for (const question of [
      `${'Please describe in detail how backups are handled. '.repeat(38)}How long are they kept?`,
      '🔐🔐🔐 backups? 🙂',
      '备份数据保留多长时间？',
      'Combien de temps conservez-vous les sauvegardes ?',
    ]) {
      const res = await ask(org.admin, question);
      expect(res.statusCode, question.slice(0, 40)).toBe(200);
      expect(['canonical', 'draft', 'generated', 'unknown']).toContain(
        (res.json() as { answerType: string }).answerType,
      );
    }
    const tooLong = await ask(org.admin, 'x'.repeat(10_000));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ code: expect.any(String), error: expect.stringMatching(/at most/) });
  });
});

describe.skipIf(!fallbackPresent && !required)("when Verity's own model is tampered with", () => {
  it('answers by meaning with the published model and tells admins why and how to fix it', async () => {
    const tampered = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-own-models-'));
    const app = await (async () => {
      fs.cpSync(modelDir(ownModelsDir, spec), modelDir(tampered, spec), { recursive: true });
      const file = path.join(modelDir(tampered, spec), 'model.onnx');
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
      fs.writeFileSync(file, bytes);
      return createTestApp({ env: { EMBEDDING_PROVIDER: 'local', OWN_MODELS_DIR: tampered } });
    })();
    try {
      const org = await createOrg(app);
      const res = await call(app, 'GET', '/api/admin/engine', { as: org.admin });
      expect(res.json()).toEqual({
        semantic: true,
        provider: 'local',
        model: localModelName(fallback),
        notice: expect.stringContaining(spec.id),
      });
      // Only admins are told.
      const viewer = await createUser(app, org.admin, 'viewer');
      expect((await call(app, 'GET', '/api/admin/engine', { as: viewer })).statusCode).toBe(403);
      await createAnswer(app, org.admin, {
        question: 'How long are backups retained?',
        answer: 'Database snapshots are kept for 35 days.',
      });
      const answered = await ask(app, org.admin, 'How long are backups retained?');
      expect((answered.json() as { answerType: string }).answerType).toBe('canonical');
    } finally {
      await app.close();
      fs.rmSync(tampered, { recursive: true, force: true });
    }
  });
});

describe('without the model', () => {
  it('tells admins answers use keywords only', async () => {
    const app = await createTestApp({
      env: {
        EMBEDDING_PROVIDER: 'local',
        MODELS_DIR: '/nonexistent/verity-models',
        OWN_MODELS_DIR: '/nonexistent/verity-own-models',
      },
    });
    try {
      const org = await createOrg(app);
      const res = await call(app, 'GET', '/api/admin/engine', { as: org.admin });
      expect(res.json()).toEqual({ semantic: false, provider: 'local', model: null, notice: null });
      await createAnswer(app, org.admin, {
        question: 'How long are backups retained?',
        answer: 'Database snapshots are kept for 35 days.',
      });
      const answered = await ask(app, org.admin, 'How long are backups retained?');
      expect(answered.statusCode).toBe(200);
      expect((answered.json() as { answerType: string }).answerType).toBe('canonical');
    } finally {
      await app.close();
    }
  });
});

function ask(app: TestApp, as: Session, question: string) {
  return call(app, 'POST', '/api/qa/ask', { as, body: { question } });
}
