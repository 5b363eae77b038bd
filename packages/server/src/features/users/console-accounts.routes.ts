import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { AccountRow } from '../auth/accounts.service.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import { requireConsoleUser } from '../auth/auth-guards.js';
import {
  assertAdmin,
  deleteConsoleAccount,
  listConsoleAccounts,
  updateConsoleAccount,
} from './console-accounts.service.js';

// An instance administrator's view of the console accounts (not an app's users):
//   GET    /api/admin/accounts?page=&limit=&search=   {data, pagination}
//   PATCH  /api/admin/accounts/:id                    {isAdmin} → the account
//   DELETE /api/admin/accounts/:id                    {success, message, account, tablesDropped, apiKeysDeleted}
// 403 for anyone but an administrator; 404 for unknown ids; 400 for the administrator's own account.

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** consoleAccountsRoutes registers the administrator's account endpoints over the console's auth services. */
export async function consoleAccountsRoutes(
  app: FastifyInstance,
  { deps, ctx }: { deps: AuthDeps<AccountRow>; ctx: AppContext },
): Promise<void> {
  const admin = async (request: FastifyRequest) => {
    const { account } = await requireConsoleUser(request, deps);
    assertAdmin(account);
    return account;
  };

  app.get('/api/admin/accounts', async (request) => {
    await admin(request);
    return listConsoleAccounts(ctx, request.query);
  });

  app.patch('/api/admin/accounts/:id', async (request) =>
    updateConsoleAccount(ctx, await admin(request), idOf(request), request.body),
  );

  app.delete('/api/admin/accounts/:id', async (request) => {
    const result = await deleteConsoleAccount(ctx, await admin(request), idOf(request));
    return { success: true, message: 'Account deleted', ...result };
  });
}
