import type { QuestionItem } from './types';

const filled = (text: string | null) => (text ?? '').trim() !== '';

/**
 * Whether the customer already answered a question in their file, as the filled file sees it: an answer in its
 * answer cell (a choice marked, on a sheet answered by marks), or, on a sheet answered by marks, notes written where
 * the answer text would go. The export leaves such a row as it is unless the user chose to replace answers, and the
 * import preview counts the same rows, so the two never disagree.
 */
export function answeredByCustomer(
  question: Pick<QuestionItem, 'existingAnswer' | 'existingComment'>,
  answeredByMarks: boolean,
): boolean {
  return filled(question.existingAnswer) || (answeredByMarks && filled(question.existingComment));
}
