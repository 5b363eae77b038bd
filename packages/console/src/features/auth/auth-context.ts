import type { AppUser } from '@basalt/shared';
import type { Session } from '@supabase/supabase-js';
import { createContext, useContext } from 'react';
import type { AuthClient } from './auth-actions';

/** AuthContextValue is what useAuth returns. */
export interface AuthContextValue {
  /** client is the supabase auth client the mutations use. */
  client: AuthClient;
  session: Session | null;
  /** user is the application user: /api/auth/me when it answered, else mapped from the session. */
  user: AppUser | null;
  /** isLoading is true until the first session result. */
  isLoading: boolean;
  /**
   * needsMfa is true while a session is at aal1 and its user has a verified factor: the sign-in is not finished
   * until the authenticator's code raises it to aal2.
   */
  needsMfa: boolean;
}

/** AuthContext is provided by AuthProvider. */
export const AuthContext = createContext<AuthContextValue | null>(null);

/** useAuth returns the session, the application user and whether the session is still loading. */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
