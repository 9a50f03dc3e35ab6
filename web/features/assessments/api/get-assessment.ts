import { queryOptions, useQuery } from '@tanstack/react-query';
import { AssessmentDetail } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { queryKeys } from '../../../app/query-keys';
import { detailPollInterval } from './poll-interval';

/** PRODUCT §9 GET /api/assessments/{id}: the batch, every question with its answer, and the progress counts. */
export function getAssessment(id: string, signal?: AbortSignal): Promise<AssessmentDetail> {
  return api.get(assessmentPath(id), AssessmentDetail, { signal, errorFallback: 'Could not load the assessment.' });
}

/**
 * Still moving when the batch is processing, or when a reviewer sent a question back to the worker (regenerate,
 * retry) and the batch has not caught up yet.
 */
export function isAssessmentMoving(detail: AssessmentDetail | undefined): boolean {
  if (!detail) return false;
  return detail.batch.status === 'processing' || detail.progress.pending > 0;
}

export function assessmentQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.assessments.detail(id),
    queryFn: ({ signal }) => getAssessment(id, signal),
    // Every second while processing (every 5 s for a very large one), and not at all once it is done. Structural
    // sharing keeps unchanged questions the same objects between polls, so their memoized rows do not re-render.
    refetchInterval: (query) =>
      detailPollInterval(isAssessmentMoving(query.state.data), query.state.data?.progress.total ?? 0),
  });
}

/** `enabled: false` holds the first load (until the workspace an e-mailed link names is current). */
export function useAssessment(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...assessmentQueryOptions(id), enabled });
}
