import { createHash } from 'node:crypto';
import { IDENTIFIER_PATTERN, TABLE_LIMITS } from '@basalt/shared';

// The one gate for names that reach SQL (STYLE.md, Server rule 5): user-chosen table and column names are
// checked by assertIdentifier, and every name in a statement is written by quoteIdentifier. Values are
// always bound parameters and never pass through here.

/** IdentifierKind says which naming rule applies. */
export type IdentifierKind = 'table' | 'column';

/** InvalidIdentifierError is thrown for a name that breaks its rule; the message can be shown to the user. */
export class InvalidIdentifierError extends Error {
  constructor(
    readonly kind: IdentifierKind | 'sql',
    readonly identifier: string,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidIdentifierError';
  }
}

const LIMITS: Record<IdentifierKind, { min: number; max: number; label: string }> = {
  table: { min: TABLE_LIMITS.tableNameMin, max: TABLE_LIMITS.tableNameMax, label: 'Table name' },
  column: { min: TABLE_LIMITS.columnNameMin, max: TABLE_LIMITS.columnNameMax, label: 'Column name' },
};

/** identifierProblem returns why a name breaks the rule of its kind, or null when it is valid. */
export function identifierProblem(name: unknown, kind: IdentifierKind): string | null {
  const { min, max, label } = LIMITS[kind];
  if (typeof name !== 'string' || name.length === 0) return `${label} is required`;
  if (name.length < min) return `${label} must be at least ${min} characters`;
  if (name.length > max) return `${label} cannot exceed ${max} characters`;
  if (!IDENTIFIER_PATTERN.test(name)) {
    return `${label} must start with a letter and contain only letters, numbers and underscores`;
  }
  return null;
}

/** isValidIdentifier tells whether a name follows the rule of its kind. */
export function isValidIdentifier(name: unknown, kind: IdentifierKind): name is string {
  return identifierProblem(name, kind) === null;
}

/** assertIdentifier throws InvalidIdentifierError unless the name follows the rule of its kind. */
export function assertIdentifier(name: unknown, kind: IdentifierKind): asserts name is string {
  const problem = identifierProblem(name, kind);
  if (problem !== null) throw new InvalidIdentifierError(kind, typeof name === 'string' ? name : String(name), problem);
}

// PostgreSQL silently truncates identifiers longer than NAMEDATALEN - 1 bytes; refusing them keeps two
// long names from becoming the same name.
const MAX_QUOTED_BYTES = 63;

/**
 * quoteIdentifier writes a name as a double-quoted SQL identifier, doubling embedded quotes: valid on SQLite
 * and PostgreSQL. It refuses names that no engine can hold (empty, NUL, over 63 bytes).
 */
export function quoteIdentifier(name: string): string {
  if (name.length === 0) throw new InvalidIdentifierError('sql', name, 'An SQL identifier cannot be empty');
  if (name.includes('\0')) throw new InvalidIdentifierError('sql', name, 'An SQL identifier cannot contain NUL');
  if (Buffer.byteLength(name, 'utf8') > MAX_QUOTED_BYTES) {
    throw new InvalidIdentifierError('sql', name, `An SQL identifier cannot exceed ${MAX_QUOTED_BYTES} bytes`);
  }
  return `"${name.replaceAll('"', '""')}"`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TABLE_ID = /^[a-z0-9_]{1,40}$/;

/**
 * userTableName is the SQL name of a table definition's real table, `t_<tableId>` (DESIGN.md "Data"). The id
 * is a non-negative integer, a UUID (its hyphens become underscores, lower-cased) or `[a-z0-9_]{1,40}`.
 */
export function userTableName(tableId: string | number): string {
  if (typeof tableId === 'number') {
    if (!Number.isSafeInteger(tableId) || tableId < 0) {
      throw new InvalidIdentifierError('table', String(tableId), `Invalid table id: ${tableId}`);
    }
    return `t_${tableId}`;
  }
  if (UUID.test(tableId)) return `t_${tableId.toLowerCase().replaceAll('-', '_')}`;
  if (TABLE_ID.test(tableId)) return `t_${tableId}`;
  throw new InvalidIdentifierError('table', tableId, `Invalid table id: ${JSON.stringify(tableId)}`);
}

/**
 * uniqueIndexName names the unique index of a user column, `<table>_<column>_key` like PostgreSQL's own
 * constraint names; a name past 63 bytes is shortened and ends in a hash of the full name so it stays unique.
 * It depends on the column's name: a column rename must rename (or recreate) its index too.
 */
export function uniqueIndexName(tableId: string | number, column: string): string {
  assertIdentifier(column, 'column');
  const full = `${userTableName(tableId)}_${column}_key`;
  if (full.length <= MAX_QUOTED_BYTES) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 10);
  return `${full.slice(0, MAX_QUOTED_BYTES - hash.length - 5)}_${hash}_key`;
}

/**
 * ownerIndexName names the index of a table's owner column (the column its `own rows` access rules compare with
 * the end user's id), `<table>_owner_idx`: one per table, whatever the column is called, so a column rename
 * keeps it (the engines move an index with its column).
 */
export function ownerIndexName(tableId: string | number): string {
  return `${userTableName(tableId)}_owner_idx`;
}
