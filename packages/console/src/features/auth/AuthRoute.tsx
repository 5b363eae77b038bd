import { GuestOnly } from './AuthGuards';
import { AuthPage } from './AuthPage';

/** AuthRoute is /auth: the sign-in page for visitors; a signed-in user is sent to the dashboard. */
export function AuthRoute() {
  return (
    <GuestOnly>
      <AuthPage />
    </GuestOnly>
  );
}
