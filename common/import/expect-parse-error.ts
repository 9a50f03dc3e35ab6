import { expect } from 'vitest';
import { ImportParseError } from './types';

/** Test helper: `run` throws an ImportParseError with exactly this message (toThrow(string) only checks a substring). */
export function expectParseError(run: () => unknown, message: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ImportParseError);
  expect((thrown as ImportParseError).message).toBe(message);
}
