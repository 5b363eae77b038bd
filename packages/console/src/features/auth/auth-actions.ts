import type { AppUser, LoginRequest, RegisterRequest } from '@basalt/shared';
import type { SupabaseClient } from '@supabase/supabase-js';
import { mapSupabaseUser } from './auth-user';

// Sign-in, registration and sign-out through supabase-js, with the outcome checks
// They take the auth client as an argument so tests can pass a fake one.

/** AuthClient is the part of supabase-js the console's auth uses. */
export type AuthClient = Pick<
  SupabaseClient['auth'],
  | 'signInWithPassword'
  | 'signUp'
  | 'signOut'
  | 'resetPasswordForEmail'
  | 'getSession'
  | 'onAuthStateChange'
  | 'updateUser'
>;

/** RESET_PASSWORD_PATH is the page a reset link opens: it sets the new password of the recovery session. */
export const RESET_PASSWORD_PATH = '/reset-password';

/** signIn signs in with email and password and returns the application user. */
export async function signIn(auth: AuthClient, { email, password }: LoginRequest): Promise<AppUser> {
  const { data, error } = await auth.signInWithPassword({ email, password });
  if (error) throw error;
  if (!data.user) throw new Error('Login failed: No user data returned.');
  const user = mapSupabaseUser(data.user);
  if (!user) throw new Error('Login failed: Could not map Supabase user to application user.');
  return user;
}

/** SignUpResult is the new user and whether the account must be confirmed by email first. */
export interface SignUpResult {
  user: AppUser;
  needsEmailConfirmation: boolean;
}

/** signUp registers an account with its username as metadata. */
export async function signUp(auth: AuthClient, { username, email, password }: RegisterRequest): Promise<SignUpResult> {
  const { data, error } = await auth.signUp({ email, password, options: { data: { username } } });
  if (error) throw error;
  if (!data.user) throw new Error('Registration failed: No user data returned from signup.');
  const user = mapSupabaseUser(data.user);
  if (!user) throw new Error('Registration failed: Could not map Supabase user.');
  // Without a session the server wants the address confirmed before the first sign-in.
  return { user, needsEmailConfirmation: !data.session };
}

/** signOut ends the session on the server and in this browser. */
export async function signOut(auth: AuthClient): Promise<void> {
  const { error } = await auth.signOut();
  if (error) throw error;
}

/**
 * requestPasswordReset asks the server to mail a password-reset link; the link leads back to this console's
 * reset page (the server falls back to its SITE_URL when this origin is not its own).
 */
export async function requestPasswordReset(auth: AuthClient, email: string): Promise<void> {
  const { error } = await auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}${RESET_PASSWORD_PATH}`,
  });
  if (error) throw error;
}

/** setNewPassword stores the new password of the signed-in (recovery) session, GoTrue's way: no current password. */
export async function setNewPassword(auth: AuthClient, password: string): Promise<void> {
  const { error } = await auth.updateUser({ password });
  if (error) throw error;
}
