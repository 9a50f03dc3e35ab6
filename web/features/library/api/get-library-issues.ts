import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LibraryIssue } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

const IssueList = z.array(LibraryIssue);

/** Pairs of entries that ask the same thing (duplicates) or answer it differently (conflicts). */
export function getLibraryIssues(): Promise<LibraryIssue[]> {
  return api.get('/api/canonical-answers/issues', IssueList);
}

export const libraryIssuesQueryOptions = queryOptions({
  queryKey: queryKeys.library.issues,
  queryFn: getLibraryIssues,
});

/** Loaded only while the health view is open: comparing a large library is not free. */
export function useLibraryIssues({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...libraryIssuesQueryOptions, enabled });
}
