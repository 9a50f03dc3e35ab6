import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BulkDeleteResult } from '../../../../common/schemas/documents';
import { api } from '../../../lib/api';
import { invalidateDocuments } from '../../../app/invalidate';

/** Deletes the chosen documents with their files and text; resolves to how many were deleted. */
export async function bulkDeleteDocuments(documentIds: string[]): Promise<number> {
  const result = await api.post(
    '/api/documents/bulk-delete',
    BulkDeleteResult,
    { documentIds },
    {
      errorFallback: 'Delete failed',
    },
  );
  return result.deleted;
}

export function useBulkDeleteDocuments() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: bulkDeleteDocuments, onSuccess: () => invalidateDocuments(queryClient) });
}
