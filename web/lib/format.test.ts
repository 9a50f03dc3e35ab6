import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatFileSize,
  formatLabel,
  formatNumber,
  formatPercent,
  fullName,
  initials,
} from './format';

// Noon UTC is the same calendar day in every time zone a test machine is likely to run in.
const NOON = '2025-03-04T12:00:00Z';

describe('formatNumber', () => {
  it('groups thousands the en-US way', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(-1500)).toBe('-1,500');
  });
});

describe('formatDate and formatDateTime', () => {
  it('writes a month name, the day and the year', () => {
    expect(formatDate(NOON)).toBe('Mar 4, 2025');
    expect(formatDate(new Date(NOON))).toBe('Mar 4, 2025');
    expect(formatDate(Date.parse(NOON))).toBe('Mar 4, 2025');
  });

  it('adds the time of day to the date', () => {
    const text = formatDateTime(NOON);
    expect(text.startsWith('Mar 4, 2025')).toBe(true);
    expect(text).toMatch(/\d{1,2}:\d{2}\s?[AP]M$/);
  });

  it('gives an empty string for a value that is not a date', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime('not a date')).toBe('');
    expect(formatDate(Number.NaN)).toBe('');
  });
});

describe('formatPercent', () => {
  it('rounds to a whole percent', () => {
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(87.4)).toBe('87%');
    expect(formatPercent(87.5)).toBe('88%');
    expect(formatPercent(100)).toBe('100%');
  });
});

describe('formatFileSize', () => {
  it('keeps whole bytes under a kilobyte', () => {
    expect(formatFileSize(1)).toBe('1 Bytes');
    expect(formatFileSize(1023)).toBe('1023 Bytes');
  });

  it('steps up by 1024 and keeps two decimals at most', () => {
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1024 * 1024 * 2.345)).toBe('2.35 MB');
    expect(formatFileSize(1024 ** 3)).toBe('1 GB');
  });

  it('stops at gigabytes', () => {
    expect(formatFileSize(1024 ** 4)).toBe('1024 GB');
  });

  it('says 0 Bytes for nothing, a negative or a non-finite size', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(-5)).toBe('0 Bytes');
    expect(formatFileSize(Number.NaN)).toBe('0 Bytes');
    expect(formatFileSize(Number.POSITIVE_INFINITY)).toBe('0 Bytes');
  });
});

describe('formatLabel', () => {
  it('turns snake, kebab and spaced words into capitalised words', () => {
    expect(formatLabel('super_admin')).toBe('Super Admin');
    expect(formatLabel('needs-review')).toBe('Needs Review');
    expect(formatLabel('  viewer  ')).toBe('Viewer');
    expect(formatLabel('a__b')).toBe('A B');
    expect(formatLabel('')).toBe('');
  });
});

describe('fullName', () => {
  it('joins the names there are', () => {
    expect(fullName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(fullName({ firstName: 'Ada', lastName: null })).toBe('Ada');
    expect(fullName({ firstName: '', lastName: 'Lovelace' })).toBe('Lovelace');
    expect(fullName({})).toBe('');
  });
});

describe('initials', () => {
  it('takes the first letters of first and last name', () => {
    expect(initials({ firstName: 'ada', lastName: 'lovelace', username: 'x' })).toBe('AL');
    expect(initials({ firstName: '  Grace ', lastName: ' Hopper' })).toBe('GH');
  });

  it('falls back to the username when either name is missing', () => {
    expect(initials({ firstName: 'Ada', lastName: null, username: 'ada.l' })).toBe('A');
    expect(initials({ firstName: '', lastName: 'Lovelace', username: 'zed' })).toBe('Z');
  });

  it('says U when there is nothing to take a letter from', () => {
    expect(initials({})).toBe('U');
    expect(initials({ firstName: ' ', username: '   ' })).toBe('U');
  });
});
