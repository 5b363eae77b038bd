import {
  type ConsoleAccountSummary,
  type ConsoleAccountsPage,
  updateConsoleAccountSchema,
  userListQuerySchema,
} from '@basalt/shared';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import { type AccountDeletionDeps, deleteAccountWithData } from '../account/account-deletion.service.js';
import { UUID_PATTERN } from '../auth/protocol/gotrue-input.js';
import { type AccountRow, findAccount, updateAccount, usernameOf } from '../auth/users/accounts.service.js';
import { countAccounts, listAccountsPage } from '../auth/users/accounts.store.js';

// An instance administrator's "Console accounts" view (issue "Apps with their own users"): the instance's
// accounts (not any app's users), searched and paged, made administrators or not, deleted with everything they
// own. Only administrators reach it (403 otherwise); an administrator cannot demote or delete themselves here
// (Settings deletes one's own account), so an instance always keeps one.

const accountNotFound = () => notFound('Account not found', 'account_not_found');

/** assertAdmin refuses anyone but an instance administrator (403). */
export function assertAdmin(account: AccountRow): void {
  if (account.is_admin !== 1) throw forbidden('Only instance administrators can manage console accounts', 'not_admin');
}

function toSummary(account: AccountRow): ConsoleAccountSummary {
  return {
    id: account.id,
    username: usernameOf(account),
    email: account.email,
    isAdmin: account.is_admin === 1,
    createdAt: account.created_at,
    lastSignInAt: account.last_sign_in_at,
  };
}

/** listConsoleAccounts is GET /api/admin/accounts: a page of accounts, newest first, matching `search`. */
export async function listConsoleAccounts(ctx: AccountDeletionDeps, query: unknown): Promise<ConsoleAccountsPage> {
  const { page, limit, search } = parseInput(userListQuerySchema, query);
  const db = ctx.db.kysely;
  const [rows, totalItems] = await Promise.all([
    listAccountsPage(db, { limit, offset: (page - 1) * limit, search }),
    countAccounts(db, search),
  ]);
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  return {
    data: rows.map(toSummary),
    pagination: { totalItems, totalPages, currentPage: page, hasNext: page < totalPages, hasPrevious: page > 1 },
  };
}

async function targetOf(ctx: AccountDeletionDeps, admin: AccountRow, id: string, action: string): Promise<AccountRow> {
  if (!UUID_PATTERN.test(id)) throw accountNotFound();
  const account = await findAccount(ctx.db.kysely, id.toLowerCase());
  if (!account) throw accountNotFound();
  if (account.id === admin.id) throw badRequest('own_account', `You cannot ${action} your own account here`);
  return account;
}

/** updateConsoleAccount is PATCH /api/admin/accounts/<id> {isAdmin}. */
export async function updateConsoleAccount(
  ctx: AccountDeletionDeps,
  admin: AccountRow,
  id: string,
  input: unknown,
): Promise<ConsoleAccountSummary> {
  const { isAdmin } = parseInput(updateConsoleAccountSchema, input);
  const account = await targetOf(ctx, admin, id, 'change the role of');
  const updated = await updateAccount(ctx.db.kysely, account.id, { is_admin: isAdmin ? 1 : 0 });
  // Every node's account facts (an administrator's checks) and usage meter (no cap holds an administrator) hear it.
  ctx.db.publish('account.changed', { accountId: account.id });
  return toSummary(updated ?? account);
}

/** deleteConsoleAccount is DELETE /api/admin/accounts/<id>: the account and all it owns (its app's users too). */
export async function deleteConsoleAccount(ctx: AccountDeletionDeps, admin: AccountRow, id: string) {
  const account = await targetOf(ctx, admin, id, 'delete');
  const deleted = await deleteAccountWithData(ctx, account.id);
  return { account: toSummary(account), ...deleted };
}
