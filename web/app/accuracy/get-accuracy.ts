import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AccuracyView } from '../../../common/schemas/accuracy';
import { api } from '../../lib/api';
import { queryKeys } from '../query-keys';
import { accuracySearch, type AccuracyParams } from './accuracy-period';

/**
 * What reviewers did with the machine's answers in the current workspace over a period. Shared by the Admin
 * Dashboard's Accuracy page and the assessments' bulk-accept offer, which quote the same figures.
 */
export function getAccuracy(params: AccuracyParams, signal?: AbortSignal): Promise<AccuracyView> {
  return api.get(`/api/admin/accuracy?${accuracySearch(params)}`, AccuracyView, {
    signal,
    errorFallback: 'Could not load the accuracy figures.',
  });
}

export function accuracyQueryOptions(params: AccuracyParams) {
  return queryOptions({
    queryKey: queryKeys.accuracy.view(params.from, params.to),
    queryFn: ({ signal }) => getAccuracy(params, signal),
  });
}

interface UseAccuracyOptions {
  /** False while the period is not a valid one, or the caller may not read the figures. */
  enabled?: boolean;
}

/** The previous period's figures stay on screen while another period loads. */
export function useAccuracy(params: AccuracyParams | null, { enabled = true }: UseAccuracyOptions = {}) {
  // A placeholder period keeps the hook's call unconditional; `enabled` stops it from being asked for.
  const options = accuracyQueryOptions(params ?? { from: '', to: '' });
  return useQuery({ ...options, enabled: enabled && params !== null, placeholderData: keepPreviousData });
}
