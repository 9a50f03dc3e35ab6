import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { TaskView } from '../../../../common/schemas/qa';
import { apiFetchWithHeaders } from '../../../lib/api';
import { nextPageOffset, totalFromHeader } from '../../../lib/offset-pages';
import { queryKeys } from '../../../app/query-keys';

/** PRODUCT §12: the panel shows the first 3 pending tasks. */
export const PANEL_TASK_COUNT = 3;
export const TASKS_PAGE_SIZE = 50;

/** PRODUCT §7 Task: an open question, merged over its repeats and checked against the library by the server. */
export type PendingTask = TaskView;

const TaskList = z.array(TaskView);

export interface TaskPage {
  tasks: PendingTask[];
  /** Open tasks in all pages, from X-Total-Count. */
  total: number;
  offset: number;
}

/** Open tasks of the workspace (the caller's own for roles that see only their own history), most urgent first. */
export async function getPendingTasks(limit: number, offset: number, signal?: AbortSignal): Promise<TaskPage> {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  const { data, headers } = await apiFetchWithHeaders('GET', `/api/qa/tasks?${params.toString()}`, TaskList, {
    signal,
  });
  return { tasks: data, total: totalFromHeader(headers, offset, data.length), offset };
}

export const panelTasksQueryOptions = queryOptions({
  queryKey: queryKeys.pendingTasks.panel,
  queryFn: ({ signal }) => getPendingTasks(PANEL_TASK_COUNT, 0, signal),
  select: (page) => page.tasks,
});

/** The first open tasks, for the side panel. */
export function usePanelTasks() {
  return useQuery(panelTasksQueryOptions);
}

export const allTasksQueryOptions = infiniteQueryOptions({
  queryKey: queryKeys.pendingTasks.all,
  queryFn: ({ pageParam, signal }) => getPendingTasks(TASKS_PAGE_SIZE, pageParam, signal),
  initialPageParam: 0,
  getNextPageParam: (last) => nextPageOffset(last.offset, last.tasks.length, last.total),
});

/** Every open task, 50 at a time, for tasks mode. */
export function useAllTasks() {
  return useInfiniteQuery(allTasksQueryOptions);
}
