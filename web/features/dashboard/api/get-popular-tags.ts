import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { TagCount } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** Tags shown in the panel: the most used ones; the library's tag filter lists them all. */
export const POPULAR_TAG_COUNT = 12;

const TagList = z.array(TagCount);

export function getPopularTags(): Promise<TagCount[]> {
  return api.get('/api/canonical-answers/tags', TagList);
}

// The library's own key for the same call: one cache entry, refreshed by every library change.
export const popularTagsQueryOptions = queryOptions({
  queryKey: queryKeys.library.tags,
  queryFn: getPopularTags,
  select: (tags) =>
    [...tags].sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag)).slice(0, POPULAR_TAG_COUNT),
});

/** The library's most used tags, most used first. */
export function usePopularTags() {
  return useQuery(popularTagsQueryOptions);
}
