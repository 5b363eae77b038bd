import { z } from 'zod';
import { ApiError } from '../../../http/errors.js';
import { answer, type Route } from '../../../http/routes/route.js';
import type { AuthDeps } from '../auth-deps.js';
import { depsOf } from '../gateway/auth-gateway.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import {
  createUserAsAdmin,
  deleteUserAsAdmin,
  listUsersPage,
  parseUserId,
  updateUserAsAdmin,
} from '../manage/admin-users.service.js';
import { removeFactor } from '../manage/mfa.service.js';
import { goTrueUserOf, goTrueUsersOf } from '../manage/user-view.js';
import { userNotFound, validationFailed } from '../protocol/gotrue-errors.js';
import { adminUserBodySchema, parseGoTrue, queryOf, UUID_PATTERN } from '../protocol/gotrue-input.js';
import { toGoTrueFactor } from '../users/gotrue-user.js';
import { findFactorOf, listFactorsOf } from '../users/mfa.store.js';
import type { UserRow } from '../users/user-pool.js';

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

async function loadUser(deps: AuthDeps<UserRow>, id: string): Promise<UserRow> {
  const account = await deps.pool.users.findById(deps.ctx.db.kysely, parseUserId(id));
  if (!account) throw userNotFound(404);
  return account;
}
const idOf = (params: unknown) => (params as { id: string }).id;

/** authAdminRoutes serves /auth/v1/admin/users (and their MFA factors) with the service key. */
export function authAdminRoutes({ pools, service }: AuthRails): Route[] {
  return [
    {
      ...service,
      method: 'GET',
      url: '/auth/v1/admin/users',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const query = queryOf(call.query);
        const page = pageNumber(query.page, 1);
        const perPage = Math.min(pageNumber(query.per_page, 50), MAX_PER_PAGE);
        const { accounts, total } = await listUsersPage(deps, page, perPage);
        return answer(
          { users: await goTrueUsersOf(deps, accounts), aud: 'authenticated' },
          { headers: { 'X-Total-Count': String(total), Link: adminUsersLink(page, perPage, total) } },
        );
      },
    },

    {
      ...service,
      method: 'POST',
      url: '/auth/v1/admin/users',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        return goTrueUserOf(deps, await createUserAsAdmin(deps, parseGoTrue(adminUserBodySchema, call.body)));
      },
    },

    {
      ...service,
      method: 'GET',
      url: '/auth/v1/admin/users/:id',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        return goTrueUserOf(deps, await loadUser(deps, idOf(call.params)));
      },
    },

    {
      ...service,
      method: 'PUT',
      url: '/auth/v1/admin/users/:id',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const account = await loadUser(deps, idOf(call.params));
        return goTrueUserOf(deps, await updateUserAsAdmin(deps, account, parseGoTrue(adminUserBodySchema, call.body)));
      },
    },

    {
      ...service,
      method: 'GET',
      url: '/auth/v1/admin/users/:id/factors',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const account = await loadUser(deps, idOf(call.params));
        return (await listFactorsOf(deps.ctx.db.kysely, deps.pool.tables, [account.id])).map(toGoTrueFactor);
      },
    },

    {
      ...service,
      method: 'DELETE',
      url: '/auth/v1/admin/users/:id/factors/:factorId',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const account = await loadUser(deps, idOf(call.params));
        const factorId = (call.params as { factorId: string }).factorId;
        const factor = UUID_PATTERN.test(factorId)
          ? await findFactorOf(deps.ctx.db.kysely, deps.pool.tables, account.id, factorId.toLowerCase())
          : undefined;
        if (!factor) throw new ApiError(404, 'mfa_factor_not_found', 'Factor not found');
        await removeFactor(deps, account.id, factor);
        return toGoTrueFactor(factor);
      },
    },

    {
      ...service,
      method: 'DELETE',
      url: '/auth/v1/admin/users/:id',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const account = await loadUser(deps, idOf(call.params));
        await deleteUserAsAdmin(deps, account.id);
        return {};
      },
    },
  ];
}
