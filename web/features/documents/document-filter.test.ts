import { describe, expect, it } from 'vitest';
import { documentFilterParams } from './api/document-filter';

describe('documentFilterParams', () => {
  it('leaves out the defaults: no search and all types', () => {
    expect(documentFilterParams({ q: '  ', type: 'all' }).toString()).toBe('');
  });

  it('sends the trimmed search and a chosen type', () => {
    expect(documentFilterParams({ q: ' policy ', type: 'pdf' }).toString()).toBe('q=policy&type=pdf');
  });
});
