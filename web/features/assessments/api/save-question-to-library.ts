import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { SaveToLibraryResult } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { markSavedToLibrary } from './question-cache';
import type { QuestionRef } from './regenerate-question';
import { invalidateAssessments, invalidateLibrary } from '../../../app/invalidate';

export type SaveToLibraryOutcome = z.infer<typeof SaveToLibraryResult>;

/**
 * Saves a reviewed answer to the library: an approved entry when the caller may approve entries, else a suggestion
 * waiting in the approvers' inbox.
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
    onSuccess: (result, { batchId, questionId }) => {
      // The button turns into "Saved to library" at once: a second click would save it twice.
      markSavedToLibrary(queryClient, batchId, questionId, result);
      return Promise.all([
        // The library's lists, its inbox and the sidebar's canonicalCount now include the new entry or suggestion.
        invalidateLibrary(queryClient),
        invalidateAssessments(queryClient),
      ]);
    },
  });
}
