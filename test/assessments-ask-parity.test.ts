import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createAnswer, createOrg, createTenant, type Tenant } from './helpers/factories';
import { settledDocument, uploadDocument } from './helpers/documents';
import { postMultipart, waitForBatch, type Detail } from './helpers/assessments';
import { engineQuestion } from '../server/engine/answer';

/*
 * The same question gets the same answer on Ask (POST /api/qa/ask) and in a bulk assessment (the worker answering an
 * uploaded workbook): same answer type, same source, same confidence, given the same workspace. A questionnaire
 * numbers its rows ("1. Do you…", "2) Is…"); the person on Ask types the question alone.
 */

let app: TestApp;
let t: Tenant;
let bcp: { id: string };
let documentId: string;

const POLICY = [
  '# Change Management',
  '',
  'All changes to production systems follow a documented change management process. Every change is requested ' +
    'in a ticket, peer reviewed, approved by the change advisory board and tested before deployment.',
  '',
  '# Network Security',
  '',
  'A web application firewall (WAF) is deployed in front of every internet-facing application. Network firewalls ' +
    'deny all inbound traffic by default.',
  '',
  '# Physical Security',
  '',
  'Offices are protected by badge access control and CCTV. Visitors are escorted at all times.',
  '',
  '# Workstations',
  '',
  'Workstation screens lock automatically after 5 minutes of inactivity.',
  '',
].join('\n');

/** What the policy answers; phrased the way questionnaires ask, a few of them only just within the document's reach. */
const FROM_DOCUMENT = [
  'Is a web application firewall deployed in front of internet-facing applications?',
  'Is every change requested in a ticket?',
  'Are visitors escorted in the offices?',
  'Do workstations lock automatically?',
];
const FROM_LIBRARY = 'Do you have a documented Business Continuity Plan?';
const NOBODY_KNOWS = 'Do you hold FedRAMP High authorization?';
const QUESTIONS = [...FROM_DOCUMENT, FROM_LIBRARY, NOBODY_KNOWS];

beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
  bcp = await createAnswer(app, t.admin, {
    question: 'Do you have a Business Continuity Plan?',
    answer: 'Yes. Our Business Continuity Plan is owned by the COO and tested every year.',
  });
  await createAnswer(app, t.admin, {
    question: 'Is multi-factor authentication enforced for all employees?',
    answer: 'Yes. Every employee signs in with phishing-resistant MFA.',
  });
  const doc = await uploadDocument(app, t.admin, Buffer.from(POLICY), 'information-security-policy.md');
  expect(doc.statusCode, doc.body).toBe(201);
  const ready = await settledDocument(app, t.admin, doc.data.id);
  expect(ready.status).toBe('ready');
  documentId = ready.id;
});
afterAll(() => app.close());

/** A customer's sheet: no id column, each question numbered in its own cell. */
async function numberedWorkbook(cells: string[]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Security');
  ws.addRow(['Question', 'Response', 'Comments']);
  for (const cell of cells) ws.addRow([cell, '', '']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

type Answer = {
  answer: string | null;
  answerType: string | null;
  confidence: number | null;
  sources: Array<{ type: string; canonicalAnswerId?: string; documentId?: string }>;
};

/** What must agree between the two paths: the answer, its type, its confidence and what it cites. */
const verdict = (a: Answer) => ({
  answer: a.answer,
  answerType: a.answerType,
  confidence: a.confidence,
  sources: a.sources.map((s) => ({ type: s.type, id: s.canonicalAnswerId ?? s.documentId })),
});

async function bulk(as: Session, cells: string[]): Promise<Detail> {
  const res = await postMultipart(
    app,
    '/api/assessments/import',
    as,
    { name: 'Vendor review', customerName: 'Acme' },
    { name: 'acme-security.xlsx', bytes: await numberedWorkbook(cells) },
  );
  expect(res.statusCode, res.body).toBe(201);
  const d = await waitForBatch(app, as, res.data.id);
  expect(d.batch.status).toBe('completed');
  return d;
}

async function ask(as: Session, question: string): Promise<Answer> {
  const res = await call(app, 'POST', '/api/qa/ask', { as, body: { question } });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as Answer;
}

describe('the same question on Ask and in a bulk assessment', () => {
  it('gets the same answer, type, confidence and sources, numbered in a workbook or typed on Ask', async () => {
    const cells = QUESTIONS.map((q, i) => `${i + 1}${i % 2 === 0 ? '.' : ')'} ${q}`);
    const d = await bulk(t.users.contributor, cells);
    const answered = [...d.questions].sort((a, b) => a.orderIndex - b.orderIndex);
    expect(answered.map((q) => q.status)).toEqual(QUESTIONS.map(() => 'completed'));

    const fromBulk = answered.map((q, i) => ({ question: QUESTIONS[i], ...verdict(q as Answer) }));
    const typed = [];
    const pasted = [];
    for (const [i, question] of QUESTIONS.entries()) {
      typed.push({ question, ...verdict(await ask(t.users.contributor, question)) });
      // Pasted on Ask as the cell reads, numbering and all, it is still the same question.
      pasted.push({ question, ...verdict(await ask(t.users.contributor, cells[i] ?? '')) });
    }
    expect(fromBulk).toEqual(typed);
    expect(pasted).toEqual(typed);

    const byQuestion = new Map(fromBulk.map((v) => [v.question, v]));
    const fromDocument = FROM_DOCUMENT.filter((q) => byQuestion.get(q)?.answerType === 'generated');
    expect(fromDocument.length).toBeGreaterThan(0);
    for (const q of fromDocument) expect(byQuestion.get(q)?.sources[0]).toEqual({ type: 'document', id: documentId });
    expect(byQuestion.get(FROM_LIBRARY)).toMatchObject({
      answerType: 'canonical',
      sources: [{ type: 'library', id: bcp.id }],
    });
    expect(byQuestion.get(NOBODY_KNOWS)).toMatchObject({ answerType: 'unknown', confidence: 0, sources: [] });
  });

  it("answers another organization's assessment from its own workspace only: Needs Review on both paths", async () => {
    const other = await createOrg(app);
    const d = await bulk(
      other.admin,
      QUESTIONS.map((q, i) => `${i + 1}. ${q}`),
    );
    for (const [i, question] of QUESTIONS.entries()) {
      const fromBulk = verdict(d.questions.find((q) => q.orderIndex === i + 1) as Answer);
      expect({ question, ...fromBulk }).toEqual({ question, ...verdict(await ask(other.admin, question)) });
      expect(fromBulk).toMatchObject({ answerType: 'unknown', confidence: 0, sources: [] });
    }
  });
});

describe('engineQuestion (what the engine reads of a question)', () => {
  it('leaves out the list marker a questionnaire numbers its rows with', () => {
    for (const marker of ['1.', '12)', '(3)', '4:', 'Q3.', 'Q 7:', '#4', '1.2', '1.2.', '10.4.1']) {
      expect(engineQuestion(`${marker} Do you encrypt data at rest?`)).toBe('Do you encrypt data at rest?');
    }
    expect(engineQuestion('1. 贵公司是否通过 ISO 27001 认证？')).toBe('贵公司是否通过 ISO 27001 认证？');
  });

  it('keeps a number that is part of the question, and a question with nothing after the marker', () => {
    for (const question of [
      '24/7 support available?',
      '2FA enforced for admins?',
      '90 days of log retention?',
      '3 backups kept off site?',
      '1.5 million records: is each encrypted?',
      'Q1 Revenue reports: are they audited?',
      '1.',
      'Do you encrypt data at rest?',
    ]) {
      expect(engineQuestion(question)).toBe(question);
    }
  });
});
