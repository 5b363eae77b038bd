import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import { accountRoutes } from './features/account/account.routes.js';
import { appAuthPools } from './features/apps/app-user-pool.js';
import { configureApps } from './features/apps/apps-config.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { createAuthDeps, secretSealerOf } from './features/auth/auth-deps.js';
import { consoleAccountsRoutes } from './features/users/console-accounts.routes.js';
import { usersRoutes } from './features/users/users.routes.js';
import type { CsrfTokens } from './http/csrf.js';
import { csrfRoutes } from './http/csrf.routes.js';

/** registerLegacyRoutes registers the features whose routes are not in the route table yet. */
export async function registerLegacyRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { csrf }: { csrf: CsrfTokens },
): Promise<void> {
  const { config, db, tokens } = ctx;
  // Each account's app signs its keys with the instance's key; confirmation mails are on by default with SMTP.
  // OAuth client secrets and TOTP secrets are sealed by the secrets vault under each account's data key.
  const secrets = secretSealerOf(ctx);
  configureApps(db, { tokens, mailDelivers: config.smtpUrl !== null, siteUrl: config.siteUrl, secrets });
  const authDeps = await createAuthDeps(ctx, { secrets });
  await app.register(csrfRoutes, { csrf, siteUrl: config.siteUrl });
  const pools = appAuthPools(authDeps);
  await app.register(authRoutes, { pools });
  await app.register(accountRoutes, { deps: authDeps, ctx });
  await app.register(usersRoutes, { ctx, pools });
  await app.register(consoleAccountsRoutes, { deps: authDeps, ctx });
  // Their raw archive bodies have their own content-type parser in each plugin.
}
