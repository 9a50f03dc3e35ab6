import { describe, expect, it } from 'vitest';
import { expectParseError } from './expect-parse-error';
import { parseImport } from './parse';
import type { ImportFormat } from './types';

const now = new Date('2025-01-31T14:05:09Z');

describe('parseImport: dispatch by format', () => {
  it('parses csv, json and manual (plain text)', () => {
    expect(parseImport('csv', 'question,answer\nQ,A', { now })[0]?.source).toBe('CSV import 2025-01-31 14:05');
    expect(parseImport('json', '[{"question":"Q","answer":"A"}]', { now })[0]?.source).toBe(
      'JSON import 2025-01-31 14:05',
    );
    expect(parseImport('manual', 'Q\nA', { now })[0]).toMatchObject({
      source: 'Text import 2025-01-31 14:05',
      confidence: 90,
    });
  });

  it('labels the source with the current time when no clock is given', () => {
    expect(parseImport('manual', 'Q\nA')[0]?.source).toMatch(/^Text import \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });
});

describe('parseImport: errors', () => {
  it.each(['csv', 'json', 'manual'] as const)('needs content (%s)', (format) => {
    expectParseError(() => parseImport(format, ''), 'Content is required');
    expectParseError(() => parseImport(format, ' \n\t '), 'Content is required');
  });

  it('says so when nothing was parsed', () => {
    expectParseError(() => parseImport('json', '[]'), 'No valid Q&A entries found');
    expectParseError(() => parseImport('csv', 'question,answer\nQ,\n,A'), 'No valid Q&A entries found');
    expectParseError(() => parseImport('json', '{"entries": []}'), 'No valid Q&A entries found');
  });

  it('refuses an unknown format from an untyped caller', () => {
    expectParseError(() => parseImport('xml' as ImportFormat, '<q/>'), 'Format must be one of csv, json, manual');
  });

  it('passes parser messages through', () => {
    expectParseError(() => parseImport('json', '{'), `Invalid JSON: ${jsonError('{')}`);
    expectParseError(() => parseImport('manual', 'Just one line'), 'Pair 1: Must have both question and answer lines');
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
