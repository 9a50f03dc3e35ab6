import { useMutation } from '@tanstack/react-query';
import { ApiRequestError, apiDownload, isApiRequestError, saveFile } from '../../../lib/api';

function todayStamp(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Downloads the chosen documents' details as a dated CSV (PRODUCT §12: documents-YYYY-MM-DD.csv). */
export async function exportDocuments(documentIds: string[]): Promise<void> {
  try {
    const file = await apiDownload('POST', '/api/documents/export', `documents-${todayStamp()}.csv`, {
      body: { documentIds },
      errorFallback: 'Failed to export documents',
    });
    saveFile(file);
  } catch (error) {
    // PRODUCT §11 gives this call a fixed message; the server's own sentence is kept only when the user can act on it.
    if (isApiRequestError(error) && error.status >= 500) {
      throw new ApiRequestError(error.status, 'Failed to export documents', error.code);
    }
    throw error;
  }
}

export function useExportDocuments() {
  return useMutation({ mutationFn: exportDocuments });
}
