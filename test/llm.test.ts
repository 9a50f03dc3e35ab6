import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { capturedLog } from './helpers/captured-log';
import { call, type Session } from './helpers/api';
import { createAnswer, createOrg, createTenant, type Tenant } from './helpers/factories';
import { settledDocument, uploadDocument } from './helpers/documents';
import { promptParts, startFakeOpenAI, type ChatRequest, type FakeOpenAI, type FakeReply } from './helpers/fake-openai';
import { NEEDS_REVIEW_ANSWER } from '../server/engine/answer';

/**
 * The LLM composer through the real API, against a local OpenAI-compatible server (no embeddings here: see
 * llm-embeddings.test.ts). Every failure of the endpoint must end in the extractive answer and a logged warning.
 */

type LogLine = { level: number; msg: string; reason?: string };
const { log, lines: logLines } = capturedLog<LogLine>();

const POLICY =
  '# Logging and Monitoring\n\nSecurity logs are retained for 400 days in write-once storage. ' +
  'Alerts from the SIEM are triaged by the on-call engineer within 30 minutes.\n\n' +
  '# Workstations\n\nLaptops lock automatically after 5 minutes of inactivity.\n';

let fake: FakeOpenAI;
let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  app = await createTestApp({
    log,
    env: {
      LLM_BASE_URL: fake.url,
      LLM_API_KEY: 'sk-test',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '1500',
      LLM_MAX_RETRIES: '1',
    },
  });
  t = await createTenant(app);
  await createAnswer(app, t.admin, {
    question: 'Do you encrypt backups?',
    answer: 'Yes. Backups are encrypted with AES-256 (LIBRARY-MARKER).',
  });
  const doc = await uploadDocument(app, t.admin, Buffer.from(POLICY), 'information-security-policy.md');
  await settledDocument(app, t.admin, doc.data.id);
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  logLines.length = 0;
});

const ask = (as: Session, body: unknown) => call(app, 'POST', '/api/qa/ask', { as, body });

/** Answers with `answer`, citing the excerpt that contains `needle` (plus an out-of-range number to ignore). */
function citing(needle: string, answer: (n: number) => string) {
  return (req: ChatRequest): FakeReply => {
    const n = [...promptParts(req.messages).excerpts].find(([, text]) => text.includes(needle))?.[0] ?? 1;
    return { content: JSON.stringify({ supported: true, answer: answer(n), sources: [n, 99] }) };
  };
}

function warned(reason: RegExp) {
  return logLines.some((l) => l.level === 40 && l.msg.includes('LLM answer failed') && reason.test(l.reason ?? ''));
}

