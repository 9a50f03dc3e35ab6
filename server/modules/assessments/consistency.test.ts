import { describe, expect, it } from 'vitest';
import { findContradictions, polarity } from './consistency';

const q = (orderIndex: number, question: string, answer: string | null, controlId: string | null = null) => ({
  orderIndex,
  question,
  answer,
  controlId,
});

describe('polarity', () => {
  it('reads the Yes or No an answer starts with, and nothing else', () => {
    expect(polarity('Yes. We do.')).toBe('yes');
    expect(polarity('  no, never')).toBe('no');
    expect(polarity('Yesterday we…')).toBeNull();
    expect(polarity('Not applicable')).toBeNull();
    expect(polarity(null)).toBeNull();
  });
});

describe('findContradictions', () => {
  it('pairs opposite answers to the same question in other words', () => {
    const found = findContradictions([
      q(1, 'Is MFA enforced for remote access?', 'Yes. Okta enforces it.'),
      q(2, 'Do you encrypt backups?', 'Yes.'),
      q(3, 'Is multi-factor authentication enforced for all remote access?', 'No, only for admins.'),
    ]);
    expect(Object.fromEntries(found)).toEqual({ 1: [3], 3: [1] });
  });

  it('leaves agreeing answers, different controls and answers without Yes/No alone', () => {
    expect(
      findContradictions([
        q(1, 'Is MFA enforced for remote access?', 'Yes.'),
        q(2, 'Is multi-factor authentication enforced for remote access?', 'Yes, always.'),
        q(3, 'Do you encrypt backups at rest?', 'No.'),
        q(4, 'Do you encrypt laptops?', 'Full-disk encryption with FileVault.'),
        q(5, 'Is a penetration test performed annually?', 'Yes.'),
        q(6, 'Do you allow customers to run their own penetration tests?', 'No.'),
      ]).size,
    ).toBe(0);
  });

  it('compares questions under one control id even when the taxonomy names no topic', () => {
    const found = findContradictions([
      q(1, 'Is the widget frobnicator calibrated monthly?', 'Yes.', 'XYZ-01'),
      q(2, 'Is the widget frobnicator calibrated every month by staff?', 'No.', 'xyz-01 '),
    ]);
    expect(Object.fromEntries(found)).toEqual({ 1: [2], 2: [1] });
  });
});
