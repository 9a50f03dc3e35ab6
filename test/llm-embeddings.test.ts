import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { capturedLog } from './helpers/captured-log';
import { call, type Session } from './helpers/api';
import { createAnswer, createOrg } from './helpers/factories';
import { settledDocument, uploadDocument } from './helpers/documents';
import {
  FAKE_DIMENSIONS,
  cosine,
  defaultEmbeddings,
  fakeEmbedding,
  startFakeOpenAI,
  type FakeOpenAI,
} from './helpers/fake-openai';
import { canonicalAnswers, documentChunks } from '../server/db/schema';
import { termsOf } from '../server/engine/text/thesaurus';
import { createLlmClient } from '../server/llm/client';
import { embedPending } from '../server/worker/embed-sweep';
import { endpointEmbedder } from '../server/embedding/embedder';
import { waitUntil } from './helpers/wait';

/**
 * Embeddings end to end: the worker's sweep fills them in the background, the engine searches them per
 * workspace, and a paraphrase that shares no word with the library or a document is still found.
 */

type LogLine = { level: number; msg: string };
const { log, lines: logLines } = capturedLog<LogLine>();

const MODEL = 'fake-embed';
let fake: FakeOpenAI;
let app: TestApp;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  app = await createTestApp({
    log,
    env: {
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'test-model',
      EMBEDDING_MODEL: MODEL,
      LLM_TIMEOUT_MS: '1500',
      LLM_MAX_RETRIES: '0',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  logLines.length = 0;
});

const ask = (as: Session, question: string) => call(app, 'POST', '/api/qa/ask', { as, body: { question } });

/** Rows of the organization still waiting for an embedding of MODEL. */
async function waiting(organizationId: string): Promise<number> {
  const db = app.database.db;
  const entries = await db
    .select({ model: canonicalAnswers.embeddingModel, embedding: canonicalAnswers.embedding })
    .from(canonicalAnswers)
    .where(eq(canonicalAnswers.organizationId, organizationId));
  const chunks = await db
    .select({ model: documentChunks.embeddingModel, embedding: documentChunks.embedding })
    .from(documentChunks)
    .where(eq(documentChunks.organizationId, organizationId));
  return [...entries, ...chunks].filter((r) => r.model !== MODEL || r.embedding === null).length;
}

async function allEmbedded(organizationId: string) {
  await waitUntil(
    async () => {
      const n = await waiting(organizationId);
      if (n > 0) throw new Error(`${n} rows still waiting for an embedding`);
    },
    { interval: 100 },
  );
}

async function entryRow(id: string) {
  const [row] = await app.database.db.select().from(canonicalAnswers).where(eq(canonicalAnswers.id, id));
  if (!row) throw new Error('entry gone');
  return row;
}

// The premise of the paraphrase tests: after the engine's own thesaurus and stemming, nothing is shared.
const PET_QUESTION = 'Are pets welcome in the workplace?';
const PET_ENTRY = { question: 'Can dogs come to the office?', answer: 'Yes. Dogs may come to the office on Fridays.' };
const MEAL_QUESTION = 'Do you cover meal costs?';
const CANTEEN = '# Canteen\n\nLunch is subsidised for all personnel.\n';

describe('the embedding sweep', () => {
  it('embeds library entries and chunks in the background, one workspace per request', async () => {
    const a = await createOrg(app);
    const b = await createOrg(app);
    const entry = await createAnswer(app, a.admin, {
      question: 'Do you rotate encryption keys?',
      answer: 'Yes. Acme rotates keys every 90 days.',
    });
    await createAnswer(app, a.admin, {
      question: 'Do you have an incident response plan?',
      answer: 'Yes. Acme tests it yearly.',
    });
    await createAnswer(app, b.admin, {
      question: 'Do you rotate encryption keys?',
      answer: 'Yes. Globex rotates keys monthly.',
    });
    const doc = await uploadDocument(
      app,
      a.admin,
      Buffer.from(`${CANTEEN}\n# Keys\n\nAcme keys live in an HSM.\n`),
      'a.md',
    );
    await settledDocument(app, a.admin, doc.data.id);
    await allEmbedded(a.organizationId);
    await allEmbedded(b.organizationId);

    const row = await entryRow(entry.id);
    expect(row.embeddingModel).toBe(MODEL);
    expect(row.embedding).toHaveLength(FAKE_DIMENSIONS);
    expect(cosine(row.embedding ?? [], fakeEmbedding(`${entry.question}\n${entry.answer}`))).toBeGreaterThan(0.999);
    const chunks = await app.database.db
      .select()
      .from(documentChunks)
      .where(eq(documentChunks.documentId, doc.data.id));
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) {
      expect(c.embeddingModel).toBe(MODEL);
      const text = c.section ? `${c.section}\n${c.text}` : c.text;
      expect(cosine(c.embedding ?? [], fakeEmbedding(text))).toBeGreaterThan(0.999);
    }
    for (const r of fake.embeddingRequests()) {
      expect(r.body).toMatchObject({ model: MODEL, encoding_format: 'float' });
      expect(r.input.length).toBeLessThanOrEqual(64);
      const mixes = r.input.some((x) => x.includes('Acme')) && r.input.some((x) => x.includes('Globex'));
      expect(mixes).toBe(false);
    }
  });

  it('never makes an import wait on the endpoint; the entries are embedded afterwards, in batches', async () => {
    const org = await createOrg(app);
    fake.onEmbeddings = () => ({ hang: true });
    const entries = Array.from({ length: 150 }, (_, i) => ({
      question: `Is system ${i} of Initech covered by the backup policy?`,
      answer: `Yes. System ${i} is backed up nightly.`,
    }));
    const res = await call(app, 'POST', '/api/canonical-answers/import', { as: org.admin, body: { entries } });
    expect(res.statusCode).toBe(200);
    expect(res.data.imported).toBe(150);
    expect(await waiting(org.organizationId)).toBe(150);

    fake.reset();
    const before = fake.embeddingRequests().length;
    await allEmbedded(org.organizationId);
    const batches = fake
      .embeddingRequests()
      .slice(before)
      .filter((r) => r.input.some((x) => x.includes('Initech')));
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(batches.every((r) => r.input.length <= 64)).toBe(true);
  });
});

