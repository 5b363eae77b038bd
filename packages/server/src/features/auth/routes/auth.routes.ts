import type { Callers } from '../../../http/caller.js';
import type { Route } from '../../../http/routes/route.js';
import type { TokenVerifier } from '../../../lib/crypto/token-verifier.js';
import type { AuthPools } from '../gateway/auth-gateway.js';
import { authRails } from '../gateway/auth-rails.js';
import { authAdminRoutes } from './auth-admin.routes.js';
import { authInviteRoutes } from './auth-invite.routes.js';
import { authMetaRoutes } from './auth-meta.routes.js';
import { authMfaRoutes } from './auth-mfa.routes.js';
import { authOAuthRoutes } from './auth-oauth.routes.js';
import { authOtpRoutes } from './auth-otp.routes.js';
import { authRecoverRoutes } from './auth-recover.routes.js';
import { authSignupRoutes } from './auth-signup.routes.js';
import { authTokenRoutes } from './auth-token.routes.js';
import { authUserRoutes } from './auth-user.routes.js';
import { consoleAuthRoutes } from './console-auth.routes.js';

/**
 * authRoutes are /auth/v1 (GoTrue-compatible), /.well-known/jwks.json and the console's /api/auth/*. Each /auth/v1
 * call serves the user pool its key names (auth-gateway.ts): the console accounts with this instance's keys, an
 * app's end users with that app's keys.
 */
export function authRoutes({ auth, callers, tokens }: { auth: AuthPools; callers: Callers; tokens: TokenVerifier }) {
  const rails = authRails(auth, callers, tokens);
  const routes: Route[] = [
    ...authMetaRoutes(rails),
    ...authSignupRoutes(rails),
    ...authTokenRoutes(rails),
    ...authUserRoutes(rails),
    ...authRecoverRoutes(rails),
    ...authAdminRoutes(rails),
    ...authOtpRoutes(rails),
    ...authInviteRoutes(rails),
    ...authMfaRoutes(rails),
    ...authOAuthRoutes(rails),
    ...consoleAuthRoutes(auth.console, callers),
  ];
  return routes;
}
