import { afterAll, describe, expect, it } from 'vitest';
import { OUT_OF_MEMORY_MESSAGE, TIMED_OUT_MESSAGE } from '../messages';
import { ExtractionPool } from '../thread';
import { ExtractionError } from '../types';
import { MEMORY_BOUND_MB, TIME_BOUND_MS, figureLine, measured } from '../../../test/fixtures/hostile/bounds';
import { hostileDocuments } from '../../../test/fixtures/hostile/corpus';
import { validDocx } from '../../../test/fixtures/hostile/corpus-office';
import { encryptedFlateBombPdf, validPdf } from '../../../test/fixtures/hostile/corpus-pdf';
import { tinyRowsCsv } from '../../../test/fixtures/hostile/corpus-text';

// Files go through an ExtractionPool, as the background worker sends them (server/worker), so the thread's own
// guards are part of what is tested: its heap limit, and its limit on the process's memory (for what pdf.js holds
// outside the heap), both set so that a file they stop stays within the test's memory bound. Its time limit is set
// above the test's bound: a file must be refused by a reader's limit, not by the pool giving up on it.
const LIMITS = { maxHeapMb: 256, maxRssGrowthMb: 512, jobTimeoutMs: 2 * TIME_BOUND_MS };
const pool = new ExtractionPool(LIMITS);
const figures: string[] = [];

afterAll(async () => {
  await pool.close();
  if (process.env.HOSTILE_FIGURES) console.log(`hostile documents (time, peak RSS growth):\n${figures.join('\n')}`);
});

describe('every hostile document is read or refused with a sentence, within the time and memory bounds', () => {
  for (const file of hostileDocuments()) {
    const verdict = file.readable ? 'is read or refused' : `is refused (${file.codes.join(' or ')})`;
    it(`${file.name} ${verdict}`, { timeout: 3 * TIME_BOUND_MS }, async () => {
      const run = await measured(() => pool.extract(file.bytes(), file.fileName, { transfer: true }));
      const { outcome } = run;
      figures.push(
        figureLine(file.name, run, outcome.ok ? `${outcome.value.chunks.length} chunks` : errorSummary(outcome.error)),
      );

      expect(run.ms, 'time').toBeLessThan(TIME_BOUND_MS);
      expect(run.withinMemory, `memory grew by ${run.peakGrowthMb} MB (bound ${MEMORY_BOUND_MB} MB)`).toBe(true);
      if (outcome.ok) {
        expect(file.readable, 'read, but should have been refused').toBe(true);
        if (file.mustNotContain) {
          for (const chunk of outcome.value.chunks) expect(chunk.text).not.toContain(file.mustNotContain);
        }
        return;
      }
      const error = outcome.error;
      expect(error, errorSummary(error)).toBeInstanceOf(ExtractionError);
      if (!(error instanceof ExtractionError)) return;
      expect(file.codes).toContain(error.code);
      expect(error.message).toMatch(/^[A-Z].*\.$/);
      expect(error.message).not.toBe(TIMED_OUT_MESSAGE);
    });
  }
});

describe('the extraction thread’s heap limit', () => {
  it(
    'stops a file whose parse outgrows the heap, and the pool reads the next file',
    {
      timeout: 3 * TIME_BOUND_MS,
    },
    async () => {
      // 40 MB of "a,b" rows: ten million rows, each an array of two strings, in a 256 MB heap.
      const small = new ExtractionPool(LIMITS);
      try {
        const run = await measured(() => small.extract(tinyRowsCsv(), 'rows.csv'));
        const { outcome } = run;
        figures.push(
          figureLine(
            '40 MB of tiny CSV rows in a 256 MB thread',
            run,
            outcome.ok ? 'read' : errorSummary(outcome.error),
          ),
        );
        expect(outcome.ok ? 'read' : outcome.error).toBeInstanceOf(ExtractionError);
        expect(outcome.ok ? 'read' : outcome.error).toMatchObject({ code: 'corrupt', message: OUT_OF_MEMORY_MESSAGE });
        expect(run.ms).toBeLessThan(TIME_BOUND_MS);
        expect(run.withinMemory, `memory grew by ${run.peakGrowthMb} MB`).toBe(true);
        expect((await small.extract(validPdf(2), 'after.pdf')).pageCount).toBe(2);
      } finally {
        await small.close();
      }
    },
  );
});

describe('the limit on the process’s memory', () => {
  it(
    'refuses the file that outgrows it when several are read at once, and reads the others',
    {
      timeout: 3 * TIME_BOUND_MS,
    },
    async () => {
      const shared = new ExtractionPool({ ...LIMITS, size: 2 });
      try {
        const files = [validPdf(3), encryptedFlateBombPdf(), validDocx(), validPdf(1)];
        const run = await measured(() =>
          Promise.allSettled(files.map((bytes, index) => shared.extract(bytes, index === 2 ? 'a.docx' : 'a.pdf'))),
        );
        const outcomes = run.outcome.ok ? run.outcome.value : [];
        figures.push(figureLine('an encrypted PDF bomb among three good files, two threads', run, 'see test'));
        expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
        const refused = outcomes[1];
        expect(refused?.status === 'rejected' ? refused.reason : null).toMatchObject({
          code: 'corrupt',
          message: OUT_OF_MEMORY_MESSAGE,
        });
        expect(run.ms).toBeLessThan(TIME_BOUND_MS);
        expect(run.withinMemory, `memory grew by ${run.peakGrowthMb} MB`).toBe(true);
      } finally {
        await shared.close();
      }
    },
  );
});

function errorSummary(error: unknown): string {
  if (error instanceof ExtractionError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
