import type { FastifyInstance } from 'fastify';
import { authAdminRoutes } from './auth-admin.routes.js';
import type { AuthDeps } from './auth-deps.js';
import { apiKeyGateway } from './auth-gateway.js';
import { authMetaRoutes } from './auth-meta.routes.js';
import { authRecoverRoutes } from './auth-recover.routes.js';
import { authSignupRoutes } from './auth-signup.routes.js';
import { authTokenRoutes } from './auth-token.routes.js';
import { authUserRoutes } from './auth-user.routes.js';
import { consoleAuthRoutes } from './console-auth.routes.js';

/**
 * authRoutes registers /auth/v1 (GoTrue-compatible), /.well-known/jwks.json and /api/auth/*, over the auth
 * services buildApp made once (features/user uses the same ones).
 */
export async function authRoutes(app: FastifyInstance, { deps }: { deps: AuthDeps }): Promise<void> {
  const { ctx } = deps;
  app.addHook('onClose', async () => deps.mailer.close());

  app.addHook('onRequest', apiKeyGateway(ctx.tokens));

  await app.register(authMetaRoutes, { deps });
  await app.register(authSignupRoutes, { deps });
  await app.register(authTokenRoutes, { deps });
  await app.register(authUserRoutes, { deps });
  await app.register(authRecoverRoutes, { deps });
  await app.register(authAdminRoutes, { deps });
  await app.register(consoleAuthRoutes, { deps });
}
