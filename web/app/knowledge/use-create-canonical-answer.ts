import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CanonicalAnswerView, type CreateCanonicalAnswerBody } from '../../../common/schemas/knowledge';
import { api } from '../../lib/api';
import { invalidateLibrary } from '../invalidate';

export function createCanonicalAnswer(body: CreateCanonicalAnswerBody): Promise<CanonicalAnswerView> {
  return api.post('/api/canonical-answers', CanonicalAnswerView, body, { errorFallback: 'Failed to create answer' });
}

/** Adds a library entry from any screen (the library, an unanswered question, a pending task). */
export function useCreateCanonicalAnswer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCanonicalAnswer,
    onSuccess: () => invalidateLibrary(queryClient),
  });
}
