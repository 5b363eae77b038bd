import { answer, type Route } from '../../../http/routes/route.js';
import { recordActivity } from '../../activity/activity.service.js';
import { depsOf } from '../gateway/auth-gateway.js';
import { requireGoTrueUser } from '../gateway/auth-guards.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { updateUser } from '../manage/user-update.service.js';
import { goTrueUserOf } from '../manage/user-view.js';
import { validationFailed } from '../protocol/gotrue-errors.js';
import { parseGoTrue, queryOf, updateUserBodySchema } from '../protocol/gotrue-input.js';
import type { LogoutScope } from '../sessions/sessions.service.js';
import { usernameOf } from '../users/accounts.service.js';

const SCOPES = new Set<string>(['global', 'local', 'others']);

/** authUserRoutes serves GET/PUT /auth/v1/user and POST /auth/v1/logout. */
export function authUserRoutes({ pools, keyed }: AuthRails): Route[] {
  return [
    {
      ...keyed,
      method: 'GET',
      url: '/auth/v1/user',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        return goTrueUserOf(deps, (await requireGoTrueUser(call, deps)).account);
      },
    },

    {
      ...keyed,
      method: 'PUT',
      url: '/auth/v1/user',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const user = await requireGoTrueUser(call, deps);
        const body = parseGoTrue(updateUserBodySchema, call.body);
        return goTrueUserOf(deps, await updateUser(deps, user, body, queryOf(call.query).redirect_to ?? null));
      },
    },

    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/logout',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const { account, sessionId } = await requireGoTrueUser(call, deps);
        const scope = queryOf(call.query).scope ?? 'global';
        if (!SCOPES.has(scope))
          throw validationFailed(`Unsupported logout scope "${scope}": use global, local or others`);
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
        return answer(undefined, { status: 204 });
      },
    },
  ];
}
