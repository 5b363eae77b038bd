import { banEndUserSchema } from '@basalt/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { appOfAccount } from '../apps/apps.service.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import type { AuthPools } from '../auth/auth-gateway.js';
import type { UserRow } from '../auth/user-pool.js';
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

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** usersRoutes registers the end-user endpoints; `pools` give each app's auth services (bans, reset mails). */
export async function usersRoutes(
  app: FastifyInstance,
  { ctx, pools }: { ctx: AppContext; pools: AuthPools },
): Promise<void> {
  const { db } = ctx;

  async function appDepsOf(actor: Actor): Promise<AuthDeps<UserRow>> {
    const own = await appOfAccount(db, actor.accountId);
    const deps = await pools.appOfRef(own.ref);
    if (!deps) throw new Error(`users: no auth services for the app ${own.ref}`);
    return deps;
  }

  app.get('/api/users', async (request) => listEndUsers(db, requireUser(request), request.query));

  app.post('/api/users', async (request, reply) => {
    const user = await createEndUser(db, requireUser(request), request.body);
    return reply.status(201).send(user);
  });

  app.get('/api/users/:id', async (request) =>
    toEndUserSummary(await findEndUser(db, requireUser(request), idOf(request))),
  );

  app.patch('/api/users/:id', async (request) => updateEndUser(db, requireUser(request), idOf(request), request.body));

  app.delete('/api/users/:id', async (request) => {
    const user = await deleteEndUser(db, requireUser(request), idOf(request));
    return { success: true, message: 'User deleted', user };
  });

  app.post('/api/users/:id/ban', async (request) => {
    const actor = requireUser(request);
    const { banned } = parseInput(banEndUserSchema, request.body);
    return setEndUserBanned(await appDepsOf(actor), actor, idOf(request), banned);
  });

  app.post('/api/users/:id/reset-password', async (request) => {
    const actor = requireUser(request);
    await sendEndUserPasswordReset(await appDepsOf(actor), actor, idOf(request));
    return { success: true, message: 'Password reset mail sent' };
  });
}
