import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { TagCount } from '../../../common/schemas/knowledge';
import { api } from '../../lib/api';
import { queryKeys } from '../query-keys';

const TagList = z.array(TagCount);

export function getLibraryTags(): Promise<TagCount[]> {
  return api.get('/api/canonical-answers/tags', TagList);
}

/** One cache entry for the library's tag filter and the side panel's popular tags, refreshed by every library change. */
export const libraryTagsQueryOptions = queryOptions({ queryKey: queryKeys.library.tags, queryFn: getLibraryTags });

/** Tags in use with how many entries carry each, for the tag filter. */
export function useLibraryTags() {
  return useQuery(libraryTagsQueryOptions);
}
