import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type AccountRow, deleteAccount, findAccount } from './accounts.service.js';
import { createUserAsAdmin, listUsersPage, parseUserId, updateUserAsAdmin } from './admin-users.service.js';
import type { AuthDeps } from './auth-deps.js';
import { requireServiceRole } from './auth-guards.js';
import { userNotFound, validationFailed } from './gotrue-errors.js';
import { adminUserBodySchema, parseGoTrue, queryOf } from './gotrue-input.js';
import { toGoTrueUser } from './gotrue-user.js';

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

/** authAdminRoutes serves /auth/v1/admin/users with the service key (protocol §2.6.9). */
export async function authAdminRoutes(app: FastifyInstance, { deps }: { deps: AuthDeps }): Promise<void> {
  app.addHook('preHandler', async (request) => requireServiceRole(request));

  async function loadUser(id: string): Promise<AccountRow> {
    const account = await findAccount(deps.ctx.db.kysely, parseUserId(id));
    if (!account) throw userNotFound(404);
    return account;
  }
  const idOf = (params: unknown) => (params as { id: string }).id;

  app.get('/auth/v1/admin/users', async (request, reply) => {
    const query = queryOf(request.query);
    const page = pageNumber(query.page, 1);
    const perPage = Math.min(pageNumber(query.per_page, 50), MAX_PER_PAGE);
    const { accounts, total } = await listUsersPage(deps, page, perPage);
    reply.header('X-Total-Count', String(total)).header('Link', adminUsersLink(page, perPage, total));
    return { users: accounts.map(toGoTrueUser), aud: 'authenticated' };
  });

  app.post('/auth/v1/admin/users', async (request) =>
    toGoTrueUser(await createUserAsAdmin(deps, parseGoTrue(adminUserBodySchema, request.body))),
  );

  app.get('/auth/v1/admin/users/:id', async (request) => toGoTrueUser(await loadUser(idOf(request.params))));

  app.put('/auth/v1/admin/users/:id', async (request) => {
    const account = await loadUser(idOf(request.params));
    return toGoTrueUser(await updateUserAsAdmin(deps, account, parseGoTrue(adminUserBodySchema, request.body)));
  });

  app.delete('/auth/v1/admin/users/:id', async (request) => {
    const account = await loadUser(idOf(request.params));
    await deleteAccount(deps.ctx.db.kysely, account.id);
    return {};
  });
}