describe('several workers', () => {
  it('embed the same rows at once without harm, and never store the vector of text edited meanwhile', async () => {
    const org = await createOrg(app);
    // Held back until the race below is set up (the app's own worker would embed them at once).
    fake.onEmbeddings = () => ({ hang: true });
    const entries = [];
    for (let i = 0; i < 12; i += 1) {
      entries.push(
        await createAnswer(app, org.admin, {
          question: `Does Hooli service ${i} encrypt its queue?`,
          answer: `Yes. Queue ${i} is encrypted.`,
        }),
      );
    }
    const target = entries[0]!;
    const edited = 'Yes. Queue 0 was replaced by an encrypted stream.';
    let editedMidway = false;
    // The first request carrying the target's text sees it edited before the reply comes back.
    fake.onEmbeddings = async (req) => {
      if (!editedMidway && req.input.includes(`${target.question}\n${target.answer}`)) {
        editedMidway = true;
        const put = await call(app, 'PUT', `/api/canonical-answers/${target.id}`, {
          as: org.admin,
          body: { answer: edited },
        });
        expect(put.statusCode).toBe(200);
      }
      return defaultEmbeddings(req);
    };
    const llm = createLlmClient(
      { baseUrl: fake.url, apiKey: undefined, model: 'm', embeddingModel: MODEL, timeoutMs: 5000, maxRetries: 0 },
      pino({ level: 'silent' }),
    );
    const embedder = llm && endpointEmbedder(llm);
    if (!embedder) throw new Error('no client');
    // Two sweeps beside the app's own worker, over the same rows.
    const quiet = pino({ level: 'silent' });
    await Promise.all([
      embedPending(app.database.db, embedder, { log: quiet }),
      embedPending(app.database.db, embedder, { log: quiet }),
    ]);
    await allEmbedded(org.organizationId);
    expect(editedMidway).toBe(true);
    for (const e of entries) {
      const text = e.id === target.id ? `${e.question}\n${edited}` : `${e.question}\n${e.answer}`;
      expect(cosine((await entryRow(e.id)).embedding ?? [], fakeEmbedding(text))).toBeGreaterThan(0.999);
    }
  });
});

