import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { TIMED_OUT_MESSAGE } from '../messages';
import { readQuestionnaire } from '../questionnaire/intake';
import { QuestionnaireError } from '../questionnaire/types';
import { ExtractionPool } from '../thread';
import { ExtractionError } from '../types';
import { TIME_BOUND_MS } from '../../../test/fixtures/hostile/bounds';
import {
  docxOf,
  documentXml,
  questionRows,
  questionTable,
  sheetXml,
  validDocx,
  validXls,
  validXlsx,
  wordParagraph,
  xlsxOf,
} from '../../../test/fixtures/hostile/corpus-office';
import { validPdf } from '../../../test/fixtures/hostile/corpus-pdf';
import { applyByteEdits, applyTextEdits, byteEdits, textEdits } from '../../../test/fixtures/hostile/mutate';

// Damaged files, generated: each run applies a few random edits to a valid file (or to the XML inside one) and
// checks the reader's promise: a result, or its own error type with a sentence; never another exception, never a
// hang. Documents go through an ExtractionPool, whose time limit turns a hang into a failure here.
const pool = new ExtractionPool({ jobTimeoutMs: TIME_BOUND_MS, maxHeapMb: 512 });
afterAll(() => pool.close());

// HOSTILE_RUNS=1000 for a deeper search than the default run makes.
const RUNS = Number(process.env.HOSTILE_RUNS ?? 40);
const utf8 = (text: string) => new TextEncoder().encode(text);
const CSV = 'Question,Answer\n"Do you encrypt data, at rest?",Yes\nIs MFA required?,"No, not yet"\n';
const SHEET = sheetXml(questionRows());
const DOCUMENT = documentXml(wordParagraph('Vendor security questionnaire') + questionTable());

/** Extracts through the pool; anything other than a result or an ExtractionError fails the property. */
async function documentSurvives(bytes: Uint8Array, name: string): Promise<void> {
  const error = await pool.extract(bytes, name, { transfer: true }).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (error === null) return;
  expect(error, String(error)).toBeInstanceOf(ExtractionError);
  expect((error as Error).message).not.toBe(TIMED_OUT_MESSAGE);
  expect((error as Error).message).toMatch(/^[A-Z].*\.$/);
}

async function questionnaireSurvives(bytes: Uint8Array, name: string): Promise<void> {
  const error = await readQuestionnaire(bytes, name).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (error === null) return;
  expect(error, String(error)).toBeInstanceOf(QuestionnaireError);
  expect((error as QuestionnaireError).message).toMatch(/^[A-Z].*\.$/);
}

const seeds = {
  'answers.csv': () => utf8(CSV),
  'answers.xlsx': validXlsx,
  'policy.docx': validDocx,
  'policy.pdf': () => validPdf(2),
} as const;

describe('the document pipeline, on damaged files', () => {
  for (const [name, seed] of Object.entries(seeds)) {
    it(
      `reads or refuses ${name} with random bytes flipped, cut, inserted or repeated`,
      { timeout: 120_000 },
      async () => {
        const original = seed();
        await fc.assert(
          fc.asyncProperty(byteEdits, (edits) => documentSurvives(applyByteEdits(original, edits), name)),
          { numRuns: RUNS },
        );
      },
    );
  }

  it(
    'reads or refuses a workbook, a Word document, a CSV and a PDF whose text was edited at random',
    {
      timeout: 120_000,
    },
    async () => {
      const pdfText = Buffer.from(validPdf(2)).toString('latin1');
      await fc.assert(
        fc.asyncProperty(textEdits, async (edits) => {
          await documentSurvives(xlsxOf(applyTextEdits(SHEET, edits)), 'edited.xlsx');
          await documentSurvives(docxOf(applyTextEdits(DOCUMENT, edits)), 'edited.docx');
          await documentSurvives(utf8(applyTextEdits(CSV, edits)), 'edited.csv');
          await documentSurvives(new Uint8Array(Buffer.from(applyTextEdits(pdfText, edits), 'latin1')), 'edited.pdf');
        }),
        { numRuns: RUNS },
      );
    },
  );

  it('reads or refuses random bytes under any supported name', { timeout: 120_000 }, async () => {
    const names = ['a.pdf', 'a.docx', 'a.xlsx', 'a.csv', 'a.txt', 'a.md', 'a.html', 'a.png', 'a.jpg', 'a.webp'];
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.constantFrom(...names), documentSurvives), {
      numRuns: RUNS * 2,
    });
  });
});

describe('the questionnaire intake, on damaged files', () => {
  const questionnaireSeeds = {
    'questions.csv': () => utf8(CSV),
    'questions.xlsx': validXlsx,
    'questions.docx': validDocx,
    'questions.xls': validXls,
  } as const;

  for (const [name, seed] of Object.entries(questionnaireSeeds)) {
    it(
      `reads or refuses ${name} with random bytes flipped, cut, inserted or repeated`,
      { timeout: 120_000 },
      async () => {
        const original = seed();
        await fc.assert(
          fc.asyncProperty(byteEdits, (edits) => questionnaireSurvives(applyByteEdits(original, edits), name)),
          { numRuns: RUNS * 2 },
        );
      },
    );
  }

  it(
    'reads or refuses a workbook, a Word document and a CSV whose text was edited at random',
    {
      timeout: 120_000,
    },
    async () => {
      await fc.assert(
        fc.asyncProperty(textEdits, async (edits) => {
          await questionnaireSurvives(xlsxOf(applyTextEdits(SHEET, edits)), 'edited.xlsx');
          await questionnaireSurvives(docxOf(applyTextEdits(DOCUMENT, edits)), 'edited.docx');
          await questionnaireSurvives(utf8(applyTextEdits(CSV, edits)), 'edited.csv');
        }),
        { numRuns: RUNS * 2 },
      );
    },
  );

  it('reads or refuses random bytes under any accepted name', { timeout: 120_000 }, async () => {
    const names = ['q.xlsx', 'q.xls', 'q.docx', 'q.csv', 'q.txt', 'q.pdf'];
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.constantFrom(...names), questionnaireSurvives),
      { numRuns: RUNS * 2 },
    );
  });
});
