import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateAfterAsking, invalidateAssessments, invalidateLibrary } from './invalidate';
import { queryKeys } from './query-keys';

/** The keys of the cached queries an invalidation marked stale. */
async function staleAfter(keys: readonly (readonly unknown[])[], invalidate: (client: QueryClient) => Promise<void>) {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, 'data');
  await invalidate(client);
  return client
    .getQueryCache()
    .getAll()
    .filter((query) => query.isStale())
    .map((query) => query.queryKey);
}

const filter = { q: '', status: undefined, tag: undefined };

describe('query keys', () => {
  it('put every library query under the library root', () => {
    const keys = [
      queryKeys.library.list(filter),
      queryKeys.library.counts('', undefined),
      queryKeys.library.ids(filter),
      queryKeys.library.tags,
      queryKeys.library.issues,
      queryKeys.library.versions('a1'),
      queryKeys.library.suggestions('pending'),
    ];
    for (const key of keys) expect(key.slice(0, 1)).toEqual(queryKeys.library.root);
  });

  it('put the pending task lists under the organization stats and the history under qa', () => {
    expect(queryKeys.pendingTasks.panel.slice(0, 1)).toEqual(queryKeys.organizationStats);
    expect(queryKeys.pendingTasks.all.slice(0, 1)).toEqual(queryKeys.organizationStats);
    expect(queryKeys.qa.historySessions.slice(0, 1)).toEqual(queryKeys.qa.root);
    expect(queryKeys.qa.historyEntries({}, 0).slice(0, 1)).toEqual(queryKeys.qa.root);
  });

  it('keep the assessment preview out of the assessments root', () => {
    expect(queryKeys.assessments.preview(1, undefined)).toEqual(['assessment-preview', 1, null]);
    expect(queryKeys.assessments.preview(1, undefined)[0]).not.toBe(queryKeys.assessments.root[0]);
  });
});

describe('invalidation', () => {
  it('after a library change: every library query and the stats with their task lists, nothing else', async () => {
    const stale = await staleAfter(
      [
        queryKeys.library.list(filter),
        queryKeys.library.tags,
        queryKeys.organizationStats,
        queryKeys.pendingTasks.panel,
        queryKeys.documents.root,
        queryKeys.me,
      ],
      invalidateLibrary,
    );
    expect(stale).toEqual([
      queryKeys.library.list(filter),
      queryKeys.library.tags,
      queryKeys.organizationStats,
      queryKeys.pendingTasks.panel,
    ]);
  });

  it('after asking: the chat history and the stats, not the library', async () => {
    const stale = await staleAfter(
      [queryKeys.qa.historySessions, queryKeys.organizationStats, queryKeys.library.tags],
      invalidateAfterAsking,
    );
    expect(stale).toEqual([queryKeys.qa.historySessions, queryKeys.organizationStats]);
  });

  it("after a submit, approval or send-back: the assessments, My questions and the sidebar's review count", async () => {
    const stale = await staleAfter(
      [queryKeys.assessments.detail('b1'), queryKeys.assessments.mine, queryKeys.assessments.reviewQueue, queryKeys.me],
      invalidateAssessments,
    );
    expect(stale).toEqual([
      queryKeys.assessments.detail('b1'),
      queryKeys.assessments.mine,
      queryKeys.assessments.reviewQueue,
    ]);
  });
});