describe('vector retrieval', () => {
  it('finds the library entry for a paraphrase that shares no word with it, and re-embeds it after an edit', async () => {
    const questionTerms = new Set(termsOf(PET_QUESTION));
    expect(termsOf(`${PET_ENTRY.question} ${PET_ENTRY.answer}`).filter((t) => questionTerms.has(t))).toEqual([]);

    const org = await createOrg(app);
    // While the endpoint hangs nothing is embedded, and the question itself cannot be embedded: full-text only.
    fake.onEmbeddings = () => ({ hang: true });
    const entry = await createAnswer(app, org.admin, PET_ENTRY);
    const lexical = await ask(org.admin, PET_QUESTION);
    expect(lexical.data.answerType).toBe('unknown');
    expect(logLines.some((l) => l.msg.includes('embedding the question failed'))).toBe(true);

    fake.reset();
    await allEmbedded(org.organizationId);
    const found = await ask(org.admin, PET_QUESTION);
    expect(found.data).toMatchObject({
      answerType: 'canonical',
      answer: PET_ENTRY.answer,
      sources: [{ type: 'library', canonicalAnswerId: entry.id }],
    });
    expect(found.data.matches[0]).toMatchObject({ id: entry.id });

    // An edit clears the embedding at once (the old one describes other text) and the sweep computes the new one.
    fake.onEmbeddings = () => ({ hang: true });
    const edited = {
      question: 'Do you offer parking permits?',
      answer: 'Yes. Visitors get a parking permit at reception.',
    };
    const put = await call(app, 'PUT', `/api/canonical-answers/${entry.id}`, { as: org.admin, body: edited });
    expect(put.statusCode).toBe(200);
    expect(await entryRow(entry.id)).toMatchObject({ embedding: null, embeddingModel: null });
    fake.reset();
    await allEmbedded(org.organizationId);
    const row = await entryRow(entry.id);
    expect(cosine(row.embedding ?? [], fakeEmbedding(`${edited.question}\n${edited.answer}`))).toBeGreaterThan(0.999);
    // The in-memory index follows within its refresh interval: the old paraphrase no longer finds the entry.
    await waitUntil(
      async () => {
        const after = await ask(org.admin, PET_QUESTION);
        if (after.data.answerType === 'canonical') throw new Error('index not refreshed yet');
        expect(after.data.answerType).toBe('unknown');
      },
      { interval: 200 },
    );
  });

  it('hands the model document chunks found only by their embedding', async () => {
    const questionTerms = new Set(termsOf(MEAL_QUESTION));
    expect(termsOf(CANTEEN).filter((t) => questionTerms.has(t))).toEqual([]);
    const org = await createOrg(app);
    const doc = await uploadDocument(app, org.admin, Buffer.from(CANTEEN), 'canteen.md');
    await settledDocument(app, org.admin, doc.data.id);
    await allEmbedded(org.organizationId);

    const res = await ask(org.admin, MEAL_QUESTION);
    expect(res.data).toMatchObject({
      answerType: 'generated',
      answer: expect.stringMatching(/^Yes\. .*Lunch is subsidised for all personnel\.$/),
      sources: [{ type: 'document', documentId: doc.data.id, name: 'canteen.md', section: 'Canteen' }],
    });
    expect(res.data.confidence).toBeGreaterThan(0);
  });

  it("never uses another organization's vectors", async () => {
    const owner = await createOrg(app);
    await createAnswer(app, owner.admin, PET_ENTRY);
    const ownerDoc = await uploadDocument(app, owner.admin, Buffer.from(CANTEEN), 'canteen.md');
    await settledDocument(app, owner.admin, ownerDoc.data.id);
    const other = await createOrg(app);
    await createAnswer(app, other.admin, {
      question: 'Do you scan containers for vulnerabilities?',
      answer: 'Yes. Every image is scanned before release.',
    });
    const otherDoc = await uploadDocument(
      app,
      other.admin,
      Buffer.from('# Workstations\n\nLaptops lock automatically after 5 minutes of inactivity.\n'),
      'workstations.md',
    );
    await settledDocument(app, other.admin, otherDoc.data.id);
    await allEmbedded(owner.organizationId);
    await allEmbedded(other.organizationId);
    // The owner's own vectors work…
    expect((await ask(owner.admin, PET_QUESTION)).data.answerType).toBe('canonical');

    // …and the other organization, asking the same, gets nothing of them.
    const before = fake.chatRequests().length;
    const pets = await ask(other.admin, PET_QUESTION);
    expect(pets.data).toMatchObject({ answerType: 'unknown', matches: [] });
    const meals = await ask(other.admin, MEAL_QUESTION);
    expect(meals.data.answerType).toBe('unknown');
    for (const source of [...pets.data.sources, ...meals.data.sources]) expect(source.name).not.toBe('canteen.md');
    for (const req of fake.chatRequests().slice(before)) {
      const prompt = req.messages.map((m) => m.content).join('\n');
      expect(prompt).not.toContain('Lunch');
      expect(prompt).not.toContain('Dogs');
    }
  });

  it('decides the lexical way while an entry waits for its embedding, as if there were no embeddings', async () => {
    const org = await createOrg(app);
    // The sweep's requests for the entry hang; the question (and its answer's extract) are embedded.
    const entryText = `${PET_ENTRY.question}\n${PET_ENTRY.answer}`;
    fake.onEmbeddings = (req) => (req.input.some((t) => t === entryText) ? { hang: true } : defaultEmbeddings(req));
    await createAnswer(app, org.admin, PET_ENTRY);
    const waiting = await ask(org.admin, 'Can dogs come to the office?');
    expect(waiting.data).toMatchObject({ answerType: 'canonical', answer: PET_ENTRY.answer });

    fake.onEmbeddings = () => ({ status: 500 });
    const lexical = await ask(org.admin, 'Can dogs come to the office?');
    expect(lexical.data.answerType).toBe('canonical');
    expect(waiting.data.confidence).toBe(lexical.data.confidence);
  });

  it('keeps answering from full text when the question cannot be embedded', async () => {
    const org = await createOrg(app);
    await createAnswer(app, org.admin, PET_ENTRY);
    fake.onEmbeddings = () => ({ status: 500 });
    const res = await ask(org.admin, 'Can dogs come to the office?');
    expect(res.data).toMatchObject({ answerType: 'canonical', answer: PET_ENTRY.answer });
    expect(logLines.some((l) => l.level === 40 && l.msg.includes('embedding the question failed'))).toBe(true);
  });
});
