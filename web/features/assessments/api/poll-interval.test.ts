import { describe, expect, it } from 'vitest';
import { detailPollInterval, listPollInterval } from './poll-interval';
import { assessmentsQueryOptions } from './get-assessments';
import { assessmentQueryOptions } from './get-assessment';

describe('list polling: at most a second behind while a batch is processing, none once all are done', () => {
  it('polls every second while any assessment is processing', () => {
    const interval = listPollInterval([{ status: 'completed' }, { status: 'processing' }]);
    expect(interval).not.toBe(false);
    expect(interval).toBeLessThanOrEqual(1000);
  });

  it('stops when none is processing, or before anything loaded', () => {
    expect(listPollInterval([{ status: 'completed' }, { status: 'failed' }])).toBe(false);
    expect(listPollInterval([])).toBe(false);
    expect(listPollInterval(undefined)).toBe(false);
  });
});

describe('detail polling: as fast as the list for ordinary assessments', () => {
  it('polls every second while moving', () => {
    expect(detailPollInterval(true, 50)).toBeLessThanOrEqual(1000);
  });

  it('slows down for a very large assessment, whose every response is megabytes', () => {
    expect(detailPollInterval(true, 5000)).toBe(5000);
    expect(detailPollInterval(true, 1000)).toBe(5000);
  });

  it('stops once nothing moves', () => {
    expect(detailPollInterval(false, 50)).toBe(false);
  });
});

describe('the queries use these intervals', () => {
  type ListOptions = ReturnType<typeof assessmentsQueryOptions>;
  type DetailOptions = ReturnType<typeof assessmentQueryOptions>;

  function listInterval(statuses: string[]) {
    const fn = assessmentsQueryOptions().refetchInterval;
    if (typeof fn !== 'function') throw new Error('expected an interval function');
    const query = { state: { data: statuses.map((status) => ({ status })) } };
    return fn(query as unknown as Parameters<Extract<ListOptions['refetchInterval'], (...a: never[]) => unknown>>[0]);
  }

  function detailInterval(status: string, total: number) {
    const fn = assessmentQueryOptions('a').refetchInterval;
    if (typeof fn !== 'function') throw new Error('expected an interval function');
    const data = { batch: { status }, progress: { pending: 0, total }, questions: [] };
    const query = { state: { data } };
    return fn(query as unknown as Parameters<Extract<DetailOptions['refetchInterval'], (...a: never[]) => unknown>>[0]);
  }

  it('the Bulk Assessments list refreshes every second while a batch is processing', () => {
    expect(listInterval(['processing'])).toBe(1000);
    expect(listInterval(['completed'])).toBe(false);
  });

  it('the detail page refreshes every second while its batch is processing', () => {
    expect(detailInterval('processing', 50)).toBe(1000);
    expect(detailInterval('completed', 50)).toBe(false);
  });
});
