import { useQuery } from '@tanstack/react-query';
import type { TagCount } from '../../../../common/schemas/knowledge';
import { libraryTagsQueryOptions } from '../../../app/knowledge/get-library-tags';

/** Tags shown in the panel: the most used ones; the library's tag filter lists them all. */
export const POPULAR_TAG_COUNT = 12;

/** The most used tags first, ties in alphabetical order. */
export function popularTags(tags: readonly TagCount[]): TagCount[] {
  return [...tags].sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag)).slice(0, POPULAR_TAG_COUNT);
}

/** The library's most used tags, most used first. */
export function usePopularTags() {
  return useQuery({ ...libraryTagsQueryOptions, select: popularTags });
}
