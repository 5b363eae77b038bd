import type { Db } from '../../db/database.js';
import { conflict, notFound } from '../../http/errors.js';

// The refusals a table's own operations share: a taken name and a table that is not there (or not the caller's).

/** nameTaken refuses a table name the account already uses (409, on the form's name field). */
export const nameTaken = (name: string) =>
  conflict(`A table named "${name}" already exists`, 'table_exists', {
    fieldErrors: { name: [`A table named "${name}" already exists`] },
  });

/** tableNotFound answers for a missing table and for another account's alike. */
export const tableNotFound = () => notFound('Table not found', 'table_not_found');

/** isNameClash tells whether an engine error is the unique name of an account's tables. */
export function isNameClash(db: Db, error: unknown): boolean {
  const info = db.dialect.userTables.describeError(error);
  return (
    info?.kind === 'unique' && (info.table === 'user_tables' || info.constraint === 'user_tables_account_name_key')
  );
}
