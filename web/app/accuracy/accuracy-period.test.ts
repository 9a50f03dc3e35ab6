import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateAssessments } from '../invalidate';
import { queryKeys } from '../query-keys';
import {
  accuracyParams,
  accuracySearch,
  acceptOfferSentence,
  periodPhrase,
  thresholdSentence,
  utcDay,
} from './accuracy-period';

const NOW = new Date('2026-03-31T23:30:00Z');

describe('accuracy period → query', () => {
  it('"last N days" ends today (UTC) and counts today as one of the N', () => {
    expect(accuracyParams({ kind: 'recent', days: 30 }, NOW)).toEqual({
      params: { from: '2026-03-02', to: '2026-03-31' },
      error: null,
    });
    expect(accuracyParams({ kind: 'recent', days: 90 }, NOW).params).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(accuracyParams({ kind: 'recent', days: 365 }, NOW).params).toEqual({
      from: '2025-04-01',
      to: '2026-03-31',
    });
  });

  it('counts days in UTC whatever the hour', () => {
    expect(utcDay(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01');
    expect(utcDay(new Date('2025-12-31T23:59:59Z'))).toBe('2025-12-31');
  });

  it('takes a chosen range as it is, one day included', () => {
    expect(accuracyParams({ kind: 'range', from: '2026-02-01', to: '2026-02-01' }).params).toEqual({
      from: '2026-02-01',
      to: '2026-02-01',
    });
  });

  it('refuses a range with a missing, impossible or reversed end, or longer than two years, with a sentence', () => {
    expect(accuracyParams({ kind: 'range', from: '', to: '2026-02-01' }).error).toBe(
      'Choose both the first and the last day.',
    );
    expect(accuracyParams({ kind: 'range', from: '2026-02-30', to: '2026-03-01' }).error).toBe(
      'Choose both the first and the last day.',
    );
    expect(accuracyParams({ kind: 'range', from: '2026-03-02', to: '2026-03-01' }).error).toBe(
      'The first day must not be after the last day.',
    );
    // 731 days (the server's limit) pass; 732 do not.
    expect(accuracyParams({ kind: 'range', from: '2024-01-01', to: '2025-12-31' }).error).toBeNull();
    expect(accuracyParams({ kind: 'range', from: '2024-01-01', to: '2026-01-01' }).error).toBe(
      'Choose at most 731 days (two years).',
    );
  });

  it('writes the query string, with a band only when asked', () => {
    const params = { from: '2026-01-01', to: '2026-03-31' };
    expect(accuracySearch(params)).toBe('from=2026-01-01&to=2026-03-31');
    expect(accuracySearch(params, '90-100')).toBe('from=2026-01-01&to=2026-03-31&band=90-100');
  });

  it('names the period in a sentence', () => {
    expect(periodPhrase({ kind: 'recent', days: 90 })).toBe('in the last 90 days');
    expect(periodPhrase({ kind: 'range', from: '2026-01-01', to: '2026-03-31' })).toBe('from 2026-01-01 to 2026-03-31');
  });
});

describe('threshold sentences', () => {
  const threshold = { confidence: 87, kept: 212, reviewed: 215 };

  it('give the evidence when there is a threshold', () => {
    expect(thresholdSentence(threshold)).toBe('Answers at or above 87% were kept unchanged 212 of 215 times.');
    expect(acceptOfferSentence(threshold)).toBe(
      'Accept ≥ 87%: 212 of 215 answers at or above it were kept unchanged in the last 90 days.',
    );
    expect(thresholdSentence({ confidence: 90, kept: 1960, reviewed: 2000 })).toBe(
      'Answers at or above 90% were kept unchanged 1,960 of 2,000 times.',
    );
  });

  it('say what is missing when there is none', () => {
    expect(thresholdSentence(null)).toBe(
      'Not enough reviews yet: a threshold needs at least 50 reviewed answers at or above it, 98% of them kept unchanged.',
    );
    expect(acceptOfferSentence(null)).toMatch(/^Not enough evidence yet .*at least 50 .*in the last 90 days/);
  });
});

describe('accuracy query key', () => {
  it('is workspace data that any review makes stale', async () => {
    const client = new QueryClient();
    const key = queryKeys.accuracy.view('2026-01-01', '2026-03-31');
    client.setQueryData(key, 'data');
    client.setQueryData(queryKeys.me, 'data');
    await invalidateAssessments(client);
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.me)?.isInvalidated).toBe(false);
    expect(key.slice(0, 1)).toEqual(queryKeys.accuracy.root);
  });
});
