import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { BatchView } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';
import { listPollInterval } from './poll-interval';

const BatchList = z.array(BatchView);

/** The workspace's assessments, newest first. */
export function getAssessments(signal?: AbortSignal): Promise<BatchView[]> {
  return api.get('/api/assessments', BatchList, { signal });
}

export function assessmentsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.assessments.list,
    queryFn: ({ signal }) => getAssessments(signal),
    // The worker answers with no event to the browser: poll only while some assessment is still processing.
    refetchInterval: (query) => listPollInterval(query.state.data),
  });
}

export function useAssessments() {
  return useQuery(assessmentsQueryOptions());
}
