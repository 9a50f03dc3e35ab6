import { describe, expect, it } from 'vitest';
import { nextPageOffset, totalFromHeader } from './offset-pages';

const withTotal = (total: string | null) => new Headers(total === null ? {} : { 'x-total-count': total });

describe('totalFromHeader', () => {
  it('reads X-Total-Count', () => {
    expect(totalFromHeader(withTotal('120'), 50, 50, 50)).toBe(120);
    expect(totalFromHeader(withTotal('0'), 0, 0)).toBe(0);
  });

  it('estimates from the page without the header', () => {
    expect(totalFromHeader(withTotal(null), 50, 50, 50)).toBe(101);
    expect(totalFromHeader(withTotal(null), 50, 20, 50)).toBe(70);
    expect(totalFromHeader(withTotal(null), 50, 50)).toBe(100);
    expect(totalFromHeader(withTotal('not a number'), 0, 3)).toBe(3);
  });
});

describe('nextPageOffset', () => {
  it('moves on while rows remain', () => {
    expect(nextPageOffset(0, 50, 120)).toBe(50);
    expect(nextPageOffset(100, 20, 120)).toBeUndefined();
    expect(nextPageOffset(50, 0, 120)).toBeUndefined();
  });
});
