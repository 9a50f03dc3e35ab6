import { NO_FILTER, isAnswerTypeFilter, isReviewFilter, isStatusFilter, type QuestionFilter } from './question-filter';

/** The address's parameter for each part of the question filter. */
const PARAMS = { search: 'q', status: 'status', answerType: 'type', reviewState: 'review' } as const;

/**
 * The question filter an address holds: it lives in the address so that Back from a source the reviewer opened
 * returns to the same filtered list. An unknown value is no filter, never an error.
 */
export function filterFromParams(params: URLSearchParams): QuestionFilter {
  const status = params.get(PARAMS.status) ?? 'all';
  const answerType = params.get(PARAMS.answerType) ?? 'all';
  const reviewState = params.get(PARAMS.reviewState) ?? 'all';
  return {
    search: params.get(PARAMS.search) ?? NO_FILTER.search,
    status: isStatusFilter(status) ? status : NO_FILTER.status,
    answerType: isAnswerTypeFilter(answerType) ? answerType : NO_FILTER.answerType,
    reviewState: isReviewFilter(reviewState) ? reviewState : NO_FILTER.reviewState,
  };
}

/** The address's parameters with `filter` in them (defaults left out); other parameters are kept. */
export function paramsWithFilter(params: URLSearchParams, filter: QuestionFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of Object.keys(PARAMS) as (keyof QuestionFilter)[]) {
    const value = filter[key];
    if (value === NO_FILTER[key]) next.delete(PARAMS[key]);
    else next.set(PARAMS[key], value);
  }
  return next;
}