describe('grounded generation', () => {
  it('answers from the documents through the model, with only the cited chunks as sources', async () => {
    fake.onChat = citing('400 days', (n) => `We keep security logs for 400 days [${n}].`);
    const res = await ask(t.users.contributor, { question: 'How long are security logs retained?' });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ answerType: 'generated', answer: 'We keep security logs for 400 days.' });
    expect(res.data.confidence).toBeGreaterThan(0);
    expect(res.data.confidence).toBeLessThanOrEqual(85);
    expect(res.data.sources).toHaveLength(1);
    expect(res.data.sources[0]).toMatchObject({
      type: 'document',
      name: 'information-security-policy.md',
      section: 'Logging and Monitoring',
      snippet: expect.stringContaining('400 days'),
    });
    expect(fake.embeddingRequests()).toHaveLength(0);
  });

  it('starts a yes/no answer with Yes when the text says so (default fake: first sentence of the best excerpt)', async () => {
    const res = await ask(t.users.contributor, { question: 'Do laptops lock automatically when idle?' });
    expect(res.data.answerType).toBe('generated');
    // (A chunk's text begins with its heading, which the fake keeps.)
    expect(res.data.answer).toMatch(
      /^Yes\. (Workstations )?Laptops lock automatically after 5 minutes of inactivity\.$/,
    );
    expect(res.data.sources[0]).toMatchObject({ section: 'Workstations' });
  });

  it("sends the brand's tone, language rules, guidelines and banned tokens, and only this workspace's retrieved text", async () => {
    const org = await createOrg(app);
    const brandProfile = {
      tone: 'friendly',
      languageRules: 'Say "customer data", never "user data".',
      boilerplate: 'Refer to the company as Acme.',
      disclaimers: '',
      bannedTokens: ['guarantee'],
    };
    expect(
      (await call(app, 'PUT', '/api/organizations/current', { as: org.admin, body: { brandProfile } })).statusCode,
    ).toBe(200);
    await createAnswer(app, org.admin, {
      question: 'Do you run background checks?',
      answer: 'Yes. Every hire is screened (LIBRARY-MARKER-2).',
    });
    const doc = await uploadDocument(app, org.admin, Buffer.from(POLICY), 'policy.md');
    await settledDocument(app, org.admin, doc.data.id);
    // Another organization's document that matches the same words must never reach the prompt.
    const other = await createOrg(app);
    const foreign = await uploadDocument(
      app,
      other.admin,
      Buffer.from('Security logs are retained for 7 years in the Quartz vault.'),
      'foreign.md',
    );
    await settledDocument(app, other.admin, foreign.data.id);

    const before = fake.chatRequests().length;
    const res = await ask(org.admin, { question: 'How long are security logs retained?' });
    expect(res.data.answerType).toBe('generated');
    const sent = fake.chatRequests().slice(before);
    expect(sent).toHaveLength(1);
    const [req] = sent as [ChatRequest];
    expect(req.authorization).toBe('Bearer sk-test');
    expect(req.body).toMatchObject({ model: 'test-model', temperature: 0, response_format: { type: 'json_object' } });
    const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(system).toContain('Tone: friendly.');
    expect(system).toContain('Say "customer data", never "user data".');
    expect(system).toContain('Refer to the company as Acme.');
    expect(system).toContain('"guarantee"');
    expect(system).toMatch(/JSON/);
    expect(user).toContain('Question: How long are security logs retained?');
    expect(user).toContain('400 days');
    expect(user).toMatch(/\[1\] \(document "policy\.md"/);
    const { excerpts } = promptParts(req.messages);
    expect(excerpts.size).toBeGreaterThan(0);
    expect(excerpts.size).toBeLessThanOrEqual(6);
    for (const text of [system, user]) {
      expect(text).not.toContain('Quartz');
      expect(text).not.toContain('LIBRARY-MARKER');
    }
  });

  it("says 'Needs Review' when the model finds the text does not answer", async () => {
    fake.onChat = () => ({ content: JSON.stringify({ supported: false, answer: '', sources: [] }) });
    const res = await ask(t.users.contributor, { question: 'How long are security logs retained?' });
    expect(res.data).toMatchObject({ answerType: 'unknown', answer: NEEDS_REVIEW_ANSWER, confidence: 0, sources: [] });
  });

  it('answers library questions from the library without calling the model', async () => {
    const before = fake.chatRequests().length;
    const res = await ask(t.users.contributor, { question: 'Do you encrypt backups?' });
    expect(res.data.answerType).toBe('canonical');
    expect(fake.chatRequests()).toHaveLength(before);
  });
});

