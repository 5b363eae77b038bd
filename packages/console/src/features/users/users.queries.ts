import {
  type AddUserFormInput,
  type ConsoleAccountSummary,
  consoleAccountSummarySchema,
  consoleAccountsPageSchema,
  type EditUserFormInput,
  type EndUserSummary,
  endUserSummarySchema,
  endUsersPageSchema,
} from '@basalt/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { refreshAfterUserWrite } from '@/features/query-refresh';
import { apiJson, apiRequest, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { consoleAccountKeys, type UserListParams, userKeys } from './users.keys';

// The Users page's calls: GET /api/users (searched and paged on the
// server), POST, PATCH and DELETE /api/users/{id}, with the spec's toasts; ban and reset mail beyond the spec;
// and an administrator's console accounts.

const FALLBACK = 'Something went wrong. Please try again.';
const failure = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });

/** useEndUsersQuery reads one page of the app's users; the previous page stays on screen while the next loads. */
export function useEndUsersQuery(params: UserListParams) {
  const query = useQuery({
    queryKey: userKeys.list(params),
    queryFn: jsonQuery(endUsersPageSchema),
    placeholderData: keepPreviousData,
  });
  // A load failure toasts "Failed to fetch users", once per failure.
  const toasted = useRef<unknown>(null);
  useEffect(() => {
    if (query.isError && toasted.current !== query.error) {
      toasted.current = query.error;
      failure('Failed to fetch users')(query.error);
    }
  }, [query.isError, query.error]);
  return query;
}

function useRefreshUsers() {
  const queryClient = useQueryClient();
  return () => refreshAfterUserWrite(queryClient);
}

/** useCreateUserMutation adds a user to the app (confirmed at once). */
export function useCreateUserMutation() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: ({ username, email, password }: AddUserFormInput) =>
      apiJson(endUserSummarySchema, 'POST', '/api/users', { username, email, password }),
    retry: false,
    onSuccess: (user) => {
      refresh();
      showToast({
        title: 'User created',
        description: `${user.username} can sign in to your app.`,
        variant: 'success',
      });
    },
    onError: failure('Failed to create user'),
  });
}

/** useUpdateUserMutation changes a user's username and email. */
export function useUpdateUserMutation() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: EditUserFormInput }) =>
      apiJson(endUserSummarySchema, 'PATCH', `/api/users/${id}`, input),
    onSuccess: (user) => {
      refresh();
      showToast({ title: 'User updated', description: `${user.username} was saved.`, variant: 'success' });
    },
    onError: failure('Failed to update user'),
  });
}

/** useDeleteUserMutation deletes a user; their sessions end at once. */
export function useDeleteUserMutation() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: async (user: EndUserSummary) => {
      await apiRequest('DELETE', `/api/users/${user.id}`);
    },
    onSuccess: (_data, user) => {
      refresh();
      showToast({ title: 'User deleted', description: `${user.username} was deleted.`, variant: 'success' });
    },
    onError: failure('Failed to delete user'),
  });
}

/** useBanUserMutation bans a user (sign-in refused, sessions ended) or lifts the ban. */
export function useBanUserMutation() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: ({ user, banned }: { user: EndUserSummary; banned: boolean }) =>
      apiJson(endUserSummarySchema, 'POST', `/api/users/${user.id}/ban`, { banned }),
    onSuccess: (user, { banned }) => {
      refresh();
      showToast({
        title: banned ? 'User banned' : 'Ban lifted',
        description: banned ? `${user.username} can no longer sign in.` : `${user.username} can sign in again.`,
        variant: 'success',
      });
    },
    onError: failure('Failed to update user'),
  });
}

/** useResetPasswordMutation mails a user a password-reset link. */
export function useResetPasswordMutation() {
  return useMutation({
    mutationFn: async (user: EndUserSummary) => {
      await apiRequest('POST', `/api/users/${user.id}/reset-password`);
    },
    onSuccess: (_data, user) =>
      showToast({
        title: 'Reset mail sent',
        description: `A reset link is on its way to ${user.email}.`,
        variant: 'success',
      }),
    onError: failure('Failed to send reset mail'),
  });
}

/** useConsoleAccountsQuery reads one page of the instance's console accounts (administrators only). */
export function useConsoleAccountsQuery(params: UserListParams) {
  return useQuery({
    queryKey: consoleAccountKeys.list(params),
    queryFn: jsonQuery(consoleAccountsPageSchema),
    placeholderData: keepPreviousData,
  });
}

/** useUpdateConsoleAccountMutation makes an account an administrator or not. */
export function useUpdateConsoleAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ account, isAdmin }: { account: ConsoleAccountSummary; isAdmin: boolean }) =>
      apiJson(consoleAccountSummarySchema, 'PATCH', `/api/admin/accounts/${account.id}`, { isAdmin }),
    onSuccess: (account) => {
      void queryClient.invalidateQueries({ queryKey: consoleAccountKeys.all });
      showToast({
        title: 'Account updated',
        description: `${account.username} is ${account.isAdmin ? 'now an administrator' : 'no longer an administrator'}.`,
        variant: 'success',
      });
    },
    onError: failure('Failed to update account'),
  });
}

/** useDeleteConsoleAccountMutation deletes an account and everything it owns. */
export function useDeleteConsoleAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (account: ConsoleAccountSummary) => {
      await apiRequest('DELETE', `/api/admin/accounts/${account.id}`);
    },
    onSuccess: (_data, account) => {
      void queryClient.invalidateQueries({ queryKey: consoleAccountKeys.all });
      showToast({ title: 'Account deleted', description: `${account.username} was deleted.`, variant: 'success' });
    },
    onError: failure('Failed to delete account'),
  });
}
