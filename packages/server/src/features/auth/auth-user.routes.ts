import type { FastifyInstance } from 'fastify';
import { recordActivity } from '../activity/activity.service.js';
import { usernameOf } from './accounts.service.js';
import { type AuthPools, depsOf } from './auth-gateway.js';
import { requireGoTrueUser } from './auth-guards.js';
import { validationFailed } from './gotrue-errors.js';
import { parseGoTrue, queryOf, updateUserBodySchema } from './gotrue-input.js';
import type { LogoutScope } from './sessions.service.js';
import { updateUser } from './user-update.service.js';
import { goTrueUserOf } from './user-view.js';

const SCOPES = new Set<string>(['global', 'local', 'others']);

/** authUserRoutes serves GET/PUT /auth/v1/user and POST /auth/v1/logout. */
export async function authUserRoutes(app: FastifyInstance, { pools }: { pools: AuthPools }): Promise<void> {
  app.get('/auth/v1/user', async (request) => {
    const deps = depsOf(request, pools);
    return goTrueUserOf(deps, (await requireGoTrueUser(request, deps)).account);
  });

  app.put('/auth/v1/user', async (request) => {
    const deps = depsOf(request, pools);
    const user = await requireGoTrueUser(request, deps);
    const body = parseGoTrue(updateUserBodySchema, request.body);
    return goTrueUserOf(deps, await updateUser(deps, user, body, queryOf(request.query).redirect_to ?? null));
  });

  app.post('/auth/v1/logout', async (request, reply) => {
    const deps = depsOf(request, pools);
    const { account, sessionId } = await requireGoTrueUser(request, deps);
    const scope = queryOf(request.query).scope ?? 'global';
    if (!SCOPES.has(scope)) throw validationFailed(`Unsupported logout scope "${scope}": use global, local or others`);
    await deps.sessions.end(account.id, sessionId, scope as LogoutScope);
    // An app's end users sign out too often for the owner's feed; console accounts' sign-outs are recorded.
    if (!deps.pool.app) {
      await recordActivity(
        deps.ctx.db.kysely,
        {
          accountId: account.id,
          action: 'LOGOUT',
          resource: 'auth',
          details: { username: usernameOf(account), scope },
        },
        deps.now(),
      );
    }
    return reply.code(204).send();
  });
}
