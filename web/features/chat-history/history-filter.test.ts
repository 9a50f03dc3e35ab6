import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_FILTER, filterBody, periodStart } from './history-filter';

describe('filterBody', () => {
  it('sends only the period for the default filter', () => {
    expect(filterBody(DEFAULT_HISTORY_FILTER)).toEqual({ period: 'all' });
  });

  it('sends the chosen user, answer type and trimmed search', () => {
    expect(filterBody({ q: '  sso  ', userId: 'u1', period: '7d', answerType: 'generated' })).toEqual({
      period: '7d',
      userId: 'u1',
      answerType: 'generated',
      q: 'sso',
    });
  });

  it('leaves out a search of spaces', () => {
    expect(filterBody({ ...DEFAULT_HISTORY_FILTER, q: '   ' })).not.toHaveProperty('q');
  });
});

describe('periodStart', () => {
  const now = new Date('2025-06-15T17:45:30Z');

  it('starts today at UTC midnight', () => {
    expect(periodStart('today', now)?.toISOString()).toBe('2025-06-15T00:00:00.000Z');
  });

  it('rolls back 7 or 30 days from now', () => {
    expect(periodStart('7d', now)?.toISOString()).toBe('2025-06-08T17:45:30.000Z');
    expect(periodStart('30d', now)?.toISOString()).toBe('2025-05-16T17:45:30.000Z');
  });

  it('has no start for all time', () => {
    expect(periodStart('all', now)).toBeNull();
  });

  it('does not change the date it was given', () => {
    const given = new Date(now);
    periodStart('today', given);
    expect(given.getTime()).toBe(now.getTime());
  });
});
