import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createTenant, createTenantPair, type Tenant } from './helpers/factories';
import { settledDocument, uploadDocument } from './helpers/documents';
import { expectRolePolicy } from './helpers/roles-matrix';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
  await createAnswer(app, t.admin, {
    question: 'Do you encrypt customer data at rest?',
    answer: 'Yes. Customer data at rest is encrypted with AES-256 using keys managed in AWS KMS.',
    tags: ['encryption'],
  });
  await createAnswer(app, t.admin, {
    question: 'Do you have a SOC 2 Type II report?',
    answer: 'Yes. Our SOC 2 Type II report covers security and availability and is renewed every year.',
    tags: ['compliance'],
  });
  await createAnswer(app, t.admin, {
    question: 'Is single sign-on supported for customer accounts?',
    answer: 'SSO through SAML 2.0 is being rolled out to customers next quarter.',
    status: 'draft',
  });
  const doc = await uploadDocument(
    app,
    t.admin,
    Buffer.from(
      '# Logging and Monitoring\n\nSecurity logs are retained for 400 days in write-once storage. ' +
        'Alerts from the SIEM are triaged by the on-call engineer within 30 minutes.\n\n' +
        '# Workstations\n\nLaptops lock automatically after 5 minutes of inactivity.\n',
    ),
    'information-security-policy.md',
  );
  await settledDocument(app, t.admin, doc.data.id);
});
afterAll(() => app.close());

const ask = (as: { cookie: string; workspaceId?: string }, body: unknown) =>
  call(app, 'POST', '/api/qa/ask', { as, body });

describe('POST /api/qa/ask', () => {
  it('answers from an approved library entry, verbatim, with its source and top matches', async () => {
    const res = await ask(t.users.contributor, { question: 'Is data at rest encrypted for customers?' });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      answer: 'Yes. Customer data at rest is encrypted with AES-256 using keys managed in AWS KMS.',
      answerType: 'canonical',
      sources: [{ type: 'library', question: 'Do you encrypt customer data at rest?' }],
    });
    expect(res.data.confidence).toBeGreaterThanOrEqual(60);
    expect(res.data.lastVerified).not.toBeNull();
    expect(res.data.matches[0]).toMatchObject({ question: 'Do you encrypt customer data at rest?' });
  });

  it('says draft when the best entry is a draft', async () => {
    const res = await ask(t.users.contributor, { question: 'Is single sign-on supported for customer accounts?' });
    expect(res.data).toMatchObject({ answerType: 'draft', answer: expect.stringContaining('SAML 2.0') });
  });

  it('answers from documents with page and section sources when the library has no entry', async () => {
    const res = await ask(t.users.contributor, { question: 'How long are security logs retained?' });
    expect(res.data.answerType).toBe('generated');
    expect(res.data.answer).toContain('400 days');
    expect(res.data.sources[0]).toMatchObject({
      type: 'document',
      name: 'information-security-policy.md',
      section: 'Logging and Monitoring',
    });
  });

  it('keeps the items of a Markdown list on lines of their own in a document answer', async () => {
    const org = await createTenant(app);
    const doc = await uploadDocument(
      app,
      org.admin,
      Buffer.from(
        '# Passwords\n\nPassword requirements for all staff accounts:\n\n' +
          '- Passwords must be at least 14 characters long.\n- Passwords must be rotated every 90 days.\n' +
          '- Password reuse of the last 12 passwords is blocked.\n',
      ),
      'password-policy.md',
    );
    await settledDocument(app, org.admin, doc.data.id);
    const res = await ask(org.admin, { question: 'What are the password rotation and reuse requirements?' });
    expect(res.data.answerType).toBe('generated');
    expect(res.data.answer).toContain(
      '\n- Passwords must be rotated every 90 days.\n- Password reuse of the last 12 passwords is blocked.',
    );
    expect(res.data.answer).not.toContain('. - ');
  });

  it("says 'Needs Review' and invents nothing when nothing covers the question", async () => {
    const res = await ask(t.users.contributor, { question: 'Do you hold FedRAMP High authorization?' });
    expect(res.data).toMatchObject({ answerType: 'unknown', confidence: 0, sources: [] });
    expect(res.data.answer).toContain('needs review');
  });

  it("appends the brand profile's disclaimers to library and document answers and never uses banned tokens", async () => {
    const org = await createTenant(app);
    const brandProfile = {
      tone: 'professional',
      disclaimers: 'Answers are provided under NDA.',
      bannedTokens: ['write-once'],
    };
    await call(app, 'PUT', '/api/organizations/current', { as: org.admin, body: { brandProfile } });
    await createAnswer(app, org.admin, {
      question: 'Do you run annual penetration tests?',
      answer: 'Yes. An independent firm tests the platform every year.',
    });
    const lib = await ask(org.admin, { question: 'Do you run annual penetration tests?' });
    expect(lib.data.answer).toBe(
      'Yes. An independent firm tests the platform every year.\n\nAnswers are provided under NDA.',
    );
    const doc = await uploadDocument(
      app,
      org.admin,
      Buffer.from('Security logs are retained for 400 days in write-once storage. Security logs are reviewed weekly.'),
      'logs.txt',
    );
    await settledDocument(app, org.admin, doc.data.id);
    const gen = await ask(org.admin, { question: 'How often are security logs reviewed?' });
    expect(gen.data.answerType).toBe('generated');
    expect(gen.data.answer).toBe('Security logs are reviewed weekly.\n\nAnswers are provided under NDA.');
    expect(gen.data.answer).not.toContain('write-once');
  });

  it('reports the entry’s latest verification once it is re-verified, with nothing else changed', async () => {
    const entry = await createAnswer(app, t.admin, {
      question: 'Do you rotate the TLS certificates of the public website?',
      answer: 'Yes. Public TLS certificates are issued by Let’s Encrypt and rotated every 60 days automatically.',
    });
    const question = 'Are the public website TLS certificates rotated?';
    const first = await ask(t.users.contributor, { question });
    expect(first.data).toMatchObject({ answerType: 'canonical', sources: [{ canonicalAnswerId: entry.id }] });
    // The library index built by that answer must not outlive the verification, which changes no updated_at.
    const verified = await call(app, 'POST', `/api/canonical-answers/${entry.id}/verify`, { as: t.admin });
    expect(verified.statusCode).toBe(200);
    expect(verified.data.lastVerifiedAt).not.toBe(first.data.lastVerified);
    const again = await ask(t.users.contributor, { question });
    expect(again.data.lastVerified).toBe(verified.data.lastVerifiedAt);
  });

  it('refuses an empty or 2,001-character question and a viewer', async () => {
    for (const [body, message] of [
      [{ question: '   ' }, 'Question is required'],
      [{ question: 'x'.repeat(2001) }, 'Question must be at most 2000 characters'],
      [{}, 'Question is required'],
    ] as const) {
      const res = await ask(t.users.admin, body);
      expect(res.statusCode).toBe(400);
      expect(res.data.error).toContain(message);
    }
    await expectRolePolicy(app, t, 'qa:ask', () => ({
      method: 'POST',
      url: '/api/qa/ask',
      body: { question: 'Do you encrypt customer data at rest?' },
    }));
  });
});

