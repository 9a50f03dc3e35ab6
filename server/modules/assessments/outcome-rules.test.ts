import { describe, expect, it } from 'vitest';
import { answerProvenance, approvalOutcome, editDistance, normalizeWhitespace, questionTopic } from './outcome-rules';

describe('the outcome of an approval', () => {
  const machine = 'Yes. Every employee signs in through Okta with phishing-resistant MFA.';

  it('is unchanged when the approved text is the machine’s, whitespace aside', () => {
    expect(approvalOutcome(machine, 'canonical', machine)).toEqual({ outcome: 'unchanged', editDistance: 0 });
    expect(approvalOutcome(machine, 'canonical', `  ${machine.replace(/ /g, ' \n ')}\t`)).toEqual({
      outcome: 'unchanged',
      editDistance: 0,
    });
  });

  it('is edited up to half the text changed, with its distance', () => {
    const edited = `${machine} Reviewed yearly.`;
    const result = approvalOutcome(machine, 'generated', edited);
    expect(result.outcome).toBe('edited');
    expect(result.editDistance).toBeCloseTo(' Reviewed yearly.'.length / edited.length, 6);
  });

  it('is replaced past half the text changed', () => {
    expect(approvalOutcome(machine, 'canonical', 'No. We do not use MFA anywhere.').outcome).toBe('replaced');
  });

  it('is replaced whatever a person writes in place of a Needs Review answer', () => {
    const needsReview = 'No approved answer covers this question yet.';
    expect(approvalOutcome(needsReview, 'unknown', 'No approved answer covers this question.').outcome).toBe(
      'replaced',
    );
  });
});

describe('the normalized edit distance', () => {
  it('is 0 for the same text, 1 for nothing in common, and symmetric', () => {
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', 'xyz')).toBe(1);
    expect(editDistance('', 'abc')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBeCloseTo(3 / 7, 6);
    expect(editDistance('sitting', 'kitten')).toBeCloseTo(3 / 7, 6);
  });

  it('compares long texts word by word, within bounds', () => {
    const long = 'word '.repeat(5000);
    const d = editDistance(long, `${long} extra`);
    expect(d).toBeGreaterThan(0);
    expect(d).toBeLessThan(0.01);
  });

  it('normalises whitespace', () => {
    expect(normalizeWhitespace(' a \n\t b ')).toBe('a b');
  });
});

describe('what an outcome records of the answer', () => {
  it('takes the first library entry and every document cited', () => {
    const entry = '0b6f7c1e-1d2a-4c3b-8e9f-0a1b2c3d4e5f';
    const doc = '1c7a8d2f-2e3b-4d4c-9f0a-1b2c3d4e5f60';
    expect(
      answerProvenance([
        { type: 'document', documentId: doc, score: 0.5 },
        { type: 'library', canonicalAnswerId: entry, score: 0.9 },
        { type: 'document', documentId: doc, score: 0.4 },
        { type: 'library', canonicalAnswerId: 'not-an-id', score: 0.9 },
      ]),
    ).toEqual({ libraryEntryId: entry, documentIds: [doc] });
    expect(answerProvenance(null)).toEqual({ libraryEntryId: null, documentIds: [] });
  });

  it('counts a question under its taxonomy topic, or other', () => {
    expect(questionTopic('Is multi-factor authentication required for all employees?')).not.toBe('other');
    expect(questionTopic('Does your company operate delivery drones over customer sites?')).toBe('other');
  });
});
