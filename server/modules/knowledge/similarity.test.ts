import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentWords, disagreement, figures, jaccard, polarity, similarPairs, stem } from './similarity';

describe('contentWords', () => {
  it('drops question words, folds endings and merges security synonyms', () => {
    expect(contentWords('Do you encrypt data at rest?').sort()).toEqual(['atrest', 'data', 'encrypt']);
    expect(contentWords('Is data encrypted at rest?').sort()).toEqual(['atrest', 'data', 'encrypt']);
    expect(contentWords('Is multi-factor authentication (2FA) required?')).toEqual(['mfa', 'requir']);
    expect(contentWords('Do you require MFA?')).toEqual(['requir', 'mfa']);
    expect(contentWords('Annual pen-testing?')).toEqual(['annual', 'pentest']);
  });

  it('folds common endings', () => {
    expect(['encrypts', 'encrypted', 'encryption', 'encrypting'].map(stem)).toEqual(Array(4).fill('encrypt'));
    expect(['policy', 'policies'].map(stem)).toEqual(['policy', 'policy']);
    expect(stem('TLS1')).toBe('TLS1');
  });
});

describe('similarPairs', () => {
  it('finds exactly the pairs a full comparison finds', () => {
    const words = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(words, { maxLength: 6 }), { maxLength: 30 }), (sets) => {
        const threshold = 0.7;
        const expected: string[] = [];
        for (let i = 0; i < sets.length; i += 1) {
          for (let j = i + 1; j < sets.length; j += 1) {
            const a = new Set(sets[i]);
            const b = new Set(sets[j]);
            const sim = jaccard(a, b);
            if (a.size > 0 && b.size > 0 && sim >= threshold && (Math.min(a.size, b.size) > 1 || sim === 1)) {
              expected.push(`${i}-${j}`);
            }
          }
        }
        const got = similarPairs(sets, threshold).map((p) => `${p.a}-${p.b}`);
        expect(got.sort()).toEqual(expected.sort());
      }),
      { numRuns: 300 },
    );
  });
});

describe('disagreement', () => {
  it('sees yes against no, and different figures for the same fact', () => {
    expect(polarity('Yes, always.')).toBe('yes');
    expect(polarity('No.')).toBe('no');
    expect(polarity('N/A for SaaS.')).toBe('na');
    expect(polarity('We do.')).toBeNull();
    expect(disagreement('Yes, enforced.', 'No, not yet.')).toBe('One answer says yes, the other says no.');
    expect(disagreement('Kept 90 days.', 'Kept 30 days.')).toBe('The answers give different figures (90 vs 30).');
    expect([...figures('1,000 users and AES-256, TLS 1.2')]).toEqual(['1000', '256', '1.2']);
  });

  it('does not call added detail a disagreement', () => {
    expect(disagreement('Yes, AES-256.', 'Yes. AES-256 at rest and TLS 1.2 in transit.')).toBeNull();
    expect(disagreement('We encrypt everything.', 'Everything is encrypted.')).toBeNull();
  });
});
