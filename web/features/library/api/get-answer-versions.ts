import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { AnswerVersionView } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

const VersionList = z.array(AnswerVersionView);

/** Earlier versions of one entry, newest first. */
export function getAnswerVersions(id: string): Promise<AnswerVersionView[]> {
  return api.get(`/api/canonical-answers/${encodeURIComponent(id)}/versions`, VersionList);
}

export function answerVersionsQueryOptions(id: string) {
  return queryOptions({ queryKey: queryKeys.library.versions(id), queryFn: () => getAnswerVersions(id) });
}

export function useAnswerVersions(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...answerVersionsQueryOptions(id), enabled });
}
