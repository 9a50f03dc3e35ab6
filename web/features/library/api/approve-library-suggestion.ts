import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuggestionView, type ApproveSuggestionBody } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { invalidateAssessments, invalidateLibrary } from '../../../app/invalidate';

export interface ApproveSuggestionInput {
  id: string;
  /** What the approver changed first ("Edit then approve"); empty approves it as suggested. */
  edits: ApproveSuggestionBody;
}

export function approveLibrarySuggestion({ id, edits }: ApproveSuggestionInput): Promise<SuggestionView> {
  return api.post(`/api/library-suggestions/${encodeURIComponent(id)}/approve`, SuggestionView, edits, {
    errorFallback: 'Failed to approve the suggestion',
  });
}

/** An approval adds or updates a library entry, and an assessment answer saved as this suggestion shows it. */
export function useApproveLibrarySuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveLibrarySuggestion,
    onSuccess: () => Promise.all([invalidateLibrary(queryClient), invalidateAssessments(queryClient)]),
  });
}
