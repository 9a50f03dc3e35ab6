import { useMutation } from '@tanstack/react-query';
import type { ExportBody } from '../../../../common/schemas/knowledge';
import { ApiRequestError, apiDownload, isApiRequestError, saveFile } from '../../../lib/api';

export type ExportFormat = NonNullable<ExportBody['format']>;

function todayStamp(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Downloads the chosen entries as a dated CSV or Excel file (PRODUCT §12: canonical-answers-YYYY-MM-DD). */
export async function exportCanonicalAnswers(body: ExportBody): Promise<void> {
  const format = body.format ?? 'csv';
  try {
    const file = await apiDownload(
      'POST',
      '/api/canonical-answers/export',
      `canonical-answers-${todayStamp()}.${format}`,
      {
        body: { ...body, format },
        errorFallback: 'Failed to export answers',
      },
    );
    saveFile(file);
  } catch (error) {
    // PRODUCT §11 gives this call a fixed message; the server's own sentence is kept only when the user can act on it
    // (too many selected, an entry deleted meanwhile), not for a server fault.
    if (isApiRequestError(error) && error.status >= 500) {
      throw new ApiRequestError(error.status, 'Failed to export answers', error.code);
    }
    throw error;
  }
}

export function useExportCanonicalAnswers() {
  return useMutation({ mutationFn: exportCanonicalAnswers });
}
