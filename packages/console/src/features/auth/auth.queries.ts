import { type AppUser, appUserSchema, type LoginRequest, type RegisterRequest, SITE_NAME } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { jsonQueryOrNull } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { authKeys } from './auth.keys';
import { requestPasswordReset, signIn, signOut, signUp } from './auth-actions';
import { useAuth } from './auth-context';
import { sessionNeedsMfa } from './auth-user';

const meResponseSchema = z.object({ user: appUserSchema });

/** useMeQuery loads the signed-in account from the server (admin flag, subscription); null on 401. */
export function useMeQuery(enabled: boolean) {
  return useQuery({ queryKey: authKeys.me, queryFn: jsonQueryOrNull(meResponseSchema), enabled });
}

// Auth mutations do not use the default retry: supabase-js retries its own 502/503/504 answers, and a
// second sign-in attempt after a refusal would only count against the rate limit.

/** useLoginMutation signs in and greets the user. */
export function useLoginMutation() {
  const { client } = useAuth();
  return useMutation({
    mutationFn: (input: LoginRequest) => signIn(client, input),
    retry: false,
    onSuccess: async (user: AppUser) => {
      // With two-factor authentication the sign-in is not over: the code is asked next.
      const { data } = await client.getSession();
      if (sessionNeedsMfa(data.session)) return;
      showToast({
        title: 'Login successful',
        description: `Welcome back, ${user.username || user.email}!`,
        variant: 'success',
      });
    },
    onError: (error) => showToast({ title: 'Login failed', description: errorMessage(error), variant: 'destructive' }),
  });
}

/** useRegisterMutation creates an account; without a session the user must confirm the email first. */
export function useRegisterMutation() {
  const { client } = useAuth();
  return useMutation({
    mutationFn: (input: RegisterRequest) => signUp(client, input),
    retry: false,
    onSuccess: ({ user, needsEmailConfirmation }) => {
      const welcome = `Welcome to ${SITE_NAME}, ${user.username || user.email}!`;
      showToast({
        title: 'Registration successful',
        description: needsEmailConfirmation ? `${welcome} Please check your email to confirm your account.` : welcome,
        variant: 'success',
      });
    },
    onError: (error) =>
      showToast({ title: 'Registration failed', description: errorMessage(error), variant: 'destructive' }),
  });
}

/** useLogoutMutation signs out and clears the whole client-side cache. */
export function useLogoutMutation() {
  const { client } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signOut(client),
    retry: false,
    onSuccess: () => {
      queryClient.clear();
      showToast({ title: 'Logged out', description: 'You have been successfully logged out.' });
    },
    onError: (error) => showToast({ title: 'Logout failed', description: errorMessage(error), variant: 'destructive' }),
  });
}

/** usePasswordResetMutation mails a password-reset link to the address typed in the login form. */
export function usePasswordResetMutation() {
  const { client } = useAuth();
  return useMutation({
    mutationFn: (email: string) => requestPasswordReset(client, email),
    retry: false,
    onSuccess: (_data, email) =>
      showToast({
        title: 'Check your email',
        description: `If an account exists for ${email}, we sent a link to reset its password.`,
        variant: 'success',
      }),
    onError: (error) =>
      showToast({ title: 'Password reset failed', description: errorMessage(error), variant: 'destructive' }),
  });
}