describe('sessions and batches', () => {
  it('keeps questions in the caller’s session, records saved answers once, and renames it', async () => {
    const s = await call(app, 'POST', '/api/qa/sessions', { as: t.users.manager, body: { title: 'New Chat' } });
    expect(s.statusCode).toBe(201);
    const first = await ask(t.users.manager, { question: 'Do you have a SOC 2 report?', sessionId: s.data.id });
    expect(first.data.sessionId).toBe(s.data.id);
    const saved = { answer: first.data.answer, answerType: first.data.answerType, confidence: first.data.confidence };
    const again = await ask(t.users.manager, {
      question: 'Do you have a SOC 2 report?',
      sessionId: s.data.id,
      existingAnswer: { ...saved, sources: first.data.sources },
    });
    expect(again.data.id).toBe(first.data.id);
    const renamed = await call(app, 'PUT', `/api/qa/sessions/${s.data.id}`, {
      as: t.users.manager,
      body: { title: 'Do you have a SOC 2 report?' },
    });
    expect(renamed.statusCode).toBe(200);
    const mine = await call(app, 'GET', '/api/qa/sessions', { as: t.users.manager });
    expect(mine.data.find((x: { id: string }) => x.id === s.data.id)).toMatchObject({
      title: 'Do you have a SOC 2 report?',
      entryCount: 1,
    });
  });

  it('records a saved answer with the type, confidence and sources the server gave it, never the ones sent', async () => {
    const shown = await ask(t.users.manager, { question: 'Do you have a SOC 2 report?' });
    expect(shown.data.answerType).toBe('canonical');
    const s = await call(app, 'POST', '/api/qa/sessions', { as: t.users.manager, body: { title: 'Saved' } });
    const kept = await ask(t.users.manager, {
      question: 'Do you have a SOC 2 report?',
      sessionId: s.data.id,
      existingAnswer: {
        answer: shown.data.answer,
        answerType: 'canonical',
        confidence: 100,
        sources: shown.data.sources.map((x: { question?: string }) => ({ ...x, question: 'A title nobody wrote' })),
      },
    });
    expect(kept.data).toMatchObject({ answerType: 'canonical', confidence: shown.data.confidence });
    expect(kept.data.sources).toEqual(shown.data.sources);

    const { b } = await createTenantPair(app);
    const theirs = await createAnswer(app, b.admin, { question: 'Do you have a pet policy?' });
    const ours = await createAnswer(app, t.users.admin, { question: 'Do you run a bug bounty programme?' });
    for (const sources of [
      [],
      [{ type: 'library', canonicalAnswerId: '00000000-0000-4000-8000-000000000000', score: 1 }],
      [{ type: 'library', canonicalAnswerId: theirs.id, score: 1 }],
      [{ type: 'document', documentId: 'not-an-id', score: 1 }],
      // A real entry of this workspace under a made-up title, with text the engine never gave.
      [{ type: 'library', canonicalAnswerId: ours.id, question: 'Approved by the CISO', score: 1 }],
    ]) {
      const forged = await ask(t.users.contributor, {
        question: 'Do you have a bug bounty?',
        existingAnswer: { answer: 'Yes, a big one.', answerType: 'canonical', confidence: 100, sources },
      });
      expect(forged.statusCode).toBe(200);
      expect(forged.data).toMatchObject({ answerType: 'unknown', confidence: 0, sources: [] });
    }
    // Someone else's answer to the same question is not the caller's to re-send as their own.
    const others = await ask(t.users.contributor, {
      question: 'Do you have a SOC 2 report?',
      existingAnswer: { answer: shown.data.answer, answerType: 'canonical', confidence: 100, sources: [] },
    });
    expect(others.data).toMatchObject({ answerType: 'unknown', confidence: 0, sources: [] });
  });

  it("never lets anyone use another user's or organization's session", async () => {
    const s = await call(app, 'POST', '/api/qa/sessions', { as: t.users.manager, body: { title: 'Mine' } });
    const other = await ask(t.users.contributor, { question: 'Do you have a SOC 2 report?', sessionId: s.data.id });
    expect(other.statusCode).toBe(404);
    const rename = await call(app, 'PUT', `/api/qa/sessions/${s.data.id}`, { as: t.users.admin, body: { title: 'x' } });
    expect(rename.statusCode).toBe(404);
    const { b } = await createTenantPair(app);
    const foreign = await ask(b.admin, { question: 'Do you have a SOC 2 report?', sessionId: s.data.id });
    expect(foreign.statusCode).toBe(404);
  });

  it('answers several questions in one call, and refuses 101 or an empty list', async () => {
    const res = await call(app, 'POST', '/api/qa/entries', {
      as: t.users.contributor,
      body: { questions: ['Do you have a SOC 2 Type II report?', 'Do you hold FedRAMP authorization?'] },
    });
    expect(res.data.entries.map((e: { answerType: string }) => e.answerType)).toEqual(['canonical', 'unknown']);
    for (const [questions, message] of [
      [Array.from({ length: 101 }, (_, i) => `Question ${i}?`), 'At most 100 questions'],
      [[], 'Ask at least one question'],
    ] as const) {
      const bad = await call(app, 'POST', '/api/qa/entries', { as: t.users.contributor, body: { questions } });
      expect(bad.statusCode).toBe(400);
      expect(bad.data.error).toContain(message);
    }
  });
});

