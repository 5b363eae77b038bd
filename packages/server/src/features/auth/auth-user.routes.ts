import type { FastifyInstance } from 'fastify';
import { recordActivity } from '../activity/activity.service.js';
import { usernameOf } from './accounts.service.js';
import type { AuthDeps } from './auth-deps.js';
import { requireGoTrueUser } from './auth-guards.js';
import { validationFailed } from './gotrue-errors.js';
import { parseGoTrue, queryOf, updateUserBodySchema } from './gotrue-input.js';
import { toGoTrueUser } from './gotrue-user.js';
import type { LogoutScope } from './sessions.service.js';
import { updateUser } from './user-update.service.js';

const SCOPES = new Set<string>(['global', 'local', 'others']);

/** authUserRoutes serves GET/PUT /auth/v1/user and POST /auth/v1/logout (§2.6.4–§2.6.6). */
export async function authUserRoutes(app: FastifyInstance, { deps }: { deps: AuthDeps }): Promise<void> {
  app.get('/auth/v1/user', async (request) => toGoTrueUser((await requireGoTrueUser(request, deps)).account));

  app.put('/auth/v1/user', async (request) => {
    const user = await requireGoTrueUser(request, deps);
    const body = parseGoTrue(updateUserBodySchema, request.body);
    return toGoTrueUser(await updateUser(deps, user, body, queryOf(request.query).redirect_to ?? null));
  });

  app.post('/auth/v1/logout', async (request, reply) => {
    const { account, sessionId } = await requireGoTrueUser(request, deps);
    const scope = queryOf(request.query).scope ?? 'global';
    if (!SCOPES.has(scope)) throw validationFailed(`Unsupported logout scope "${scope}": use global, local or others`);
    await deps.sessions.end(account.id, sessionId, scope as LogoutScope);
    await recordActivity(
      deps.ctx.db.kysely,
      { accountId: account.id, action: 'LOGOUT', resource: 'auth', details: { username: usernameOf(account), scope } },
      deps.now(),
    );
    return reply.code(204).send();
  });
}
