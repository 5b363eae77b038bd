import {
  type ChangePasswordInput,
  type UpdateProfileInput,
  updateProfileResultSchema,
  userProfileSchema,
} from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { signOut } from '@/features/auth/auth-actions';
import { useAuth } from '@/features/auth/auth-context';
import { refreshAfterProfileUpdate } from '@/features/query-refresh';
import { apiJson, apiRequest, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { userKeys } from './settings.keys';

// The account's own settings: the profile, the password, and
// deleting the account.

const FALLBACK = 'Something went wrong. Please try again.';

/** useProfileQuery loads the signed-in account's profile. */
export function useProfileQuery() {
  return useQuery({ queryKey: userKeys.profile, queryFn: jsonQuery(userProfileSchema) });
}

/** useUpdateProfileMutation saves the profile; a new email may wait for confirmation. */
export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateProfileInput) => apiJson(updateProfileResultSchema, 'PATCH', '/api/user/profile', input),
    onSuccess: ({ profile, emailChangePending }) => {
      queryClient.setQueryData(userKeys.profile, profile);
      refreshAfterProfileUpdate(queryClient);
      showToast({
        title: 'Profile Updated',
        description: emailChangePending
          ? 'Check your new email address for a link to confirm the change.'
          : 'Your profile has been saved.',
        variant: 'success',
      });
    },
    onError: (error) =>
      showToast({
        title: 'Update Failed',
        description: errorMessage(error, 'Failed to update profile'),
        variant: 'destructive',
      }),
  });
}

/** useChangePasswordMutation changes the password after checking the current one. */
export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) => {
      await apiRequest('POST', '/api/user/change-password', input);
    },
    // A wrong current password counts against the sign-in limit; never retry it.
    retry: false,
    onSuccess: () =>
      showToast({
        title: 'Password Updated',
        description: 'Your password has been changed. Other devices have to sign in again.',
        variant: 'success',
      }),
    onError: (error) =>
      showToast({
        title: 'Password Update Failed',
        description: errorMessage(error, 'Failed to update password'),
        variant: 'destructive',
      }),
  });
}

/** useDeleteAccountMutation deletes the account and everything in it, then signs out to /auth. */
export function useDeleteAccountMutation() {
  const { client } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (confirm: string) => {
      await apiRequest('DELETE', '/api/user', { confirm });
      // The server has ended every session already; this forgets the one stored in the browser.
      await signOut(client).catch(() => undefined);
    },
    retry: false,
    onSuccess: () => {
      queryClient.clear();
      navigate('/auth', { replace: true });
      showToast({ title: 'Account deleted', description: 'Your account and all its data are gone.' });
    },
    onError: (error) =>
      showToast({
        title: 'Failed to delete account',
        description: errorMessage(error, FALLBACK),
        variant: 'destructive',
      }),
  });
}
