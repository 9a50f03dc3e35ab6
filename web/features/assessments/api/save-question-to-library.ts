import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { SaveToLibraryResult } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import type { QuestionRef } from './regenerate-question';
import { invalidateAssessments, invalidateLibrary } from '../../../app/invalidate';

export type SaveToLibraryOutcome = z.infer<typeof SaveToLibraryResult>;

/**
 * Saves a reviewed answer as a new library entry: approved when the caller may approve entries, else a draft for
 * an approver to review.
 */
export function saveQuestionToLibrary({ batchId, questionId }: QuestionRef): Promise<SaveToLibraryOutcome> {
  return api.post(
    assessmentPath(batchId, `/questions/${encodeURIComponent(questionId)}/library`),
    SaveToLibraryResult,
    { tags: [] },
    { errorFallback: 'Failed to create answer' },
  );
}

export function useSaveQuestionToLibrary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveQuestionToLibrary,
    onSuccess: () =>
      Promise.all([
        // The library's lists and the sidebar's canonicalCount now include the new entry.
        invalidateLibrary(queryClient),
        invalidateAssessments(queryClient),
      ]),
  });
}
