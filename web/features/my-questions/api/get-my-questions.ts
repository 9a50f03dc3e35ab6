import { queryOptions, useQuery } from '@tanstack/react-query';
import { MyQuestionsResponse, type MyQuestion } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** The questions assigned to the caller in this workspace that still need them, soonest due first. */
export async function getMyQuestions(signal?: AbortSignal): Promise<MyQuestion[]> {
  const result = await api.get('/api/my-questions', MyQuestionsResponse, {
    signal,
    errorFallback: 'Could not load your questions.',
  });
  return result.questions;
}

export function myQuestionsQueryOptions() {
  return queryOptions({
    // Under the assessments root: an assignment or a review anywhere refreshes it.
    queryKey: queryKeys.assessments.mine,
    queryFn: ({ signal }) => getMyQuestions(signal),
  });
}

export function useMyQuestions() {
  return useQuery(myQuestionsQueryOptions());
}
