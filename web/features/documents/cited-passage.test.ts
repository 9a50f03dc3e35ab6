import { describe, expect, it } from 'vitest';
import type { DocumentChunkView } from '../../../common/schemas/documents';
import { documentPassagePath } from '../../lib/source-links';
import { citationFromParams, findCitedChunk, splitAtPassage } from './cited-passage';

const chunk = (ordinal: number, page: number | null, section: string | null, text: string): DocumentChunkView => ({
  ordinal,
  page,
  section,
  text,
});

const CHUNKS = [
  chunk(0, 1, 'Information Security Policy', 'Information Security Policy. Version 3.'),
  chunk(1, 1, '1. Data Protection', 'All customer data is encrypted at rest with AES-256. Keys rotate yearly.'),
  chunk(
    2,
    2,
    '2. Access Control',
    'Access to production requires\\nsingle sign-on and hardware keys.'.replace('\\n', '\n'),
  ),
];

describe('a source link carries the cited passage, not only the page', () => {
  it('names the document, page, section and the quoted words', () => {
    const path = documentPassagePath({
      documentId: 'd1',
      pageNumber: 1,
      section: '1. Data Protection',
      snippet: 'All customer data is encrypted at rest with AES-256.',
    });
    const params = new URL(path, 'http://x').searchParams;
    expect(params.get('document')).toBe('d1');
    expect(citationFromParams(params)).toEqual({
      page: 1,
      section: '1. Data Protection',
      passage: 'All customer data is encrypted at rest with AES-256.',
    });
  });
});

describe('the viewer finds the cited chunk', () => {
  it('lands on the chunk holding the quoted words, not the first chunk of the page', () => {
    const cited = { page: 1, section: null, passage: 'All customer data is encrypted at rest with AES-256.' };
    expect(findCitedChunk(CHUNKS, cited)).toBe(1);
  });

  it('matches the words across line breaks', () => {
    const cited = { page: 2, section: null, passage: 'Access to production requires single sign-on' };
    expect(findCitedChunk(CHUNKS, cited)).toBe(2);
  });

  it('falls back to the section, then to the page', () => {
    expect(findCitedChunk(CHUNKS, { page: 1, section: '1. data protection', passage: 'not there' })).toBe(1);
    expect(findCitedChunk(CHUNKS, { page: 2, section: null, passage: null })).toBe(2);
  });

  it('finds nothing (yet) when the passage is on a page of text not loaded', () => {
    expect(findCitedChunk(CHUNKS, { page: 9, section: null, passage: 'Backups are tested monthly.' })).toBeNull();
  });
});

describe('the quoted words are marked within the chunk', () => {
  it('splits around a verbatim quote', () => {
    expect(splitAtPassage('A. B is true. C.', 'B is true.')).toEqual(['A. ', 'B is true.', ' C.']);
  });

  it('splits around a quote whose spacing differs', () => {
    expect(splitAtPassage('x requires\nsingle sign-on y', 'requires single sign-on')).toEqual([
      'x ',
      'requires\nsingle sign-on',
      ' y',
    ]);
  });

  it('marks nothing when the words are not there', () => {
    expect(splitAtPassage('abc', 'xyz')).toBeNull();
    expect(splitAtPassage('abc', null)).toBeNull();
  });
});
