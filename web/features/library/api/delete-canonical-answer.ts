import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { invalidateLibrary } from '../../../app/invalidate';

const DeleteResult = z.object({ success: z.literal(true) });

export async function deleteCanonicalAnswer(id: string): Promise<void> {
  await api.del(`/api/canonical-answers/${encodeURIComponent(id)}`, DeleteResult, { errorFallback: 'Delete failed' });
}

export function useDeleteCanonicalAnswer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCanonicalAnswer, onSuccess: () => invalidateLibrary(queryClient) });
}
