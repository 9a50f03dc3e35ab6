import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CanonicalAnswerView, type CreateCanonicalAnswerBody } from '../../../common/schemas/knowledge';
import { api } from '../../lib/api';

export function createCanonicalAnswer(body: CreateCanonicalAnswerBody): Promise<CanonicalAnswerView> {
  return api.post('/api/canonical-answers', CanonicalAnswerView, body, { errorFallback: 'Failed to create answer' });
}

/**
 * Adds a library entry from any screen (the library, an unanswered question, a pending task). Every library query
 * sits under the 'canonical-answers' key root, and the sidebar's canonicalCount under 'organization-stats'.
 */
export function useCreateCanonicalAnswer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCanonicalAnswer,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['canonical-answers'] }),
        queryClient.invalidateQueries({ queryKey: ['organization-stats'] }),
      ]),
  });
}
