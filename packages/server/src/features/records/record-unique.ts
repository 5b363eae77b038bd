import { columnTypeOf } from '../../db/column-types/registry.js';
import type { Db } from '../../db/database.js';
import type { StoredValue } from '../../db/dialect/dialect.js';
import { pgText } from '../../db/pg-text.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { columnTypeIn } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import { uniqueDetail, uniqueViolation } from './record-errors.js';
import { type StoredRow, selectRowsByColumnValues } from './records.store.js';

// A unique violation tells which value clashed, `Key (title)=(Apple) already exists.`, the same on both
// engines. PostgreSQL writes that detail itself (record-errors.ts rewords its column); SQLite names only the
// column, so the value is found among the rows the write sent and worded as PostgreSQL prints it.

/**
 * storedValueText is PostgreSQL's text of a column's bound value (db/pg-text.ts). A bound value of either
 * engine reads back the way SQLite's driver returns it (booleans 0/1 or true/false, dates and JSON as text).
 */
function storedValueText(table: TableDefinition, column: string, value: StoredValue): string {
  const type = columnTypeIn(table, column) ?? 'text';
  const cell = value === null ? null : columnTypeOf(type).fromStorage(value, 'sqlite');
  return cell === null ? '' : pgText(type, cell);
}

/** conflictOn is the 23505 of a value of `column` that another record holds, worded as PostgreSQL does. */
export function conflictOn(table: TableDefinition, column: string, value: StoredValue): ApiError {
  return uniqueViolation(table, column, uniqueDetail(column, storedValueText(table, column, value)));
}

const keyOf = (value: StoredValue) => JSON.stringify(value);

/**
 * withConflictingValue completes a unique violation that names no value (SQLite's) with the one PostgreSQL
 * would have named: the first sent value, in row order, that a stored record or an earlier row already holds.
 * Stored records are read after the rollback: this is the error path.
 */
export async function withConflictingValue(
  db: Db,
  table: TableDefinition,
  error: unknown,
  sent: StoredRow[],
): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== '23505' || sent.length === 0) return error;
  const column = Object.keys(error.details.fieldErrors ?? {})[0];
  if (!column || error.details.details !== `Key (${column}) already exists.`) return error;
  const values = sent.map((row) => row[column]).filter((v): v is StoredValue => v !== undefined && v !== null);
  const [first] = values;
  if (first === undefined) return error;
  // One value sent (one row, or a PATCH of several records): it is the one.
  if (values.length === 1) return conflictOn(table, column, first);
  const existing = await selectRowsByColumnValues(db.kysely, db.dialect, table, column, values).catch(() => []);
  const held = new Set(existing.map((raw) => keyOf(raw[column] as StoredValue)));
  for (const value of values) {
    if (held.has(keyOf(value))) return conflictOn(table, column, value);
    held.add(keyOf(value));
  }
  return error;
}
