import { describe, expect, it } from 'vitest';
import { freshnessNote, freshnessValue } from './library-freshness';

describe('library freshness on the analytics tab', () => {
  it('shows the share of fresh entries, or a dash without approved entries', () => {
    expect(freshnessValue({ approvedEntries: 4, needsReverification: 1, freshRate: 75 })).toBe('75%');
    expect(freshnessValue({ approvedEntries: 3, needsReverification: 1, freshRate: 66.7 })).toBe('66.7%');
    expect(freshnessValue({ approvedEntries: 0, needsReverification: 0, freshRate: null })).toBe('–');
  });

  it('says how many entries need re-verification', () => {
    expect(freshnessNote({ approvedEntries: 0, needsReverification: 0, freshRate: null })).toBe(
      'No approved library entries yet',
    );
    expect(freshnessNote({ approvedEntries: 1200, needsReverification: 0, freshRate: 100 })).toBe(
      'All 1,200 approved entries are verified in time',
    );
    expect(freshnessNote({ approvedEntries: 4, needsReverification: 1, freshRate: 75 })).toBe(
      '1 of 4 approved entries needs re-verification',
    );
    expect(freshnessNote({ approvedEntries: 4, needsReverification: 3, freshRate: 25 })).toBe(
      '3 of 4 approved entries need re-verification',
    );
  });
});
