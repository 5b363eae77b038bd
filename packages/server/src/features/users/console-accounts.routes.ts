import type { Callers } from '../../http/caller.js';
import type { Call, Route } from '../../http/routes/route.js';
import type { AccountDeletionDeps } from '../account/account-deletion.service.js';
import type { AuthPools } from '../auth/gateway/auth-gateway.js';
import { requireConsoleUser } from '../auth/gateway/auth-guards.js';
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

/** consoleAccountsRoutes are the administrator's account endpoints, over the console's auth services. */
export function consoleAccountsRoutes(
  ctx: AccountDeletionDeps & { auth: Pick<AuthPools, 'console'>; callers: Callers },
): Route[] {
  const deps = ctx.auth.console;
  const admin = { family: 'console', admit: [ctx.callers.user] } as const;
  // The account row says whether it administers the instance, as read now (not the cached fact).
  const adminOf = async (call: Call) => {
    const { account } = await requireConsoleUser(call, deps);
    assertAdmin(account);
    return account;
  };
  return [
    {
      ...admin,
      method: 'GET',
      url: '/api/admin/accounts',
      handler: async (call) => {
        await adminOf(call);
        return listConsoleAccounts(ctx, call.query);
      },
    },
    {
      ...admin,
      method: 'PATCH',
      url: '/api/admin/accounts/:id',
      handler: async (call) => updateConsoleAccount(ctx, await adminOf(call), call.params.id ?? '', call.body),
    },
    {
      ...admin,
      method: 'DELETE',
      url: '/api/admin/accounts/:id',
      handler: async (call) => {
        const result = await deleteConsoleAccount(ctx, await adminOf(call), call.params.id ?? '');
        return { success: true, message: 'Account deleted', ...result };
      },
    },
  ];
}
