import { deleteAccountSchema } from '@basalt/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { userTableName } from '../../db/identifiers.js';
import { dropUserTable } from '../../db/user-tables.js';
import '../../db/bus/account-events.js';
import { invalid } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import { type AccountRow, deleteAccount, usernameOf } from '../auth/users/accounts.service.js';
import { cancelSubscriptionForDeletion, type StripeBilling } from '../billing/billing.service.js';
import type { LogWriter } from '../logs/log-writer.js';
import { deleteAccountMetrics } from '../monitoring/metrics.store.js';
import { deleteLogsOfAccount, listApiKeyHashesOf, listTableIdsOf, lockAccountRow } from './account-deletion.store.js';

// DELETE /api/user: an account deletes itself and everything it owns, in one transaction. The real tables
// `t_<id>` are dropped here; every system row that belongs to the account (table definitions, history,
// checkpoints, activity, API keys, sessions, refresh tokens, mail tokens, …) goes with the account row through
// its foreign key's ON DELETE CASCADE, so a table added later only needs such a key to be covered. The one
// exception is Basalt's own log, which has no such key: the account's entries are deleted explicitly, after
// the log writer stored what it had queued. Entries of requests still being answered, the deletion's own
// among them, are stored afterwards and kept until log retention removes them, as its trace.

// Locks come in the order record writers take them (user tables, then the account row, which their history
// entries reference), so a write in flight finishes first instead of deadlocking; once the account row is
// locked no new table can appear, and the second look finds one created meanwhile. A table deleted by another
// request between the first look and its lock is gone when the lock is asked for (PostgreSQL: undefined
// table); the whole transaction is then tried again, from a fresh look.
const ATTEMPTS = 3;

async function dropEverything(db: Db, accountId: string): Promise<{ tableIds: number[]; keyHashes: string[] }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (scope) => {
        const trx = scope.kysely;
        const locked = new Set<number>();
        const lockTables = async (ids: number[]) => {
          for (const id of ids.filter((i) => !locked.has(i))) {
            await db.dialect.userTables.lockTable(trx, userTableName(id));
            locked.add(id);
          }
        };
        await lockTables(await listTableIdsOf(trx, accountId));
        await lockAccountRow(trx, db.dialect, accountId);
        const tableIds = await listTableIdsOf(trx, accountId);
        await lockTables(tableIds);
        const keyHashes = await listApiKeyHashesOf(trx, accountId);
        for (const id of tableIds) await dropUserTable(trx, id);
        await deleteLogsOfAccount(trx, accountId);
        await deleteAccountMetrics(scope, accountId);
        await deleteAccount(trx, accountId);
        // Every node forgets what it knew of the account, each feature its own part (its tables, keys, sessions,
        // app, its app's users and functions) once this commits.
        scope.publish('account.deleted', { accountId });
        return { tableIds, keyHashes };
      });
    } catch (error) {
      if (attempt >= ATTEMPTS || db.dialect.userTables.describeError(error)?.kind !== 'undefinedTable') throw error;
    }
  }
}

/** AccountDeletionDeps is what deleting an account uses of the server: Stripe, to cancel first, and the log. */
export interface AccountDeletionDeps {
  db: Db;
  stripe: StripeBilling | null;
  log: FastifyBaseLogger;
  /** logs stores what it has queued before the account's entries are deleted. */
  logs: LogWriter;
}

/** DeletedAccount says what went with the account. */
export interface DeletedAccount {
  tablesDropped: number;
  apiKeysDeleted: number;
}

/** confirmationMismatch is the 400 of a confirmation that is not the account's username. */
const confirmationMismatch = (username: string) =>
  invalid({ confirm: [`Type your username, ${username}, to confirm`] }, 'confirmation_mismatch');

/**
 * deleteOwnAccount deletes the account when `confirm` is its username (trimmed, exact case), else answers 400
 * and deletes nothing. Once it commits, every node forgets the account's tables, keys and sessions (the bus).
 */
export async function deleteOwnAccount(
  ctx: AccountDeletionDeps,
  account: AccountRow,
  input: unknown,
): Promise<DeletedAccount> {
  const { confirm } = parseInput(deleteAccountSchema, input);
  const username = usernameOf(account);
  if (confirm !== username) throw confirmationMismatch(username);

  return deleteAccountWithData(ctx, account.id);
}

/**
 * deleteAccountWithData deletes an account and everything it owns (its tables, keys, sessions, its app and the
 * app's users) in one transaction; an instance administrator's deletion of an account uses it too. Its Stripe
 * subscription is canceled first: when Stripe fails, nothing is deleted (502) and the deletion can be tried again.
 */
export async function deleteAccountWithData(ctx: AccountDeletionDeps, accountId: string): Promise<DeletedAccount> {
  const { db } = ctx;
  await cancelSubscriptionForDeletion(db, accountId, { stripe: ctx.stripe, log: ctx.log });
  await ctx.logs.flush();
  const { tableIds, keyHashes } = await dropEverything(db, accountId);
  return { tablesDropped: tableIds.length, apiKeysDeleted: keyHashes.length };
}
