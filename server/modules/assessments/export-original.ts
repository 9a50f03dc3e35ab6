import type { SheetMapping } from '../../../common/schemas/assessments';
import { WriteBackError, writeAnswersToXlsx } from '../../ingest/questionnaire/write-xlsx';
import { xlsToXlsx } from '../../ingest/questionnaire/xls-to-xlsx';
import { writeAnswersToCsv } from '../../ingest/questionnaire/write-csv-original';
import { writeAnswersToDocx } from '../../ingest/questionnaire/write-docx';
import type { AnswerCell } from '../../ingest/questionnaire/write-types';
import type { QuestionnaireFormat } from '../../ingest/questionnaire/types';
import { answeredByCustomer } from '../../ingest/questionnaire/customer-answers';
import { writeTargets } from './export';

/** One answer for the customer's own file, with what the intake saw in its answer cell. */
export type OriginalAnswer = AnswerCell & {
  /** The customer's answer already in the file; it is never replaced silently. */
  existingAnswer: string | null;
  /** Text already in the comments cell. */
  existingComment: string | null;
  /** The user chose to replace pre-filled answers, and this answer is sure enough to replace the customer's. */
  replacesExisting?: boolean;
};

const filled = (text: string | null) => (text ?? '').trim() !== '';

/**
 * The customer's file with the answers written in, in the format it came in. A question the customer had already
 * answered keeps that answer (and its comment) unless its answer says it replaces it; a comment already written
 * next to an unanswered question stays too.
 */
export async function exportOriginal(
  original: Uint8Array,
  format: QuestionnaireFormat,
  mappings: readonly SheetMapping[],
  answers: readonly OriginalAnswer[],
  options: { withSources: boolean },
): Promise<Uint8Array> {
  const sheetList = (sheet: string) => answers.find((a) => a.sheet === sheet && a.allowedValues)?.allowedValues ?? null;
  // On an X-marked sheet the writer marks a choice column itself (never on a row already marked); the choices'
  // labels are not a dropdown of the column the text goes to.
  const marked = new Set(mappings.filter((m) => m.answerChoiceColumns?.length).map((m) => m.sheet));
  const cells: AnswerCell[] = answers
    // On an X-marked sheet the notes cell is where the answer goes: notes the customer wrote are their answer too.
    .filter((a) => a.replacesExisting === true || !answeredByCustomer(a, marked.has(a.sheet)))
    .map(({ existingAnswer: _answer, existingComment, replacesExisting, ...cell }) => ({
      ...cell,
      allowedValues: marked.has(cell.sheet) ? null : cell.allowedValues,
      keepComments: replacesExisting !== true && filled(existingComment),
    }));
  const targets = writeTargets(mappings, sheetList, options.withSources);
  switch (format) {
    case 'xlsx':
      return writeAnswersToXlsx(original, targets, cells);
    case 'xls':
      // Handed back as .xlsx: the same sheets and layout, in the format answers can be written into.
      return writeAnswersToXlsx(xlsToXlsx(original), targets, cells);
    case 'csv': {
      const [target] = targets;
      if (!target) throw new WriteBackError('invalid_target', 'There is no column mapping for the CSV file.');
      return new TextEncoder().encode(writeAnswersToCsv(original, target, cells));
    }
    case 'docx':
      // Only empty answer cells are written; a table without an answer column gets nothing (never a new column).
      return writeAnswersToDocx(original, targets, cells);
    default:
      throw new WriteBackError('invalid_target', `A ${format} original is not filled as a workbook.`);
  }
}
