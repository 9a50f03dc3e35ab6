import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileResponse, type MeResponse, type ProfileBody } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

export function updateProfile(body: ProfileBody): Promise<ProfileResponse> {
  return api.put('/api/auth/profile', ProfileResponse, body, { errorFallback: 'Failed to update profile' });
}

/** The answer replaces the cached user, so the sidebar's name and initials change with the save. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: ({ user }) => {
      queryClient.setQueryData<MeResponse | null>(queryKeys.me, (me) => (me ? { ...me, user } : me));
      return queryClient.invalidateQueries({ queryKey: queryKeys.organizationUsers.root });
    },
  });
}
