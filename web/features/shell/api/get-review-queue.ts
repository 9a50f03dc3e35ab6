import { queryOptions, useQuery } from '@tanstack/react-query';
import { STATS_REFETCH_MS } from '../../../../common/constants';
import { ReviewQueue } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** How many questions of this workspace wait for a reviewer (managers and admins only: others get 403). */
export function getReviewQueue(signal?: AbortSignal): Promise<ReviewQueue> {
  return api.get('/api/review-queue', ReviewQueue, { signal });
}

export const reviewQueueQueryOptions = queryOptions({
  // Under the assessments root: the reviewer's own approve or send-back refreshes it at once. Answers others submit
  // arrive with the sidebar's other counts, on the same interval.
  queryKey: queryKeys.assessments.reviewQueue,
  queryFn: ({ signal }) => getReviewQueue(signal),
  refetchInterval: STATS_REFETCH_MS,
});

/** The sidebar's review badge; `enabled` only for those who may approve. */
export function useReviewQueue({ enabled }: { enabled: boolean }) {
  return useQuery({ ...reviewQueueQueryOptions, enabled });
}
