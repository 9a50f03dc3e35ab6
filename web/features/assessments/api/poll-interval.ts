/**
 * While the worker answers, how often the screens ask how far it has got. The worker does ≥ 50 questions a second,
 * so at the old 5 s a 50-question card read "1 / 50" until everything was done: one second keeps counts current.
 */
export const PROGRESS_POLL_MS = 1000;

/**
 * Past this many questions a detail response (every question, with its answer and sources) is heavy to fetch and
 * render each second, so it is polled at the old pace.
 */
export const LARGE_DETAIL_QUESTIONS = 200;
export const LARGE_DETAIL_POLL_MS = 5000;

/** The list polls while any assessment is processing and stops once none is. */
export function listPollInterval(batches: ReadonlyArray<{ status: string }> | undefined): number | false {
  return batches?.some((batch) => batch.status === 'processing') ? PROGRESS_POLL_MS : false;
}

/** A detail page (all questions) polls while it is moving; a very large one more slowly. */
export function detailPollInterval(moving: boolean, totalQuestions: number): number | false {
  if (!moving) return false;
  return totalQuestions > LARGE_DETAIL_QUESTIONS ? LARGE_DETAIL_POLL_MS : PROGRESS_POLL_MS;
}