describe('Chat History', () => {
  it('shows admin-level users everyone’s questions and others only their own, with filters and export', async () => {
    const org = await createTenant(app);
    await createAnswer(app, org.admin, { question: 'Do you encrypt backups at rest?' });
    await ask(org.users.contributor, { question: 'Do you encrypt backups at rest?' });
    await ask(org.users.manager, { question: '=cmd|calc!A1 is this a formula?' });

    const mine = await call(app, 'GET', '/api/qa/entries/all', { as: org.users.contributor });
    expect(mine.data.map((e: { question: string }) => e.question)).toEqual(['Do you encrypt backups at rest?']);
    const all = await call(app, 'GET', '/api/qa/entries/all', { as: org.users.manager });
    expect(all.headers['x-total-count']).toBe('2');
    const unknown = await call(app, 'GET', '/api/qa/entries/all?answerType=unknown', { as: org.admin });
    expect(unknown.data.map((e: { question: string }) => e.question)).toEqual(['=cmd|calc!A1 is this a formula?']);
    const searched = await call(app, 'GET', '/api/qa/entries/all?q=backups&period=today', { as: org.admin });
    expect(searched.data).toHaveLength(1);
    const bad = await call(app, 'GET', '/api/qa/entries/all?period=year', { as: org.admin });
    expect(bad.statusCode).toBe(400);

    const csv = await call(app, 'POST', '/api/qa/entries/export', { as: org.admin, body: {} });
    expect(csv.headers['content-disposition']).toMatch(/chat_history-\d{4}-\d{2}-\d{2}\.csv/);
    expect(csv.body).toContain("'=cmd|calc!A1");

    const stats = await call(app, 'GET', '/api/organizations/stats', { as: org.admin });
    expect(stats.data.monthlyQueries).toBe(2);
  });

  it('returns top matching library entries for the side panel', async () => {
    const res = await call(app, 'GET', `/api/qa/matches?q=${encodeURIComponent('SOC 2 Type II?')}`, {
      as: t.users.viewer,
    });
    expect(res.data[0]).toMatchObject({ question: 'Do you have a SOC 2 Type II report?' });
    expect(res.data[0].similarity).toBeGreaterThan(0);
  });
});

describe('Chat History permissions', () => {
  it('lets every role read its own history and no one signed out', async () => {
    await expectRolePolicy(app, t, 'chat_history:read', () => ({ method: 'GET', url: '/api/qa/entries/all' }));
    await expectRolePolicy(app, t, 'chat_history:read', () => ({ method: 'GET', url: '/api/qa/sessions/all' }));
    expect((await call(app, 'GET', '/api/qa/entries/all')).statusCode).toBe(401);
  });
});
