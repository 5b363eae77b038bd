import { DEFAULT_TABLE_ACCESS, type TableAccess, type TableSchema, usesOwnRows } from '@basalt/shared';
import { columnTypeIn, createOwnerIndex, dropOwnerIndex, type Executor } from '../../db/user-tables.js';
import { invalid } from '../../http/errors.js';

// A table's access rules as part of its definition (issue "Apps with their own users"): validated against the
// schema they name a column of, carried through column renames, and backed by an index on the owner column so
// that `own rows` is one indexed condition (features/records/record-rules.ts enforces them).

/** accessOf is a definition's rules, the default (nobody) when it has none. */
export function accessOf(table: { access?: TableAccess | undefined }): TableAccess {
  return table.access ?? { ...DEFAULT_TABLE_ACCESS };
}

/** storedAccess is the `access` column for some rules: NULL for the default. */
export function storedAccess(access: TableAccess): string | null {
  const isDefault =
    !usesOwnRows(access) &&
    access.select === 'nobody' &&
    access.insert === 'nobody' &&
    access.update === 'nobody' &&
    access.delete === 'nobody';
  return isDefault ? null : JSON.stringify({ ...access, ownerColumn: access.ownerColumn ?? null });
}

/**
 * checkAccessColumns refuses rules whose owner column the table (with `schema`) does not have, or has with
 * another type than text (a user id is text): 400 naming the column.
 */
export function checkAccessColumns(access: TableAccess, table: { id: number; schema: TableSchema }, name: string) {
  const column = access.ownerColumn;
  if (!usesOwnRows(access) || !column) return;
  const type = columnTypeIn(table, column);
  if (type === null) {
    throw invalid({
      'access.ownerColumn': [`The owner column "${column}" does not exist in table "${name}"`],
    });
  }
  if (type !== 'text') {
    throw invalid({
      'access.ownerColumn': [`The owner column "${column}" must be a text column (it holds user ids); it is ${type}`],
    });
  }
}

/** renamedAccess follows a column rename of the owner column (old → new names). */
export function renamedAccess(access: TableAccess, renames: Record<string, string>): TableAccess {
  const column = access.ownerColumn;
  if (!column || !Object.hasOwn(renames, column)) return access;
  return { ...access, ownerColumn: renames[column] ?? column };
}

/**
 * syncOwnerIndex makes the owner-column index match the rules: on the owner column when a rule is `own rows`
 * (re-created when the column changed, or lost by a SQLite table rebuild), none otherwise.
 */
export async function syncOwnerIndex(
  db: Executor,
  tableId: number,
  before: TableAccess | null,
  after: TableAccess,
): Promise<void> {
  const wanted = usesOwnRows(after) ? (after.ownerColumn ?? null) : null;
  const had = before && usesOwnRows(before) ? (before.ownerColumn ?? null) : null;
  if (had !== null && had !== wanted) await dropOwnerIndex(db, tableId);
  if (wanted !== null) await createOwnerIndex(db, tableId, wanted);
}
