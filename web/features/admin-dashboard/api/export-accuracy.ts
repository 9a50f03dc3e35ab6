import { useMutation } from '@tanstack/react-query';
import { accuracySearch, type AccuracyParams } from '../../../app/accuracy/accuracy-period';
import { apiDownload, saveFile } from '../../../lib/api';

/** The reviewed machine answers behind the Accuracy page's figures, one row each, as a CSV download. */
export async function exportAccuracy(params: AccuracyParams): Promise<void> {
  const file = await apiDownload(
    'GET',
    `/api/admin/accuracy/export?${accuracySearch(params)}`,
    `accuracy-${params.from}-to-${params.to}.csv`,
    { errorFallback: 'Could not export the accuracy rows.' },
  );
  saveFile(file);
}

export function useExportAccuracy() {
  return useMutation({ mutationFn: exportAccuracy });
}
