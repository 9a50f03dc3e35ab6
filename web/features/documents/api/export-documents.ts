import { useMutation } from '@tanstack/react-query';
import { postExport, todayStamp } from '../../../lib/export-file';

/** Downloads the chosen documents' details as a dated CSV (PRODUCT §12: documents-YYYY-MM-DD.csv). */
export function exportDocuments(documentIds: string[]): Promise<void> {
  return postExport(
    '/api/documents/export',
    `documents-${todayStamp()}.csv`,
    { documentIds },
    'Failed to export documents',
  );
}

export function useExportDocuments() {
  return useMutation({ mutationFn: exportDocuments });
}
