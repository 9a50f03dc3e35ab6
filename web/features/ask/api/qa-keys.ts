import type { QueryClient } from '@tanstack/react-query';

/**
 * Every query built on asked questions (pending tasks, chat history) sits under the 'qa' key root, so one
 * invalidation after asking refreshes them all, along with the sidebar's monthlyQueries in the organization stats.
 */
export function invalidateAfterAsking(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['qa'] }),
    queryClient.invalidateQueries({ queryKey: ['organization-stats'] }),
  ]).then(() => undefined);
}
