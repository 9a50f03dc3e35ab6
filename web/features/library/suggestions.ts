import {
  tagsFromText,
  type ApproveSuggestionBody,
  type LibraryFormValues,
  type SuggestionStatus,
  type SuggestionView,
} from '../../../common/schemas/knowledge';

export const SUGGESTION_STATUS_LABELS: Record<SuggestionStatus, string> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** The form's starting values for "Edit then approve": the suggestion as it was suggested. */
export function suggestionFormValues(s: Pick<SuggestionView, 'question' | 'answer' | 'tags'>): LibraryFormValues {
  return { question: s.question, answer: s.answer, tags: s.tags.join(', ') };
}

/** Only what the approver changed, so an untouched form approves the suggestion exactly as it was suggested. */
export function approvalEdits(
  s: Pick<SuggestionView, 'question' | 'answer' | 'tags'>,
  values: LibraryFormValues,
): ApproveSuggestionBody {
  const edits: ApproveSuggestionBody = {};
  if (values.question.trim() !== s.question) edits.question = values.question.trim();
  if (values.answer.trim() !== s.answer) edits.answer = values.answer.trim();
  const tags = tagsFromText(values.tags);
  if (tags.join('\u0000') !== s.tags.join('\u0000')) edits.tags = tags;
  return edits;
}

/** Where a suggestion came from, in words: an assessment's answer, or the library itself. */
export function suggestionSource(s: Pick<SuggestionView, 'sourceBatchId' | 'sourceBatchName'>): string {
  if (s.sourceBatchName) return `From the assessment "${s.sourceBatchName}"`;
  if (s.sourceBatchId) return 'From an assessment that was deleted since';
  return 'Suggested in the library';
}