describe('when the endpoint fails', () => {
  // [case, behaviour, logged reason, requests made: LLM_MAX_RETRIES=1 retries server errors and timeouts once]
  const cases: Array<[string, (req: ChatRequest) => FakeReply, RegExp, number]> = [
    ['HTTP 500', () => ({ status: 500 }), /^http/, 2],
    ['a reply of the wrong shape', () => ({ json: { result: 'Security logs are kept forever.' } }), /^garbage/, 1],
    ['an HTML page', () => ({ text: '<html>Bad gateway</html>' }), /^garbage/, 1],
    ['content that is not JSON', () => ({ content: 'Sure! Logs are kept forever.' }), /^garbage/, 1],
    ['empty content', () => ({ content: '   ' }), /^empty/, 1],
    ['no content', () => ({ content: null }), /^empty/, 1],
    ['JSON of the wrong shape', () => ({ content: '{"answer": 42}' }), /^garbage/, 1],
    [
      'a supported answer citing nothing it was given',
      () => ({ content: '{"supported": true, "answer": "Kept forever.", "sources": [9]}' }),
      /^garbage/,
      1,
    ],
    ['no reply before the timeout', () => ({ hang: true }), /^timeout/, 2],
  ];
  it.each(cases)('%s: the extractive answer, a logged warning', async (_name, behaviour, reason, calls) => {
    fake.onChat = behaviour;
    const before = fake.chatRequests().length;
    const res = await ask(t.users.contributor, { question: 'How long are security logs retained?' });
    expect(res.statusCode).toBe(200);
    expect(res.data.answerType).toBe('generated');
    expect(res.data.answer).toContain('400 days');
    expect(res.data.answer).not.toContain('forever');
    expect(res.data.sources[0]).toMatchObject({ type: 'document', section: 'Logging and Monitoring' });
    expect(warned(reason)).toBe(true);
    expect(fake.chatRequests().length - before).toBe(calls);
  });

  it('leaves no half-written session: a batch is answered (extractively) and stored whole', async () => {
    fake.onChat = () => ({ status: 500 });
    const session = await call(app, 'POST', '/api/qa/sessions', { as: t.users.manager, body: { title: 'Batch' } });
    const res = await call(app, 'POST', '/api/qa/entries', {
      as: t.users.manager,
      body: {
        sessionId: session.data.id,
        questions: ['How long are security logs retained?', 'Do laptops lock automatically when idle?'],
      },
    });
    expect(res.statusCode).toBe(200);
    // Whatever the extractive composer makes of each question, none is lost and none is the model's.
    expect(res.data.entries).toHaveLength(2);
    expect(res.data.entries[0]).toMatchObject({ answerType: 'generated', answer: expect.stringContaining('400 days') });
    const sessions = await call(app, 'GET', '/api/qa/sessions', { as: t.users.manager });
    expect(sessions.data.find((s: { id: string }) => s.id === session.data.id)).toMatchObject({ entryCount: 2 });
  });
});

describe("the brand profile's banned tokens", () => {
  let org: Awaited<ReturnType<typeof createOrg>>;
  beforeAll(async () => {
    org = await createOrg(app);
    const brandProfile = { tone: 'professional', bannedTokens: ['a.b*', 'WRITE-ONCE'] };
    await call(app, 'PUT', '/api/organizations/current', { as: org.admin, body: { brandProfile } });
    const doc = await uploadDocument(app, org.admin, Buffer.from(POLICY), 'policy.md');
    await settledDocument(app, org.admin, doc.data.id);
  });

  it('never appear in the answer or its snippets, matched as plain text in any case, never as a pattern', async () => {
    fake.onChat = citing(
      '400 days',
      (n) =>
        `Logs sit in aXbbb vaults for 400 days [${n}]. They are kept on A.B* media. Storage is Write-Once. ` +
        'Alerts are triaged within 30 minutes.',
    );
    const res = await ask(org.admin, { question: 'How long are security logs retained?' });
    expect(res.data.answerType).toBe('generated');
    // "a.b*" as a pattern would match "aXbbb"; as text it must not.
    expect(res.data.answer).toBe('Logs sit in aXbbb vaults for 400 days. Alerts are triaged within 30 minutes.');
    const prompt = fake.chatRequests().at(-1)?.messages[0]?.content ?? '';
    expect(prompt).toContain('"a.b*", "WRITE-ONCE"');
    for (const s of res.data.sources as Array<{ snippet: string }>) {
      expect(s.snippet.toLowerCase()).not.toContain('write-once');
    }
  });

  it('fall back to the extractive answer (without them) when nothing else is left', async () => {
    fake.onChat = citing('400 days', (n) => `Everything is stored on write-once media [${n}].`);
    const res = await ask(org.admin, { question: 'How long are security logs retained?' });
    expect(res.data.answer.toLowerCase()).not.toContain('write-once');
    expect(res.data.answer).not.toContain('Everything is stored');
    expect(warned(/^banned/)).toBe(true);
  });
});
