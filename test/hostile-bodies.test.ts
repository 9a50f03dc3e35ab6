import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT, IMPORT_MAX_BYTES } from '../common/constants';
import {
  billionLaughsXlsx,
  controlCharactersXlsx,
  externalEntityDocx,
  manyEntries,
  xlsxZipBomb,
} from './fixtures/hostile/corpus-office';
import {
  deeplyNestedJson,
  deeplyNestedObjects,
  hugeJsonArray,
  loneSurrogateJson,
  malformedUtf8Json,
} from './fixtures/hostile/corpus-text';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { postMultipart } from './helpers/assessments';
import { type Tenant, createTenant } from './helpers/factories';

// Request bodies built to hurt a parser, sent through the real HTTP stack: each must end in a 4xx answer with
// ARCHITECTURE §4's shape `{error, code}`, a sentence and nothing internal (no stack, no SQL), and the server must go on.

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
  t = await createTenant(app);
});
afterAll(() => app.close());

const IMPORT = '/api/canonical-answers/import';
const ASK = '/api/qa/ask';
const PREVIEW = '/api/assessments/preview';

function postRaw(url: string, body: string | Uint8Array, as: Tenant['users'][keyof Tenant['users']]) {
  return call(app, 'POST', url, {
    as,
    body: typeof body === 'string' ? body : Buffer.from(body),
    headers: { 'content-type': 'application/json' },
  });
}

type Answer = Awaited<ReturnType<typeof call>>;

/** A 4xx in the shape of ARCHITECTURE §4, with a sentence and nothing that belongs to the server's insides. */
function expectCleanRefusal(res: Answer, status?: number): void {
  expect(res.statusCode, res.body.slice(0, 500)).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, res.body.slice(0, 500)).toBeLessThan(500);
  if (status !== undefined) expect(res.statusCode, res.body.slice(0, 500)).toBe(status);
  expect(typeof res.data?.error).toBe('string');
  expect(typeof res.data?.code).toBe('string');
  expect(res.data.error.length).toBeGreaterThan(10);
  expect(res.body.length).toBeLessThan(10_000);
  expect(res.body).not.toMatch(
    /\bat .+:\d+:\d+|node_modules|\.ts:\d+|\b(?:SELECT|INSERT|UPDATE) .+ (?:FROM|INTO|SET)\b/,
  );
}

/** The server still answers normally after the hostile request. */
async function expectServerAlive(): Promise<void> {
  const res = await call(app, 'GET', '/api/health');
  expect(res.statusCode).toBe(200);
}

describe('JSON bodies built to hurt a parser', () => {
  it('JSON nested 100,000 levels deep, to the knowledge import and to Ask', async () => {
    for (const body of [deeplyNestedJson(100_000, 'entries'), deeplyNestedObjects(100_000)]) {
      expectCleanRefusal(await postRaw(IMPORT, body, t.users.manager), 400);
    }
    // Within Ask's body limit (the default, 256 kB): arrays 100,000 deep (200 kB), objects 40,000 deep (240 kB).
    for (const body of [deeplyNestedJson(100_000, 'question'), deeplyNestedObjects(40_000)]) {
      expect(body.length).toBeLessThan(DEFAULT_BODY_LIMIT);
      expectCleanRefusal(await postRaw(ASK, body, t.users.contributor), 400);
    }
    await expectServerAlive();
  });

  it('a body over the call’s limit: 30 MB to the 20 MB import, 2 MB to Ask (256 kB)', async () => {
    const overImport = hugeJsonArray(30, 'entries');
    expect(overImport.length).toBeGreaterThan(IMPORT_MAX_BYTES);
    const res = await postRaw(IMPORT, overImport, t.users.manager);
    expectCleanRefusal(res, 413);
    expect(res.data.code).toBe('payload_too_large');
    const ask = await postRaw(ASK, hugeJsonArray(2, 'question'), t.users.contributor);
    expectCleanRefusal(ask, 413);
    await expectServerAlive();
  });

  it('a huge array within the import’s limit is refused by the schema, not parsed into 10 million entries', async () => {
    const res = await postRaw(IMPORT, hugeJsonArray(19, 'entries'), t.users.manager);
    expectCleanRefusal(res, 400);
    await expectServerAlive();
  });

  it('JSON with malformed UTF-8 bytes, to the knowledge import and to Ask', async () => {
    const importBody = Buffer.concat([
      Buffer.from('{"entries":[{"question":"Do you encrypt '),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(' data?","answer":"Yes"}]}'),
    ]);
    const imported = await postRaw(IMPORT, importBody, t.users.manager);
    const asked = await postRaw(ASK, malformedUtf8Json('question'), t.users.contributor);
    // Refused, not stored with "�" in place of the bad bytes.
    for (const res of [imported, asked]) {
      expectCleanRefusal(res, 400);
      expect(res.data.code).toBe('invalid_json');
      expect(res.data.error).toMatch(/not valid UTF-8/);
    }
    await expectServerAlive();
  });

  it('JSON strings with escaped lone surrogates are answered, not a server error', async () => {
    const res = await postRaw(ASK, loneSurrogateJson('question', { nul: false }), t.users.contributor);
    if (res.statusCode >= 400) expectCleanRefusal(res);
    else expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    await expectServerAlive();
  });

  it('JSON strings with an escaped NUL character are refused with a sentence (PostgreSQL text cannot hold NUL)', async () => {
    const asked = await postRaw(ASK, loneSurrogateJson('question', { nul: true }), t.users.contributor);
    const imported = await postRaw(
      IMPORT,
      JSON.stringify({ entries: [{ question: 'Do you encrypt \u0000 data at rest?', answer: 'Yes' }] }),
      t.users.manager,
    );
    for (const res of [asked, imported]) {
      expectCleanRefusal(res, 400);
      expect(res.data.error).toMatch(/NUL/);
    }
    await expectServerAlive();
  });
});

describe('questionnaire uploads built to hurt a parser', () => {
  it('an xlsx whose questions hold NUL (as Excel writes it, "_x0000_") is imported without it', async () => {
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.contributor,
      { name: 'Control characters' },
      { name: 'control.xlsx', bytes: controlCharactersXlsx() },
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    expect(res.data.totalQuestions).toBe(3);
    const detail = await call(app, 'GET', `/api/assessments/${res.data.id}`, { as: t.users.contributor });
    for (const question of detail.data.questions) expect(question.question).not.toContain('\u0000');
  });

  const cases = [
    { name: 'an xlsx zip bomb (1 GB from 3 MB)', file: 'bomb.xlsx', bytes: () => xlsxZipBomb(), status: 413 },
    {
      name: 'an xlsx whose sheet lies about its size',
      file: 'liar.xlsx',
      bytes: () => xlsxZipBomb({ liar: true }),
      status: 413,
    },
    { name: 'an xlsx of 50,000 parts', file: 'parts.xlsx', bytes: () => manyEntries('xlsx'), status: 413 },
    {
      name: 'an xlsx with billion-laughs entities',
      file: 'laughs.xlsx',
      bytes: () => billionLaughsXlsx('sheet'),
      status: 422,
    },
    { name: 'a docx with an external entity', file: 'xxe.docx', bytes: () => externalEntityDocx(), status: 422 },
  ];
  for (const { name, file, bytes, status } of cases) {
    it(`${name}: ${status} with a sentence`, async () => {
      const res = await postMultipart(app, PREVIEW, t.users.contributor, {}, { name: file, bytes: bytes() });
      expectCleanRefusal(res, status);
      expect(res.body).not.toContain('root:x:0:0');
      await expectServerAlive();
    });
  }
});
