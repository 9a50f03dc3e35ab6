import { queryOptions, useQuery } from '@tanstack/react-query';
import { BatchView } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { queryKeys } from '../../../app/query-keys';
import { PROGRESS_POLL_MS } from './poll-interval';

/** The assessment's status and counts without its questions: light enough to poll from the chat. */
export function getAssessmentBatch(id: string, signal?: AbortSignal): Promise<BatchView> {
  return api.get(assessmentPath(id, '/batch'), BatchView, { signal, errorFallback: 'Could not load the assessment.' });
}

export function assessmentBatchQueryOptions(id: string) {
  return queryOptions({
    // Under the assessments root: a review on the detail page refreshes the chat's card too.
    queryKey: queryKeys.assessments.batch(id),
    queryFn: ({ signal }) => getAssessmentBatch(id, signal),
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? PROGRESS_POLL_MS : false),
  });
}

export function useAssessmentBatch(id: string) {
  return useQuery(assessmentBatchQueryOptions(id));
}
