import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useAuth } from './auth-context';

/** RequireAuth renders its children for a signed-in user, a spinner while loading, else redirects to /auth. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { session, isLoading } = useAuth();
  if (isLoading) return <CenteredSpinner fullScreen label="Loading your session" />;
  if (!session) return <Navigate to="/auth" replace />;
  return children;
}

/** GuestOnly renders its children for a signed-out visitor; a signed-in user goes to the dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { session, isLoading } = useAuth();
  if (isLoading) return <CenteredSpinner fullScreen label="Loading your session" />;
  if (session) return <Navigate to="/" replace />;
  return children;
}
