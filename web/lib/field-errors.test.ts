import { describe, expect, it } from 'vitest';
import { ApiRequestError } from './api';
import { serverFieldError } from './field-errors';

function validationError(details: unknown, code: string | null = 'validation_error'): ApiRequestError {
  return new ApiRequestError(400, 'Invalid input', code, details);
}

describe('serverFieldError', () => {
  it("finds the server's sentence for the named field", () => {
    const error = validationError({
      issues: [
        { field: 'username', message: 'That username is taken.' },
        { field: 'password', message: 'This password is too common.' },
      ],
    });
    expect(serverFieldError(error, 'password')).toBe('This password is too common.');
    expect(serverFieldError(error, 'username')).toBe('That username is taken.');
  });

  it('gives the first sentence when a field has several', () => {
    const error = validationError({
      issues: [
        { field: 'password', message: 'Too short.' },
        { field: 'password', message: 'Too common.' },
      ],
    });
    expect(serverFieldError(error, 'password')).toBe('Too short.');
  });

  it('says nothing about a field the server did not name', () => {
    expect(serverFieldError(validationError({ issues: [{ field: 'email', message: 'Bad.' }] }), 'password')).toBe(
      undefined,
    );
  });

  it('only reads validation errors from the API', () => {
    const issues = { issues: [{ field: 'password', message: 'Too common.' }] };
    expect(serverFieldError(validationError(issues, 'conflict'), 'password')).toBeUndefined();
    expect(serverFieldError(validationError(issues, null), 'password')).toBeUndefined();
    expect(serverFieldError(new Error('Too common.'), 'password')).toBeUndefined();
    expect(serverFieldError(issues, 'password')).toBeUndefined();
  });

  it('ignores details that are not a list of issues, and malformed issues', () => {
    expect(serverFieldError(validationError(undefined), 'password')).toBeUndefined();
    expect(serverFieldError(validationError('password: too common'), 'password')).toBeUndefined();
    expect(serverFieldError(validationError({ issues: 'password' }), 'password')).toBeUndefined();
    const mixed = validationError({
      issues: [null, 'password', { field: 'password', message: 42 }, { field: 'password', message: 'Too common.' }],
    });
    expect(serverFieldError(mixed, 'password')).toBe('Too common.');
  });
});
