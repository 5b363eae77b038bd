import { Outlet } from 'react-router';
import { AuthProvider } from '@/features/auth/AuthProvider';
import { DocumentTitle } from './route-handle';

/** RootLayout provides the session to every route (it needs the router, so it lives inside it). */
export function RootLayout() {
  return (
    <AuthProvider>
      <DocumentTitle />
      <Outlet />
    </AuthProvider>
  );
}
