import { describe, expect, it } from 'vitest';
import { EXPIRY_OPTIONS, expiryDaysOf, expiryOptionValue } from './expiry-options';

describe('expiry options', () => {
  it('turn each choice into its days and back', () => {
    for (const option of EXPIRY_OPTIONS) {
      expect(expiryDaysOf(option.value)).toBe(option.days);
      expect(expiryOptionValue(option.days)).toBe(option.value);
    }
  });

  it('read no days as never expiring', () => {
    expect(expiryOptionValue(null)).toBe('never');
    expect(expiryOptionValue(undefined)).toBe('never');
    expect(expiryDaysOf('never')).toBeNull();
  });

  it('fall back to never for days or values no option offers', () => {
    expect(expiryOptionValue(7)).toBe('never');
    expect(expiryDaysOf('7')).toBeNull();
  });
});
