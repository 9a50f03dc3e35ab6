import type { QueryClient } from '@tanstack/react-query';
import type { AssessmentDetail, AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { queryKeys } from '../../../app/query-keys';
import { invalidateAssessments } from '../../../app/invalidate';

function updateCachedQuestion(
  queryClient: QueryClient,
  batchId: string,
  questionId: string,
  update: (question: AssessmentQuestionView) => AssessmentQuestionView,
): void {
  queryClient.setQueryData<AssessmentDetail>(queryKeys.assessments.detail(batchId), (detail) =>
    detail ? { ...detail, questions: detail.questions.map((q) => (q.id === questionId ? update(q) : q)) } : detail,
  );
}

/**
 * Puts a question the server just returned into the cached detail at once, then refetches: the single-question
 * response does not carry the checks that span the assessment (contradictions, changed sources) or the counts.
 */
export async function applyQuestion(
  queryClient: QueryClient,
  batchId: string,
  question: AssessmentQuestionView,
): Promise<void> {
  updateCachedQuestion(queryClient, batchId, question.id, (q) => ({
    ...question,
    conflictsWith: q.conflictsWith,
    // A person's own answer no longer rests on the library entry that changed.
    sourceChanged: question.answerOrigin === 'person' ? false : q.sourceChanged,
  }));
  await invalidateAssessments(queryClient);
}

/** Records what "Save to library" made of the question's answer, before the refetch confirms it. */
export function markSavedToLibrary(
  queryClient: QueryClient,
  batchId: string,
  questionId: string,
  result: { status: 'approved' | 'pending'; canonicalAnswerId: string | null; suggestionId: string | null },
): void {
  updateCachedQuestion(queryClient, batchId, questionId, (q) => ({ ...q, savedToLibrary: result }));
}
