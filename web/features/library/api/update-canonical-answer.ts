import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CanonicalAnswerView, type UpdateCanonicalAnswerBody } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { invalidateLibrary } from '../../../app/invalidate';

export interface UpdateCanonicalAnswerInput {
  id: string;
  body: UpdateCanonicalAnswerBody;
}

export function updateCanonicalAnswer({ id, body }: UpdateCanonicalAnswerInput): Promise<CanonicalAnswerView> {
  return api.put(`/api/canonical-answers/${encodeURIComponent(id)}`, CanonicalAnswerView, body, {
    errorFallback: 'Failed to update answer',
  });
}

/** Edits, approvals, archiving and restoring all go through this one call. */
export function useUpdateCanonicalAnswer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateCanonicalAnswer, onSuccess: () => invalidateLibrary(queryClient) });
}
