import { describe, expect, it } from 'vitest';
import { normalizeQuestion } from './normalize';

describe('normalizeQuestion: same text after normalising case, spacing and punctuation', () => {
  it('lower-cases, collapses punctuation and spacing, and trims', () => {
    expect(normalizeQuestion('  Do you ENCRYPT data-at-rest?? ')).toBe('do you encrypt data at rest');
    expect(normalizeQuestion('Do you encrypt data at rest')).toBe(normalizeQuestion('do you, encrypt  data at rest?'));
  });

  it('treats compatibility forms (full-width letters, ligatures) as their plain letters', () => {
    expect(normalizeQuestion('ＳＳＯ ﬁle')).toBe('sso file');
  });

  it('keeps letters and digits of any script', () => {
    expect(normalizeQuestion('Chiffrez-vous les données? (ISO 27001)')).toBe('chiffrez vous les données iso 27001');
    expect(normalizeQuestion('データを暗号化していますか？')).toBe('データを暗号化していますか');
  });

  it('gives an empty string for text with no letters or digits', () => {
    expect(normalizeQuestion(' ?!… ')).toBe('');
  });
});
