import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TaskDismissed } from '../../../../common/schemas/qa';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** Dismisses a task (by its latest asking) for the workspace, until the question is asked again. */
export function dismissTask(id: string) {
  return api.post(`/api/qa/tasks/${encodeURIComponent(id)}/dismiss`, TaskDismissed, undefined, {
    errorFallback: 'Could not dismiss the task.',
  });
}

/** Dismissing refreshes the task lists and the Pending Tasks count, which live under the stats root. */
export function useDismissTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissTask,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizationStats }),
  });
}
