import type { Kysely, Updateable } from 'kysely';
import type { AccountsTable, SystemDatabase } from '../../../db/schema.js';
import { userSearchCondition } from '../../../lib/search/user-search.js';

/** AccountRow is one stored account. */
export type AccountRow = AccountsTable;

/** UniqueViolation is thrown by writes that clash with another account's email or username. */
export class UniqueViolation extends Error {
  constructor(readonly column: 'email' | 'username') {
    super(`${column} is taken`);
  }
}

// Both engines name the column in their unique-violation text: SQLite "UNIQUE constraint failed:
// accounts.email", PostgreSQL `... unique constraint "accounts_email_key"` (code 23505).
/** asUniqueViolation turns a unique-violation error of a users table into UniqueViolation (others pass). */
export function asUniqueViolation(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const isUnique = code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
  if (!isUnique) return error;
  if (error.message.includes('username_key')) return new UniqueViolation('username');
  if (error.message.includes('email')) return new UniqueViolation('email');
  return error;
}

/** insertAccount stores a new account; throws UniqueViolation on a taken email or username. */
export async function insertAccount(db: Kysely<SystemDatabase>, row: AccountRow): Promise<void> {
  try {
    await db.insertInto('accounts').values(row).execute();
  } catch (error) {
    throw asUniqueViolation(error);
  }
}

/** updateAccountRow changes some columns of an account; throws UniqueViolation on a taken email or username. */
export async function updateAccountRow(
  db: Kysely<SystemDatabase>,
  id: string,
  patch: Updateable<AccountsTable>,
): Promise<void> {
  try {
    await db.updateTable('accounts').set(patch).where('id', '=', id).execute();
  } catch (error) {
    throw asUniqueViolation(error);
  }
}

/** findAccountById returns an account, or undefined. */
export function findAccountById(db: Kysely<SystemDatabase>, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** findAccountByEmail returns the account with a (lower-cased) email, or undefined. */
export function findAccountByEmail(db: Kysely<SystemDatabase>, email: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
}

/** findAccountIdByUsernameKey returns the id of the account holding a lower-cased username. */
export async function findAccountIdByUsernameKey(
  db: Kysely<SystemDatabase>,
  usernameKey: string,
): Promise<string | undefined> {
  const row = await db.selectFrom('accounts').select('id').where('username_key', '=', usernameKey).executeTakeFirst();
  return row?.id;
}

/** deleteAccountRow deletes an account (sessions, tokens and activity cascade); true when it existed. */
export async function deleteAccountRow(db: Kysely<SystemDatabase>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('accounts').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** listAccountsPage returns accounts newest first, those whose email or username contains `search` when given. */
export function listAccountsPage(
  db: Kysely<SystemDatabase>,
  page: { limit: number; offset: number; search?: string | null },
): Promise<AccountRow[]> {
  const { search } = page;
  return db
    .selectFrom('accounts')
    .selectAll()
    .$if(Boolean(search), (q) => q.where((eb) => userSearchCondition(eb, 'accounts', search ?? '')))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** countAccounts counts every account, or those whose email or username contains `search`. */
export async function countAccounts(db: Kysely<SystemDatabase>, search?: string | null): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .$if(Boolean(search), (q) => q.where((eb) => userSearchCondition(eb, 'accounts', search ?? '')))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

const FIRST_ACCOUNT_KEY = 'first_account_id';

/**
 * claimFirstAccount records `accountId` as the instance's first account unless one was recorded before;
 * true when this call made the claim. The primary key decides between concurrent callers: on
 * PostgreSQL a second transaction waits for the first to commit and then inserts nothing.
 */
export async function claimFirstAccount(db: Kysely<SystemDatabase>, accountId: string): Promise<boolean> {
  const rows = await db
    .insertInto('instance_settings')
    .values({ key: FIRST_ACCOUNT_KEY, value: accountId })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .execute();
  return rows.length > 0;
}
