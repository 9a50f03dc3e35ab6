import type { DropdownCellView } from '../../../common/schemas/assessments';
import { chooseAllowedValue, dropdownAnswer, gradedValues } from '../../ingest/questionnaire/write-choice';
import type { ShortAnswer } from '../../ingest/questionnaire/write-types';
import { polarity } from './consistency';

/** What deciding a dropdown cell reads of a question. */
type Answered = {
  answer: string | null;
  answerType: string | null;
  answerOrigin: string | null;
  reviewState: string;
  allowedValues: string[] | null;
  answerChoice: string | null;
};

/** A person's answer nobody allowed to approve has accepted yet: its Yes/No is not put in the customer's dropdown. */
const unapprovedDraft = (q: Pick<Answered, 'answerType' | 'reviewState'>) =>
  q.answerType === 'draft' && q.reviewState !== 'approved';

/** Yes / No / N/A as the answer states it first, or the question is marked not applicable; else null. */
export function shortAnswerOf(q: Pick<Answered, 'answer' | 'reviewState'>): ShortAnswer | null {
  if (q.reviewState === 'not_applicable') return 'N/A';
  const p = polarity(q.answer);
  if (p) return p === 'yes' ? 'Yes' : 'No';
  return /^\s*(n\/a|not applicable)\b/i.test(q.answer ?? '') ? 'N/A' : null;
}

/**
 * The value a person picked for the dropdown, as the export takes it: undefined when nobody picked (the export
 * chooses from the answer), null to leave the cell empty, else the value (only one the cell's list offers).
 */
export function pickedChoice(
  q: Pick<Answered, 'answerChoice' | 'allowedValues' | 'reviewState'>,
): string | null | undefined {
  // Marked not applicable afterwards: the question says N/A, whatever was picked before.
  if (q.answerChoice === null || q.reviewState === 'not_applicable') return undefined;
  if (q.answerChoice === '') return null;
  return (q.allowedValues ?? []).includes(q.answerChoice) ? q.answerChoice : undefined;
}

/**
 * What the export writes into the question's dropdown cell, and why, as the review card shows it; null when the
 * answer cell is not a dropdown. The same decision as the export's (write-choice.ts), so the reviewer approves the
 * value the customer gets.
 */
export function dropdownCell(q: Answered): DropdownCellView | null {
  const allowed = q.allowedValues ?? [];
  if (allowed.length === 0) return null;
  const picked = pickedChoice(q);
  if (picked !== undefined) return { allowed, value: picked, picked: true, reason: null };
  if (q.reviewState === 'not_applicable') {
    const value = chooseAllowedValue('N/A', allowed);
    return { allowed, value, picked: false, reason: value ? null : 'The list offers no "N/A" value.' };
  }
  if (!q.answer || q.answerType === 'unknown') return { allowed, value: null, picked: false, reason: null };
  if (unapprovedDraft(q)) {
    return {
      allowed,
      value: null,
      picked: false,
      reason: 'A written draft fills the dropdown only once approved, or when you pick its value here.',
    };
  }
  const short = shortAnswerOf(q);
  const { choice } = dropdownAnswer(short, allowed, q.answer);
  if (choice !== null) return { allowed, value: choice, picked: false, reason: null };
  if (!short) {
    return {
      allowed,
      value: null,
      picked: false,
      reason: 'The answer does not begin with Yes, No or N/A, so the dropdown is left empty.',
    };
  }
  const graded = gradedValues(short, allowed);
  return {
    allowed,
    value: null,
    picked: false,
    reason:
      graded.length > 1
        ? `The answer does not say which of ${graded.map((v) => `"${v}"`).join(', ')} applies.`
        : `The list offers no value for "${short}".`,
  };
}
