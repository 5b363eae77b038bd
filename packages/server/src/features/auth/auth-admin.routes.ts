import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../http/errors.js';
import { createUserAsAdmin, listUsersPage, parseUserId, updateUserAsAdmin } from './admin-users.service.js';
import type { AuthDeps } from './auth-deps.js';
import { type AuthPools, depsOf } from './auth-gateway.js';
import { requireServiceRole } from './auth-guards.js';
import { userNotFound, validationFailed } from './gotrue-errors.js';
import { adminUserBodySchema, parseGoTrue, queryOf, UUID_PATTERN } from './gotrue-input.js';
import { toGoTrueFactor } from './gotrue-user.js';
import { removeFactor } from './mfa.service.js';
import { findFactorOf, listFactorsOf } from './mfa.store.js';
import type { UserRow } from './user-pool.js';
import { goTrueUserOf, goTrueUsersOf } from './user-view.js';

const MAX_PER_PAGE = 1000;
const pageNumber = (value: string | undefined, fallback: number) => {
  if (value === undefined || value === '') return fallback;
  const parsed = z.coerce.number().int().min(1).safeParse(value);
  if (!parsed.success) throw validationFailed('Bad Pagination Parameters');
  return parsed.data;
};

/** adminUsersLink builds the Link header; `page` must come first in each URL (supabase-js reads one digit after the first "="). */
export function adminUsersLink(page: number, perPage: number, total: number): string {
  const last = Math.max(1, Math.ceil(total / perPage));
  const link = (p: number, rel: string) => `</auth/v1/admin/users?page=${p}&per_page=${perPage}>; rel="${rel}"`;
  return [...(page < last ? [link(page + 1, 'next')] : []), link(last, 'last')].join(', ');
}

/** authAdminRoutes serves /auth/v1/admin/users (and their MFA factors) with the service key. */
export async function authAdminRoutes(app: FastifyInstance, { pools }: { pools: AuthPools }): Promise<void> {
  app.addHook('preHandler', async (request) => requireServiceRole(request, depsOf(request, pools)));

  async function loadUser(deps: AuthDeps<UserRow>, id: string): Promise<UserRow> {
    const account = await deps.pool.users.findById(deps.ctx.db.kysely, parseUserId(id));
    if (!account) throw userNotFound(404);
    return account;
  }
  const idOf = (params: unknown) => (params as { id: string }).id;

  app.get('/auth/v1/admin/users', async (request, reply) => {
    const deps = depsOf(request, pools);
    const query = queryOf(request.query);
    const page = pageNumber(query.page, 1);
    const perPage = Math.min(pageNumber(query.per_page, 50), MAX_PER_PAGE);
    const { accounts, total } = await listUsersPage(deps, page, perPage);
    reply.header('X-Total-Count', String(total)).header('Link', adminUsersLink(page, perPage, total));
    return { users: await goTrueUsersOf(deps, accounts), aud: 'authenticated' };
  });

  app.post('/auth/v1/admin/users', async (request) => {
    const deps = depsOf(request, pools);
    return goTrueUserOf(deps, await createUserAsAdmin(deps, parseGoTrue(adminUserBodySchema, request.body)));
  });

  app.get('/auth/v1/admin/users/:id', async (request) => {
    const deps = depsOf(request, pools);
    return goTrueUserOf(deps, await loadUser(deps, idOf(request.params)));
  });

  app.put('/auth/v1/admin/users/:id', async (request) => {
    const deps = depsOf(request, pools);
    const account = await loadUser(deps, idOf(request.params));
    return goTrueUserOf(deps, await updateUserAsAdmin(deps, account, parseGoTrue(adminUserBodySchema, request.body)));
  });

  app.get('/auth/v1/admin/users/:id/factors', async (request) => {
    const deps = depsOf(request, pools);
    const account = await loadUser(deps, idOf(request.params));
    return (await listFactorsOf(deps.ctx.db.kysely, deps.pool.tables, [account.id])).map(toGoTrueFactor);
  });

  app.delete('/auth/v1/admin/users/:id/factors/:factorId', async (request) => {
    const deps = depsOf(request, pools);
    const account = await loadUser(deps, idOf(request.params));
    const factorId = (request.params as { factorId: string }).factorId;
    const factor = UUID_PATTERN.test(factorId)
      ? await findFactorOf(deps.ctx.db.kysely, deps.pool.tables, account.id, factorId.toLowerCase())
      : undefined;
    if (!factor) throw new ApiError(404, 'mfa_factor_not_found', 'Factor not found');
    await removeFactor(deps, account.id, factor);
    return toGoTrueFactor(factor);
  });

  app.delete('/auth/v1/admin/users/:id', async (request) => {
    const deps = depsOf(request, pools);
    const account = await loadUser(deps, idOf(request.params));
    await deps.ctx.db.transaction(async (scope) => {
      await deps.pool.users.remove(scope.kysely, account.id);
      deps.pool.sessionsEnded(scope, account.id);
    });
    return {};
  });
}
