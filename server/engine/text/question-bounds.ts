import { RETRIEVAL_MAX_CHARS } from '../../../common/constants';

/**
 * What one question may cost. A questionnaire question is a sentence or a short paragraph; a 2,000-character
 * "question" is usually a pasted section of a policy, and every extra word adds index look-ups and scoring work
 * without making retrieval more precise. Retrieval and the decision read only the first RETRIEVAL_MAX_CHARS
 * characters (the answer says so), and the library search only the question's MAX_QUESTION_TERMS rarest terms.
 */
export const MAX_QUESTION_TERMS = 64;

/** The part of a question the engine reads: whole words up to RETRIEVAL_MAX_CHARS. */
export function retrievalText(question: string): string {
  if (question.length <= RETRIEVAL_MAX_CHARS) return question;
  const cut = question.slice(0, RETRIEVAL_MAX_CHARS);
  const lastSpace = cut.search(/\s\S*$/);
  return lastSpace > RETRIEVAL_MAX_CHARS / 2 ? cut.slice(0, lastSpace) : cut;
}

export function isTruncatedForRetrieval(question: string): boolean {
  return question.length > RETRIEVAL_MAX_CHARS;
}

/** What the answer says when only part of its question was read. */
export function retrievalNote(question: string): string | null {
  return isTruncatedForRetrieval(question)
    ? `This question is longer than ${RETRIEVAL_MAX_CHARS.toLocaleString('en-US')} characters: only its first ${RETRIEVAL_MAX_CHARS.toLocaleString('en-US')} were used to find the answer. Shorten it or split it to have all of it read.`
    : null;
}
