import { describe, expect, it } from 'vitest';
import { listFieldError, parseDomainTokens } from './sso-domains';

describe('parseDomainTokens', () => {
  it('splits pasted lists, strips @ and addresses, lower-cases and keeps each domain once', () => {
    expect(parseDomainTokens(['Acme.com, acme.co.uk;@Example.org', 'ada@ACME.com', 'sub.acme.com\nother.io'])).toEqual([
      'acme.com',
      'acme.co.uk',
      'example.org',
      'sub.acme.com',
      'other.io',
    ]);
  });

  it('drops empty pieces', () => {
    expect(parseDomainTokens([' , ', '', '@'])).toEqual([]);
  });
});

describe('listFieldError', () => {
  it('prefers the sentence about the whole list', () => {
    expect(listFieldError({ message: 'At most 20 domains' }, [])).toBe('At most 20 domains');
    expect(listFieldError({ root: { message: 'Each domain may be listed once' } }, [])).toBe(
      'Each domain may be listed once',
    );
  });

  it('names the entry an entry sentence is about', () => {
    const errors = [undefined, { message: 'Each domain must look like example.com' }];
    expect(listFieldError(errors, ['acme.com', 'localhost'])).toBe('localhost: Each domain must look like example.com');
  });

  it('is undefined without an error', () => {
    expect(listFieldError(undefined, [])).toBeUndefined();
    expect(listFieldError([], [])).toBeUndefined();
  });
});
