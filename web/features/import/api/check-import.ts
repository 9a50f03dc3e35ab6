import { useMutation } from '@tanstack/react-query';
import { ImportResult, type ImportEntry } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';

/**
 * Asks the server which entries an import would skip (a dry run: nothing is saved), so the preview can show
 * duplicates before anything is imported. Returns the indexes of entries whose question the workspace already has.
 */
export async function checkImport(entries: ImportEntry[]): Promise<Set<number>> {
  const result = await api.post(
    '/api/canonical-answers/import',
    ImportResult,
    { entries, dryRun: true },
    { errorFallback: 'Could not check for duplicates.' },
  );
  return new Set(result.duplicates.filter((d) => d.existingId !== null).map((d) => d.index));
}

export function useCheckImport() {
  return useMutation({ mutationFn: checkImport });
}
