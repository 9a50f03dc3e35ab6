import type { HistoryFilter } from '../history-filter';

// Under the 'qa' root, which asking a question invalidates: a new question shows up here without a reload.
export const historyKeys = {
  entries: (filter: HistoryFilter, offset: number) => ['qa', 'history', 'entries', filter, offset] as const,
  sessions: ['qa', 'history', 'sessions'] as const,
};
