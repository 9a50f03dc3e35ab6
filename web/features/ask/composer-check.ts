import { QUESTION_MAX_LENGTH } from '../../../common/constants';
import { QA_BATCH_MAX } from '../../../common/schemas/qa';
import { formatNumber } from '../../lib/format';
import { splitQuestions } from './split-questions';

/** What the composer's text would send, and what the user must know before sending it. */
export interface ComposerCheck {
  /** The questions as they will be sent: whole, except that a question is cut after QUESTION_MAX_LENGTH characters. */
  questions: string[];
  characters: number;
  /** 1-based positions of the questions longer than QUESTION_MAX_LENGTH. */
  longQuestions: number[];
  /** More than QA_BATCH_MAX questions: nothing is sent. */
  tooMany: boolean;
  /** A sentence to show before sending, or null for an ordinary message. */
  warning: string | null;
  /** Long text is likely a questionnaire: point to Bulk Import. */
  suggestBulkImport: boolean;
}

const max = formatNumber(QUESTION_MAX_LENGTH);
const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

function listed(positions: number[]): string {
  const shown = positions.slice(0, 3).map(String);
  if (positions.length > 3) return `${shown.join(', ')} and ${formatNumber(positions.length - 3)} more`;
  if (shown.length === 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`;
}

/**
 * PRODUCT §7 composer: a paste is never cut silently. Text over QUESTION_MAX_LENGTH characters is sent as the
 * whole questions it holds (up to QA_BATCH_MAX), and a question longer than that is read from its start only;
 * either way the composer says so first.
 */
export function checkComposerText(text: string): ComposerCheck {
  const whole = splitQuestions(text);
  const characters = text.trim().length;
  const longQuestions = whole.flatMap((question, i) => (question.length > QUESTION_MAX_LENGTH ? [i + 1] : []));
  const questions = whole.map((question) => question.slice(0, QUESTION_MAX_LENGTH).trimEnd());
  const tooMany = whole.length > QA_BATCH_MAX;
  const suggestBulkImport = tooMany || characters > QUESTION_MAX_LENGTH;
  let warning: string | null = null;
  if (tooMany) {
    warning = `${plural(whole.length, 'question', 'questions')}: at most ${formatNumber(QA_BATCH_MAX)} can be sent at once.`;
  } else if (whole.length === 1 && longQuestions.length === 1) {
    warning = `This question has ${formatNumber(characters)} characters: only its first ${max} are read.`;
  } else if (characters > QUESTION_MAX_LENGTH || longQuestions.length > 0) {
    const parts = [
      `${plural(whole.length, 'question', 'questions')}, ${plural(characters, 'character', 'characters')}: each is sent as its own question.`,
    ];
    if (longQuestions.length > 0) {
      parts.push(
        `${longQuestions.length === 1 ? 'Question' : 'Questions'} ${listed(longQuestions)} ${
          longQuestions.length === 1 ? 'is' : 'are'
        } longer than ${max} characters: only the first ${max} are read.`,
      );
    }
    warning = parts.join(' ');
  }
  return { questions, characters, longQuestions, tooMany, warning, suggestBulkImport };
}
