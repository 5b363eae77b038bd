import type { FastifyInstance } from 'fastify';
import { authAdminRoutes } from './auth-admin.routes.js';
import { type AuthPools, apiKeyGateway } from './auth-gateway.js';
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
 * authRoutes registers /auth/v1 (GoTrue-compatible), /.well-known/jwks.json and /api/auth/*. Each /auth/v1
 * request serves the user pool its key names (auth-gateway.ts): the console accounts with this instance's keys,
 * an app's end users with that app's keys. /api/auth/* is the console's own (features/user uses the same deps).
 */
export async function authRoutes(app: FastifyInstance, { pools }: { pools: AuthPools }): Promise<void> {
  const deps = pools.console;
  app.addHook('onClose', async () => deps.mailer.close());
  app.decorateRequest('authDeps', null);
  app.addHook('onRequest', apiKeyGateway(deps.ctx.tokens, pools));

  await app.register(authMetaRoutes, { pools });
  await app.register(authSignupRoutes, { pools });
  await app.register(authTokenRoutes, { pools });
  await app.register(authUserRoutes, { pools });
  await app.register(authRecoverRoutes, { pools });
  await app.register(authAdminRoutes, { pools });
  await app.register(authOtpRoutes, { pools });
  await app.register(authInviteRoutes, { pools });
  await app.register(authMfaRoutes, { pools });
  await app.register(authOAuthRoutes, { pools });
  await app.register(consoleAuthRoutes, { deps });
}
