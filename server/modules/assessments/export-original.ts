import type { SheetMapping } from '../../../common/schemas/assessments';
import { writeAnswersToXlsx } from '../../ingest/questionnaire/write-xlsx';
import type { AnswerCell } from '../../ingest/questionnaire/write-types';
import type { QuestionnaireFormat } from '../../ingest/questionnaire/types';
import { writeTargets } from './export';

/** One answer for the customer's own file, with what the intake saw in its answer cell. */
export type OriginalAnswer = AnswerCell & {
  /** The customer's answer already in the file; it is never replaced silently. */
  existingAnswer: string | null;
  /** Text already in the comments cell. */
  existingComment: string | null;
};

export type PrefilledChoice = 'keep' | 'replace';

/**
 * The customer's file with the answers written in, in the format it came in. A question the customer had already
 * answered keeps that answer unless the user chose to replace pre-filled answers; a comment already written stays.
 */
export async function exportOriginal(
  original: Uint8Array,
  format: QuestionnaireFormat,
  mappings: readonly SheetMapping[],
  answers: readonly OriginalAnswer[],
  options: { withSources: boolean; prefilled: PrefilledChoice },
): Promise<Uint8Array> {
  const sheetList = (sheet: string) => answers.find((a) => a.sheet === sheet && a.allowedValues)?.allowedValues ?? null;
  const cells: AnswerCell[] = answers
    .filter((a) => options.prefilled === 'replace' || (a.existingAnswer ?? '').trim() === '')
    .map(({ existingAnswer: _answer, existingComment, ...cell }) => ({
      ...cell,
      keepComments: options.prefilled === 'keep' && (existingComment ?? '').trim() !== '',
    }));
  if (format !== 'xlsx') throw new Error(`Filling a ${format} original is not built yet.`);
  return writeAnswersToXlsx(original, writeTargets(mappings, sheetList, options.withSources), cells);
}
