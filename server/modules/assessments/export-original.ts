import type { SheetMapping } from '../../../common/schemas/assessments';
import { writeAnswersToXlsx } from '../../ingest/questionnaire/write-xlsx';
import type { AnswerCell } from '../../ingest/questionnaire/write-types';
import type { QuestionnaireFormat } from '../../ingest/questionnaire/types';
import { writeTargets } from './export';

/** One answer for the customer's own file, with what the intake saw in its answer cell. */
export type OriginalAnswer = AnswerCell & {
  /** The customer's answer already in the file (template hints excluded); it is never replaced silently. */
  existingAnswer: string | null;
  /** The answer cell's own dropdown values, when it has one. */
  allowedValues: string[] | null;
};

/**
 * The customer's file with the answers written in, in the format it came in. A question the customer had already
 * answered keeps that answer.
 */
export async function exportOriginal(
  original: Uint8Array,
  format: QuestionnaireFormat,
  mappings: readonly SheetMapping[],
  answers: readonly OriginalAnswer[],
  withSources: boolean,
): Promise<Uint8Array> {
  const allowed = (sheet: string) => answers.find((a) => a.sheet === sheet && a.allowedValues)?.allowedValues ?? null;
  const cells: AnswerCell[] = answers
    .filter((a) => a.existingAnswer === null || a.existingAnswer.trim() === '')
    .map(({ existingAnswer: _existing, allowedValues: _allowed, ...cell }) => cell);
  if (format !== 'xlsx') throw new Error(`Filling a ${format} original is not built yet.`);
  return writeAnswersToXlsx(original, writeTargets(mappings, allowed, withSources), cells);
}
