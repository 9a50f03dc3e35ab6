import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CanonicalAnswerView, type CreateCanonicalAnswerBody } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { invalidateLibrary } from './library-keys';

export function createCanonicalAnswer(body: CreateCanonicalAnswerBody): Promise<CanonicalAnswerView> {
  return api.post('/api/canonical-answers', CanonicalAnswerView, body, { errorFallback: 'Failed to create answer' });
}

export function useCreateCanonicalAnswer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createCanonicalAnswer, onSuccess: () => invalidateLibrary(queryClient) });
}
