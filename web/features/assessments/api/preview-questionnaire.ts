import { queryOptions, useQuery } from '@tanstack/react-query';
import { PreviewResponse, type SheetMapping } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** A chosen file and a token naming this choice: a File cannot go into a query key, its token can. */
export interface PickedFile {
  token: number;
  file: File;
}

/**
 * What the server reads from a questionnaire before anything is stored: its sheets, the detected question and
 * answer columns, the question count and the first questions. With `mapping`, the columns the user chose instead.
 */
export function previewQuestionnaire(
  file: File,
  mapping?: SheetMapping[],
  signal?: AbortSignal,
): Promise<PreviewResponse> {
  const form = new FormData();
  if (mapping) form.append('mapping', JSON.stringify(mapping));
  form.append('file', file, file.name);
  return api.postForm('/api/assessments/preview', PreviewResponse, form, {
    signal,
    errorFallback: 'This file could not be read.',
  });
}

const NO_FILE: PickedFile = { token: 0, file: new File([], 'none') };

export function previewQueryOptions(picked: PickedFile, mapping: SheetMapping[] | undefined) {
  return queryOptions({
    // Not under the assessments root: an import elsewhere must not re-send the file.
    queryKey: queryKeys.assessments.preview(picked.token, mapping),
    queryFn: ({ signal }) => previewQuestionnaire(picked.file, mapping, signal),
    // The file is in memory already; a preview is only worth keeping while the dialog shows it.
    gcTime: 0,
  });
}

/**
 * The preview of the picked file, refetched when the user changes a column; the previous preview stays on screen
 * while the new one loads, and a superseded request is cancelled.
 */
export function usePreviewQuestionnaire(picked: PickedFile | null, mapping: SheetMapping[] | undefined) {
  return useQuery({
    ...previewQueryOptions(picked ?? NO_FILE, mapping),
    enabled: picked !== null,
    // Another file's preview is never shown for this one.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === picked?.token ? previous : undefined),
  });
}
