import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { EvidenceResponse } from '../../../../common/schemas/evidence';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';
import { assessmentPath } from './assessment-path';

/** Library entries and document passages for a question, or for typed words (q; '' searches the question). */
export function getQuestionEvidence(
  batchId: string,
  questionId: string,
  q: string,
  signal?: AbortSignal,
): Promise<EvidenceResponse> {
  const query = q === '' ? '' : `?${new URLSearchParams({ q }).toString()}`;
  return api.get(
    assessmentPath(batchId, `/questions/${encodeURIComponent(questionId)}/evidence${query}`),
    EvidenceResponse,
    { signal, errorFallback: 'Could not search the library and documents.' },
  );
}

export function useQuestionEvidence(batchId: string, questionId: string, q: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.assessments.evidence(batchId, questionId, q),
    queryFn: ({ signal }) => getQuestionEvidence(batchId, questionId, q, signal),
    enabled,
    // A search is a question asked of the engine: kept for the editor's life rather than asked again on each focus.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
    // The earlier results stay while a new search runs, so the list does not collapse and jump.
    placeholderData: keepPreviousData,
  });
}
