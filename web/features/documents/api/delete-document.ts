import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';
import { invalidateDocuments } from '../../../app/invalidate';

export async function deleteDocument(id: string): Promise<void> {
  await api.del(`/api/documents/${encodeURIComponent(id)}`, SuccessResponse, { errorFallback: 'Delete failed' });
}

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteDocument, onSuccess: () => invalidateDocuments(queryClient) });
}
