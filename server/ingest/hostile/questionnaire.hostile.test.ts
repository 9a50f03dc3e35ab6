import { afterAll, describe, expect, it } from 'vitest';
import { readQuestionnaire } from '../questionnaire/intake';
import { QuestionnaireError } from '../questionnaire/types';
import { MEMORY_BOUND_MB, TIME_BOUND_MS, figureLine, measured } from '../../../test/fixtures/hostile/bounds';
import { hostileQuestionnaires } from '../../../test/fixtures/hostile/corpus-questionnaires';

// readQuestionnaire runs in the request that uploads the file (POST /api/assessments/preview and import), on the
// thread that serves every other request: its bounds matter for the whole server, not just for this upload.
const figures: string[] = [];

afterAll(() => {
  if (process.env.HOSTILE_FIGURES)
    console.log(`hostile questionnaires (time, peak RSS growth):\n${figures.join('\n')}`);
});

describe('every hostile questionnaire is read or refused with a sentence, within the time and memory bounds', () => {
  for (const file of hostileQuestionnaires()) {
    const verdict = file.readable ? 'is read or refused' : `is refused (${file.codes.join(' or ')})`;
    it(`${file.name} ${verdict}`, { timeout: 3 * TIME_BOUND_MS }, async () => {
      const bytes = file.bytes();
      const run = await measured(() => readQuestionnaire(bytes, file.fileName));
      const { outcome } = run;
      figures.push(
        figureLine(file.name, run, outcome.ok ? `${outcome.value.questions.length} questions` : summary(outcome.error)),
      );

      expect(run.ms, 'time').toBeLessThan(TIME_BOUND_MS);
      expect(run.withinMemory, `memory grew by ${run.peakGrowthMb} MB (bound ${MEMORY_BOUND_MB} MB)`).toBe(true);
      if (outcome.ok) {
        expect(file.readable, 'read, but should have been refused').toBe(true);
        if (file.mustNotContain) {
          for (const question of outcome.value.questions) expect(question.question).not.toContain(file.mustNotContain);
        }
        return;
      }
      const error = outcome.error;
      expect(error, summary(error)).toBeInstanceOf(QuestionnaireError);
      if (!(error instanceof QuestionnaireError)) return;
      expect(file.codes).toContain(error.reason);
      expect([400, 413, 422]).toContain(error.status);
      expect(error.message).toMatch(/^[A-Z].*\.$/);
    });
  }
});

function summary(error: unknown): string {
  if (error instanceof QuestionnaireError) return `${error.status} ${error.reason}: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
