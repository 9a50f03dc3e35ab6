import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { HistoryEntryView } from '../../../../common/schemas/qa';
import { apiFetchWithHeaders } from '../../../lib/api';

/** SPEC §9: the panel shows the first 3 pending tasks. */
export const PANEL_TASK_COUNT = 3;
/** Entries read for the panel: more than shown, so repeats and questions answered since still leave three tasks. */
const PANEL_FETCH = 20;
export const TASKS_PAGE_SIZE = 50;

const EntryList = z.array(HistoryEntryView);

/** SPEC §3 Task, made from a question the workspace could not answer. */
export interface PendingTask {
  id: string;
  /** The unanswered question. */
  title: string;
  priority: 'high' | 'medium' | 'low';
  /** Who asked it, and so who is waiting for the answer. */
  assignee: string | null;
  askedAt: string;
}

export interface TaskPage {
  tasks: PendingTask[];
  /** Unanswered entries in all pages (before repeats are merged), from X-Total-Count. */
  total: number;
  offset: number;
  fetched: number;
}

/** Recent 'Needs Review' answers of the workspace (the caller's own for roles that see only their history). */
export async function getPendingTasks(limit: number, offset: number, signal?: AbortSignal): Promise<TaskPage> {
  const params = new URLSearchParams({ answerType: 'unknown', limit: String(limit), offset: String(offset) });
  const { data, headers } = await apiFetchWithHeaders('GET', `/api/qa/entries/all?${params.toString()}`, EntryList, {
    signal,
  });
  const total = Number(headers.get('x-total-count') ?? Number.NaN);
  return {
    // Unanswered questions always wait for an expert: SPEC's priority colours put them first, as high.
    tasks: data.map((entry) => ({
      id: entry.id,
      title: entry.question,
      priority: 'high',
      assignee: entry.username,
      askedAt: entry.createdAt,
    })),
    total: Number.isFinite(total) ? total : offset + data.length,
    offset,
    fetched: data.length,
  };
}

/** A question asked several times is one task: the most recent asking (lists come newest first) stands for it. */
export function distinctTasks(tasks: readonly PendingTask[]): PendingTask[] {
  const seen = new Set<string>();
  return tasks.filter((task) => {
    const key = task.title.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// Under the 'qa' root, which asking a question invalidates.
export const pendingTaskKeys = {
  panel: ['qa', 'pending-tasks', 'panel'] as const,
  all: ['qa', 'pending-tasks', 'all'] as const,
};

export const panelTasksQueryOptions = queryOptions({
  queryKey: pendingTaskKeys.panel,
  queryFn: ({ signal }) => getPendingTasks(PANEL_FETCH, 0, signal),
  select: (page) => distinctTasks(page.tasks),
});

/** The most recent distinct unanswered questions, for the side panel (which shows the first three still open). */
export function usePanelTasks() {
  return useQuery(panelTasksQueryOptions);
}

export const allTasksQueryOptions = infiniteQueryOptions({
  queryKey: pendingTaskKeys.all,
  queryFn: ({ pageParam, signal }) => getPendingTasks(TASKS_PAGE_SIZE, pageParam, signal),
  initialPageParam: 0,
  getNextPageParam: (last) => {
    const next = last.offset + last.fetched;
    return last.fetched > 0 && next < last.total ? next : undefined;
  },
});

/** Every pending task, 50 entries at a time, for tasks mode. */
export function useAllTasks() {
  return useInfiniteQuery(allTasksQueryOptions);
}
