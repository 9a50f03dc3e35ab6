import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ImportResult, type ImportBody } from '../../../../common/schemas/knowledge';
import { apiFetchWithProgress } from '../../../lib/api';
import { invalidateLibrary } from '../../../app/invalidate';

export interface ImportInput {
  body: ImportBody;
  /** 0–100: the share of the request body sent so far, then 100 when the server has answered. */
  onProgress?: (percent: number) => void;
}

/** Adds the entries to the library, all or nothing; questions already there come back as skipped duplicates. */
export function importCanonicalAnswers({ body, onProgress }: ImportInput): Promise<ImportResult> {
  return apiFetchWithProgress('POST', '/api/canonical-answers/import', ImportResult, {
    body,
    errorFallback: 'Failed to import answers',
    onProgress,
  });
}

export function useImportCanonicalAnswers() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: importCanonicalAnswers, onSuccess: () => invalidateLibrary(queryClient) });
}
