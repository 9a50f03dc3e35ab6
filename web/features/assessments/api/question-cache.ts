import type { QueryClient } from '@tanstack/react-query';
import type { AssessmentDetail, AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { queryKeys } from '../../../app/query-keys';
import { invalidateAssessments } from '../../../app/invalidate';

/**
 * Puts a question the server just returned into the cached detail at once, then refetches: the single-question
 * response does not carry the checks that span the assessment (contradictions, changed sources) or the counts.
 */
export async function applyQuestion(
  queryClient: QueryClient,
  batchId: string,
  question: AssessmentQuestionView,
): Promise<void> {
  queryClient.setQueryData<AssessmentDetail>(queryKeys.assessments.detail(batchId), (detail) =>
    detail
      ? {
          ...detail,
          questions: detail.questions.map((q) =>
            q.id === question.id
              ? {
                  ...question,
                  conflictsWith: q.conflictsWith,
                  sourceChanged: question.edited ? false : q.sourceChanged,
                }
              : q,
          ),
        }
      : detail,
  );
  await invalidateAssessments(queryClient);
}
