import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useAuth } from './auth-context';

/** RequireAuth renders its children for a signed-in user (second factor done), a spinner while loading, else /auth. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { session, isLoading, needsMfa } = useAuth();
  if (isLoading) return <CenteredSpinner fullScreen label="Loading your session" />;
  // A session still waiting for its second factor is not a sign-in yet: /auth asks for the code.
  if (!session || needsMfa) return <Navigate to="/auth" replace />;
  return children;
}

/** GuestOnly renders its children for a visitor (or one who owes the second factor); a signed-in user goes to /. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { session, isLoading, needsMfa } = useAuth();
  if (isLoading) return <CenteredSpinner fullScreen label="Loading your session" />;
  if (session && !needsMfa) return <Navigate to="/" replace />;
  return children;
}
