import { describe, expect, it } from 'vitest';
import { filterFromParams, paramsWithFilter } from './filter-params';
import { NO_FILTER } from './question-filter';

describe('the question filter kept in the address', () => {
  it('round-trips every part, leaving defaults out and other parameters alone', () => {
    const filter = {
      search: 'backup keys',
      status: 'completed',
      answerType: 'canonical',
      reviewState: 'approved',
    } as const;
    const params = paramsWithFilter(new URLSearchParams('question=7'), filter);
    expect(params.toString()).toBe('question=7&q=backup+keys&status=completed&type=canonical&review=approved');
    expect(filterFromParams(params)).toEqual(filter);
    expect(paramsWithFilter(params, NO_FILTER).toString()).toBe('question=7');
  });

  it('reads an unknown or missing value as no filter', () => {
    expect(filterFromParams(new URLSearchParams('status=done&type=magic&review=%3Cscript%3E'))).toEqual(NO_FILTER);
    expect(filterFromParams(new URLSearchParams(''))).toEqual(NO_FILTER);
  });

  it("shows only the questions in review from the review e-mail's link (server/modules/assessments/notifications.ts)", () => {
    const link = new URL('http://verity.test/assessments/b1?review=in_review&workspace=w1');
    expect(filterFromParams(link.searchParams)).toEqual({ ...NO_FILTER, reviewState: 'in_review' });
  });
});
