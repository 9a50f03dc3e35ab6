import { useMutation } from '@tanstack/react-query';
import type { DocumentView } from '../../../../common/schemas/documents';
import { apiDownload, saveFile } from '../../../lib/api';

/**
 * Downloads the original file under its own name. It goes through the API client rather than a bare link in a new
 * tab because a link cannot carry the X-Workspace-Id header: outside the first workspace it would find nothing.
 */
export async function downloadDocument(document: Pick<DocumentView, 'id' | 'originalName'>): Promise<void> {
  const file = await apiDownload(
    'GET',
    `/api/documents/${encodeURIComponent(document.id)}/download`,
    document.originalName,
    { errorFallback: 'Download failed' },
  );
  saveFile(file);
}

export function useDownloadDocument() {
  return useMutation({ mutationFn: downloadDocument });
}
