import { useQueries } from '@tanstack/react-query';
import { libraryMatchesQueryOptions } from './api/get-library-matches';
import type { PendingTask } from './api/get-pending-tasks';

/**
 * The similarity at which the answer engine answers from a library entry (its 0.6 library threshold, in
 * server/engine/thresholds.ts): a question matching an entry this well would no longer need review.
 */
const LIBRARY_ANSWER_SIMILARITY = 60;

/**
 * The tasks still open: history keeps each question with the answer it got when asked, so a question answered in
 * the library since then would stay 'Needs Review' forever. Each one is checked against the library as it is now.
 */
export function useOpenTasks(tasks: readonly PendingTask[]): { tasks: PendingTask[]; checking: boolean } {
  return useQueries({
    queries: tasks.map((task) => libraryMatchesQueryOptions(task.title)),
    combine: (results) => ({
      checking: results.some((result) => result.isPending),
      // A failed check keeps the task: showing a done task is better than hiding an open one.
      tasks: tasks.filter((_, index) => {
        const matches = results[index]?.data ?? [];
        return !matches.some((match) => match.similarity >= LIBRARY_ANSWER_SIMILARITY);
      }),
    }),
  });
}
