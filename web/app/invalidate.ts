import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys';

// What a change makes stale, for changes that more than one feature makes (saving an answer from an assessment, an
// import, asking from the chat): the rule lives here once instead of in each feature that makes the change.

/**
 * After any change to the library: its lists, counts, tags and issues are stale, and so is the sidebar's
 * canonicalCount (and openConflicts) in the organization stats. Assessment answers show whether the entry they came
 * from changed or needs re-verification, so they are marked stale too (refetched when next shown).
 */
export function invalidateLibrary(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.library.root }),
    queryClient.invalidateQueries({ queryKey: queryKeys.organizationStats }),
    queryClient.invalidateQueries({ queryKey: queryKeys.assessments.root, refetchType: 'none' }),
  ]).then(() => undefined);
}

/** After an upload or delete: the lists are stale, and so is the sidebar's documentCount in the stats. */
export function invalidateDocuments(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.documents.root }),
    queryClient.invalidateQueries({ queryKey: queryKeys.organizationStats }),
  ]).then(() => undefined);
}

/**
 * After an import, a delete or a review: the list's counts and the open detail are stale, and so are the accuracy
 * figures (a review that ends records its outcome), which the bulk-accept offer quotes.
 */
export function invalidateAssessments(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.assessments.root }),
    queryClient.invalidateQueries({ queryKey: queryKeys.accuracy.root }),
  ]).then(() => undefined);
}

/**
 * After asking: everything built on asked questions (pending tasks, chat history) and the sidebar's monthlyQueries
 * in the organization stats.
 */
export function invalidateAfterAsking(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.qa.root }),
    queryClient.invalidateQueries({ queryKey: queryKeys.organizationStats }),
  ]).then(() => undefined);
}
