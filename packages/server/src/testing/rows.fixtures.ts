import type { AccountsTable, AppUsersTable } from '../db/schema/auth-tables.js';
import { appUserRowOf } from '../features/apps/app-user-pool.js';
import { accountRowOf } from '../features/auth/users/accounts.service.js';

// Rows written straight into the system tables, for the suites that need many of them at once (signing each up
// would hash as many passwords): the rows production makes, a test naming only the columns it is about.

/** accountRow is a confirmed console account without a password, created at `at`. */
export function accountRow(
  fields: Partial<AccountsTable> & { email: string },
  at = new Date().toISOString(),
): AccountsTable {
  return { ...accountRowOf({ email: fields.email, passwordHash: null, confirmed: true }, new Date(at)), ...fields };
}

/** appUserRow is a confirmed end user of an app, without a password, created at `at`. */
export function appUserRow(
  fields: Partial<AppUsersTable> & { app_id: string; email: string },
  at = new Date().toISOString(),
): AppUsersTable {
  const row = appUserRowOf(fields.app_id, { email: fields.email, passwordHash: null, confirmed: true }, new Date(at));
  return { ...row, ...fields };
}
