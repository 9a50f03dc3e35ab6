import { useMutation } from '@tanstack/react-query';
import type { ExportBody } from '../../../../common/schemas/knowledge';
import { postExport, todayStamp } from '../../../lib/export-file';

export type ExportFormat = NonNullable<ExportBody['format']>;

/** Downloads the chosen entries as a dated CSV or Excel file (PRODUCT §12: canonical-answers-YYYY-MM-DD). */
export function exportCanonicalAnswers(body: ExportBody): Promise<void> {
  const format = body.format ?? 'csv';
  return postExport(
    '/api/canonical-answers/export',
    `canonical-answers-${todayStamp()}.${format}`,
    { ...body, format },
    'Failed to export answers',
  );
}

export function useExportCanonicalAnswers() {
  return useMutation({ mutationFn: exportCanonicalAnswers });
}
