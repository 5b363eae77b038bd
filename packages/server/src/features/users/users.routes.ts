import { banEndUserSchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { answer, type Call, type Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { appOfAccount } from '../apps/apps.service.js';
import type { Apps } from '../apps/apps-config.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import type { AuthPools } from '../auth/gateway/auth-gateway.js';
import type { UserRow } from '../auth/users/user-pool.js';
import {
  createEndUser,
  deleteEndUser,
  findEndUser,
  listEndUsers,
  sendEndUserPasswordReset,
  setEndUserBanned,
  toEndUserSummary,
  updateEndUser,
} from './users.service.js';

// The Users page's calls, on the end users of the caller's app:
//   GET    /api/users?page=&limit=&search=      {data, pagination}, newest first; search: email or username
//   POST   /api/users                           {username, email, password} → 201 the user (confirmed)
//   GET    /api/users/:id                       the user
//   PATCH  /api/users/:id                       {username?, email?} → the user
//   DELETE /api/users/:id                       {success, message, user}
//   POST   /api/users/:id/ban                   {banned} → the user (a ban ends their sessions at once)
//   POST   /api/users/:id/reset-password        mails a password-reset link → {success, message}
// Another account's users and ids that are not UUIDs answer 404.

/** UsersRouteDeps is what the end-user routes use of the server. */
export interface UsersRouteDeps {
  db: Db;
  apps: Apps;
  auth: Pick<AuthPools, 'appOfRef'>;
  callers: Callers;
}

/** usersRoutes are the end-user endpoints; each app's auth services (bans, reset mails) come from `ctx.auth`. */
export function usersRoutes(ctx: UsersRouteDeps): Route[] {
  const { db, apps, auth } = ctx;
  const user = { family: 'console', admit: [ctx.callers.user] } as const;
  const idOf = (call: Call) => call.params.id ?? '';

  async function appDepsOf(actor: Actor): Promise<AuthDeps<UserRow>> {
    const own = await appOfAccount(apps, actor.accountId);
    const deps = await auth.appOfRef(own.ref);
    if (!deps) throw new Error(`users: no auth services for the app ${own.ref}`);
    return deps;
  }

  return [
    { ...user, method: 'GET', url: '/api/users', handler: (call) => listEndUsers(db, call.actor, call.query) },
    {
      ...user,
      method: 'POST',
      url: '/api/users',
      handler: async (call) => answer(await createEndUser(await appDepsOf(call.actor), call.body), { status: 201 }),
    },
    {
      ...user,
      method: 'GET',
      url: '/api/users/:id',
      handler: async (call) => toEndUserSummary(await findEndUser(db, call.actor, idOf(call))),
    },
    {
      ...user,
      method: 'PATCH',
      url: '/api/users/:id',
      handler: (call) => updateEndUser(db, call.actor, idOf(call), call.body),
    },
    {
      ...user,
      method: 'DELETE',
      url: '/api/users/:id',
      handler: async (call) => {
        const deleted = await deleteEndUser(db, call.actor, idOf(call));
        return { success: true, message: 'User deleted', user: deleted };
      },
    },
    {
      ...user,
      method: 'POST',
      url: '/api/users/:id/ban',
      handler: async (call) => {
        const { banned } = parseInput(banEndUserSchema, call.body);
        return setEndUserBanned(await appDepsOf(call.actor), call.actor, idOf(call), banned);
      },
    },
    {
      ...user,
      method: 'POST',
      url: '/api/users/:id/reset-password',
      handler: async (call) => {
        await sendEndUserPasswordReset(await appDepsOf(call.actor), call.actor, idOf(call));
        return { success: true, message: 'Password reset mail sent' };
      },
    },
  ];
}
