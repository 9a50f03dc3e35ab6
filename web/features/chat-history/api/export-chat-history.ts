import { useMutation } from '@tanstack/react-query';
import { apiDownload, saveFile } from '../../../lib/api';
import { todayStamp } from '../../../lib/export-file';
import { filterBody, type HistoryFilter } from '../history-filter';

/** Downloads every entry matching the filter as a dated CSV (PRODUCT §12: chat_history-YYYY-MM-DD.csv). */
export async function exportChatHistory(filter: HistoryFilter): Promise<void> {
  const file = await apiDownload('POST', '/api/qa/entries/export', `chat_history-${todayStamp()}.csv`, {
    body: filterBody(filter),
    errorFallback: 'Failed to export chat history',
  });
  saveFile(file);
}

export function useExportChatHistory() {
  return useMutation({ mutationFn: exportChatHistory });
}
