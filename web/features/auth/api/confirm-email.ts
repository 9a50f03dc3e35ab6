import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageResponse, type ConfirmEmailBody } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

export function confirmEmail(body: ConfirmEmailBody) {
  return api.post('/api/auth/confirm-email', MessageResponse, body, {
    errorFallback: 'Failed to confirm the e-mail address',
  });
}

/** A browser signed in to the same account shows the new address at once. */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}
