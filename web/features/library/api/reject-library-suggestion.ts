import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuggestionView } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { invalidateAssessments, invalidateLibrary } from '../../../app/invalidate';

export interface RejectSuggestionInput {
  id: string;
  reason: string;
}

export function rejectLibrarySuggestion({ id, reason }: RejectSuggestionInput): Promise<SuggestionView> {
  return api.post(
    `/api/library-suggestions/${encodeURIComponent(id)}/reject`,
    SuggestionView,
    { reason },
    {
      errorFallback: 'Failed to reject the suggestion',
    },
  );
}

export function useRejectLibrarySuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectLibrarySuggestion,
    onSuccess: () => Promise.all([invalidateLibrary(queryClient), invalidateAssessments(queryClient)]),
  });
}
