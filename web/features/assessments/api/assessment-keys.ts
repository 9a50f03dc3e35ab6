import type { QueryClient } from '@tanstack/react-query';

/** Every assessments query sits under one root, so an import, a review or a delete refreshes them all with one call. */
export const assessmentKeys = {
  root: ['assessments'] as const,
  list: ['assessments', 'list'] as const,
  detail: (id: string) => ['assessments', 'detail', id] as const,
  batch: (id: string) => ['assessments', 'batch', id] as const,
};

/** After an import, a delete or a review: the list's counts and the open detail are stale. */
export function invalidateAssessments(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: assessmentKeys.root });
}

/** A path segment for an assessment id (ids are UUIDs; encoding keeps a hand-typed URL from escaping the path). */
export function assessmentPath(id: string, rest = ''): string {
  return `/api/assessments/${encodeURIComponent(id)}${rest}`;
}
