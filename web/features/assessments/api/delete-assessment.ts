import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { queryKeys } from '../../../app/query-keys';

export async function deleteAssessment(id: string): Promise<void> {
  await api.del(assessmentPath(id), SuccessResponse, { errorFallback: 'Delete failed' });
}

export function useDeleteAssessment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAssessment,
    onSuccess: (_, id) => {
      // The detail of a deleted assessment must not be refetched into a 404.
      queryClient.removeQueries({ queryKey: queryKeys.assessments.detail(id) });
      return queryClient.invalidateQueries({ queryKey: queryKeys.assessments.list });
    },
  });
}
