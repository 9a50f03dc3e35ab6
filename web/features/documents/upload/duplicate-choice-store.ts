import { useSyncExternalStore } from 'react';
import type { DuplicateChoice } from '../../../../common/schemas/documents';

/** What the user decides for a file the workspace already has: replace, keep both, or not add it ('skip'). */
export type DuplicateDecision = Exclude<DuplicateChoice, 'ask'> | 'skip';

export interface DuplicateQuestion {
  id: number;
  fileName: string;
  /** The name the identical document already has in the library. */
  existingName: string;
  answer: (decision: DuplicateDecision) => void;
}

// Questions wait in line, one dialog at a time: several files of one batch can each be a duplicate.
let queue: readonly DuplicateQuestion[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function setQueue(next: readonly DuplicateQuestion[]): void {
  queue = next;
  for (const listener of listeners) listener();
}

/** Asks the user what to do with `fileName`, identical to `existingName`; resolves with their decision. */
export function askDuplicateDecision(fileName: string, existingName: string): Promise<DuplicateDecision> {
  return new Promise((resolve) => {
    const id = nextId++;
    const answer = (decision: DuplicateDecision) => {
      setQueue(queue.filter((q) => q.id !== id));
      resolve(decision);
    };
    setQueue([...queue, { id, fileName, existingName, answer }]);
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => queue[0] ?? null;

/** The question to show now, if any. */
export function useDuplicateQuestion(): DuplicateQuestion | null {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
