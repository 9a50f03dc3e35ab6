import { describe, expect, it } from 'vitest';
import { exportParams } from './export-assessment';

const query = (options: Parameters<typeof exportParams>[0]) => exportParams(options).toString();

describe('export query', () => {
  it("sends only what differs from the server's defaults", () => {
    expect(query({ format: 'csv' })).toBe('format=csv');
    expect(query({ format: 'xlsx', withSources: true, generic: true, drafts: true })).toBe(
      'format=xlsx&sources=1&drafts=1&generic=1',
    );
  });

  it('asks for approved answers only, and then never for drafts', () => {
    expect(query({ format: 'original', scope: 'approved', drafts: true })).toBe('format=original&scope=approved');
  });

  it("leaves Verity's unreviewed answers out when asked, keeping a colleague's drafts", () => {
    expect(query({ format: 'csv', machine: false, drafts: true })).toBe('format=csv&drafts=1&machine=0');
    expect(query({ format: 'csv', scope: 'approved', machine: false })).toBe('format=csv&scope=approved');
  });

  it('keeps the Source column and the new workbook to Excel', () => {
    expect(query({ format: 'csv', withSources: true, generic: true })).toBe('format=csv');
  });
});
