import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { TopMatch } from '../../../../common/schemas/qa';
import { api } from '../../../lib/api';

const MatchList = z.array(TopMatch);

/** Library entries closest to a question, best first, with their similarity in percent. */
export function getLibraryMatches(question: string, signal?: AbortSignal): Promise<TopMatch[]> {
  return api.get(`/api/qa/matches?${new URLSearchParams({ q: question }).toString()}`, MatchList, { signal });
}

// Under the library's key root: adding or changing an entry re-checks every question against the library.
export function libraryMatchesQueryOptions(question: string) {
  return queryOptions({
    queryKey: ['canonical-answers', 'matches', question],
    queryFn: ({ signal }) => getLibraryMatches(question, signal),
  });
}
