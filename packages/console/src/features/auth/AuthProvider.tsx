import type { Session } from '@supabase/supabase-js';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { clearCsrfToken } from '@/lib/api';
import { getSupabase } from '@/lib/supabase';
import { useMeQuery } from './auth.queries';
import { type AuthClient, RESET_PASSWORD_PATH } from './auth-actions';
import { AuthContext, type AuthContextValue } from './auth-context';
import { mapSupabaseUser, sessionNeedsMfa } from './auth-user';

/** AuthProvider follows the supabase session: read at start, then updated on every auth event. */
export function AuthProvider({ client, children }: { client?: AuthClient; children: ReactNode }) {
  const [auth] = useState<AuthClient>(() => client ?? getSupabase().auth);
  const [state, setState] = useState<{ session: Session | null; isLoading: boolean }>({
    session: null,
    isLoading: true,
  });
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    let active = true;
    // Whichever answers first ends the loading state; later events always win over the initial read.
    auth
      .getSession()
      .then(({ data }) => {
        if (active) setState((s) => (s.isLoading ? { session: data.session, isLoading: false } : s));
      })
      .catch(() => {
        if (active) setState((s) => (s.isLoading ? { session: null, isLoading: false } : s));
      });
    const { data } = auth.onAuthStateChange((event, session) => {
      setState({ session, isLoading: false });
      if (event === 'SIGNED_OUT') {
        // Signed out here or in another tab: nothing cached may outlive the session.
        queryClient.clear();
        clearCsrfToken();
      }
      if (event === 'PASSWORD_RECOVERY') {
        // The user followed a reset link and is signed in by it: the new password is set on its own page.
        // Deferred: supabase-js holds its lock while it runs this callback.
        setTimeout(() => navigate(RESET_PASSWORD_PATH), 0);
      }
    });
    return () => {
      active = false;
      data.subscription.unsubscribe();
    };
  }, [auth, queryClient, navigate]);

  const sessionUser = state.session?.user ?? null;
  const me = useMeQuery(sessionUser !== null && !sessionNeedsMfa(state.session));
  const needsMfa = sessionNeedsMfa(state.session);
  const value = useMemo<AuthContextValue>(() => {
    const mapped = sessionUser ? mapSupabaseUser(sessionUser) : null;
    const user = sessionUser && !needsMfa ? (me.data?.user ?? mapped) : null;
    return { client: auth, session: state.session, user, isLoading: state.isLoading, needsMfa };
  }, [auth, state, sessionUser, me.data, needsMfa]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
