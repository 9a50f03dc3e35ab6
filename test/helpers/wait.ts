import { TestRunner, vi } from 'vitest';

/** Left to the wait's own error, which says what was awaited, before the test's limit ends the test without it. */
const MARGIN_MS = 1_000;

/**
 * What is left of the running test's own time limit. A wait inside a test is bounded by this, never by a guess of
 * how fast the machine is: a guess shorter than the test's limit fails a test that would have passed on a slower
 * or busier machine (a fixed 30 s wait gave up with 242 of 300 questions answered inside a 90 s test). Outside a
 * test (in a hook) it is `fallbackMs`.
 */
export function timeLeftInTest(fallbackMs = 60_000): number {
  const test = TestRunner.getCurrentTest();
  const started = test?.result?.startTime;
  if (!test?.timeout || started === undefined) return fallbackMs;
  return Math.max(MARGIN_MS, test.timeout - (Date.now() - started) - MARGIN_MS);
}

/**
 * Polls `check` until it returns without throwing, for as long as the running test may still run (`vi.waitFor`'s
 * own default is one second). The test's limit is the one place that says how long is too long.
 */
export function waitUntil<T>(check: () => T | Promise<T>, opts: { interval?: number } = {}): Promise<T> {
  return vi.waitFor(check, { timeout: timeLeftInTest(), interval: opts.interval ?? 50 });
}
