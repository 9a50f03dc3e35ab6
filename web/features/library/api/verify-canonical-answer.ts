import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CanonicalAnswerView } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { invalidateLibrary } from '../../../app/invalidate';

/** Re-confirms an approved entry is still true: its last-verified date becomes now. */
export function verifyCanonicalAnswer(id: string): Promise<CanonicalAnswerView> {
  return api.post(`/api/canonical-answers/${encodeURIComponent(id)}/verify`, CanonicalAnswerView, undefined, {
    errorFallback: 'Failed to verify answer',
  });
}

export function useVerifyCanonicalAnswer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: verifyCanonicalAnswer, onSuccess: () => invalidateLibrary(queryClient) });
}
