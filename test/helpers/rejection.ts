/**
 * The error a promise rejects with, checked to be of the expected class: a test then asserts on its code and
 * sentence. A promise that resolves, or rejects with anything else, fails the test with what it got instead.
 */
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  kind: abstract new (...args: never[]) => E,
  what = 'the call',
): Promise<E> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof kind)) throw new Error(`expected a ${kind.name} for ${what}, got ${String(error)}`);
  return error;
}
