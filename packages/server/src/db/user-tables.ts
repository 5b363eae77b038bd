import type { ColumnDefinition, ColumnType, TableAccess, TableSchema } from '@basalt/shared';
import { type Kysely, sql } from 'kysely';
import { dropColumnIndex, syncColumnIndexes } from './column-indexes.js';
import { columnTypeOf } from './column-types/registry.js';
import type { SqlDialect, SqlFragment } from './dialect/dialect.js';
import { assertIdentifier, ownerIndexName, quoteIdentifier, uniqueIndexName, userTableName } from './identifiers.js';
import { clearRowCount, resetRowCount } from './row-counts.js';
import type { SystemDatabase } from './schema.js';
import { syncSearchIndexes } from './text-search/search-index.js';

// User tables (DESIGN.md "Data"): one real table `t_<id>` per definition, with the system columns id,
// created_at and updated_at, then the user's columns. This file is the dialect-neutral half: identifiers,
// DDL built from a schema (the condition tree and its SQL: user-conditions.ts). What the engines spell differently is in
// db/dialect/*.ts (`dialect.userTables`). Names reach SQL only through assertIdentifier + quoteIdentifier;
// values are always bound.

/** Executor is a connection or an open transaction (a Transaction is a Kysely). */
export type Executor = Kysely<SystemDatabase>;

/** UserTableShape is what SQL needs of a definition: its id (→ `t_<id>`) and its user columns in order. */
export interface UserTableShape {
  id: number;
  schema: TableSchema;
  /** schemaVersion grows with every change of the schema; a shape without one is never prepared by name. */
  schemaVersion?: number;
}

/**
 * TableDefinition is one table as the server uses it: the definition row, with `schema` holding only the
 * user's columns, in order (the system columns id, created_at and updated_at are implied).
 */
export interface TableDefinition extends UserTableShape {
  accountId: string;
  name: string;
  description: string | null;
  schemaVersion: number;
  /** Who of the app's callers may read and write the rows; absent: the default, nobody but the owner. */
  access?: TableAccess;
  createdAt: string;
  updatedAt: string;
}

/** SYSTEM_COLUMN_TYPES are the types of the columns every user table has. */
const SYSTEM_COLUMN_TYPES: Readonly<Record<'id' | 'created_at' | 'updated_at', ColumnType>> = {
  id: 'number',
  created_at: 'date',
  updated_at: 'date',
};

/** columnTypeIn returns a column's type (system columns included), or null when the table has no such column. */
export function columnTypeIn(shape: UserTableShape, column: string): ColumnType | null {
  if (Object.hasOwn(SYSTEM_COLUMN_TYPES, column))
    return SYSTEM_COLUMN_TYPES[column as keyof typeof SYSTEM_COLUMN_TYPES];
  return Object.hasOwn(shape.schema, column) ? (shape.schema[column]?.type ?? null) : null;
}

/** tableRef is the quoted SQL name of a definition's real table. */
export function tableRef(tableId: number): SqlFragment {
  return sql.raw(quoteIdentifier(userTableName(tableId)));
}

/** columnRef is a quoted column name, after the identifier gate. */
export function columnRef(column: string): SqlFragment {
  return sql.raw(quotedColumn(column));
}

// Column names repeat in every statement of the hot path: each distinct name passes the gate once.
const quotedColumns = new Map<string, string>();

/** quotedColumn is a column name checked by the identifier gate and quoted, as SQL text. */
export function quotedColumn(column: string): string {
  let quoted = quotedColumns.get(column);
  if (quoted === undefined) {
    assertIdentifier(column, 'column');
    quoted = quoteIdentifier(column);
    if (quotedColumns.size >= 10_000) quotedColumns.clear();
    quotedColumns.set(column, quoted);
  }
  return quoted;
}

const quotedTables = new Map<number, string>();

/** quotedTable is the quoted SQL name of a definition's real table, as SQL text. */
export function quotedTable(tableId: number): string {
  let quoted = quotedTables.get(tableId);
  if (quoted === undefined) {
    quoted = quoteIdentifier(userTableName(tableId));
    if (quotedTables.size >= 10_000) quotedTables.clear();
    quotedTables.set(tableId, quoted);
  }
  return quoted;
}

// ---------------------------------------------------------------------------------------------------------
// DDL

function columnDdl(dialect: SqlDialect, column: string, definition: ColumnDefinition, notNull = definition.required) {
  assertIdentifier(column, 'column');
  const type = columnTypeOf(definition.type).sqlType[dialect.name];
  return `${quoteIdentifier(column)} ${type}${notNull ? ' NOT NULL' : ''}`;
}

/** createTableSql is CREATE TABLE for a shape, under its own name or another (a SQLite rebuild). */
function createTableSql(dialect: SqlDialect, shape: UserTableShape, name = userTableName(shape.id)) {
  const d = dialect.userTables;
  const columns = [
    d.idColumnSql,
    `"created_at" ${d.timestampColumnSql}`,
    `"updated_at" ${d.timestampColumnSql}`,
    ...Object.entries(shape.schema).map(([column, definition]) => columnDdl(dialect, column, definition)),
  ];
  return sql.raw(`CREATE TABLE ${quoteIdentifier(name)} (${columns.join(', ')})`);
}

/** uniqueIndexSql creates the unique index of a column (named by uniqueIndexName). */
export function uniqueIndexSql(tableId: number, column: string): SqlFragment {
  const index = quoteIdentifier(uniqueIndexName(tableId, column));
  return sql.raw(
    `CREATE UNIQUE INDEX ${index} ON ${quoteIdentifier(userTableName(tableId))} (${quoteIdentifier(column)})`,
  );
}

/** dropUniqueIndexSql drops a column's unique index if it exists. */
export function dropUniqueIndexSql(tableId: number, column: string): SqlFragment {
  return sql.raw(`DROP INDEX IF EXISTS ${quoteIdentifier(uniqueIndexName(tableId, column))}`);
}

function uniqueIndexes(shape: UserTableShape): SqlFragment[] {
  return Object.entries(shape.schema)
    .filter(([, definition]) => definition.unique)
    .map(([column]) => uniqueIndexSql(shape.id, column));
}

/** createUserTable creates the real table of a definition, the unique indexes of its columns and its row count. */
export async function createUserTable(db: Executor, dialect: SqlDialect, shape: UserTableShape): Promise<void> {
  await createTableSql(dialect, shape).execute(db);
  for (const index of uniqueIndexes(shape)) await index.execute(db);
  await syncColumnIndexes(db, shape.id, shape.schema);
  await syncSearchIndexes(db, dialect.name, shape.id, shape.schema);
  await resetRowCount(db, dialect, shape.id);
}

/** dropUserTable drops a definition's real table with its data and indexes (its row count reads 0 rows). */
export async function dropUserTable(db: Executor, tableId: number): Promise<void> {
  await sql`DROP TABLE IF EXISTS ${tableRef(tableId)}`.execute(db);
  await clearRowCount(db, tableId);
}

/** changeRequired sets or drops NOT NULL on a column; `after` is the table's shape once changed. */
export async function changeRequired(db: Executor, dialect: SqlDialect, after: UserTableShape, column: string) {
  await dialect.userTables.changeRequired(db, {
    table: userTableName(after.id),
    column,
    required: after.schema[column]?.required ?? false,
    createTable: (name) => createTableSql(dialect, after, name),
    columns: ['id', 'created_at', 'updated_at', ...Object.keys(after.schema)],
    indexes: uniqueIndexes(after),
  });
}

/** addColumn adds a nullable column (a required one is made NOT NULL by changeRequired afterwards). */
export async function addColumn(db: Executor, dialect: SqlDialect, tableId: number, column: string, type: ColumnType) {
  const ddl = columnDdl(dialect, column, { type, required: false, unique: false });
  await sql`ALTER TABLE ${tableRef(tableId)} ADD COLUMN ${sql.raw(ddl)}`.execute(db);
}

/**
 * createOwnerIndex indexes the owner column of a table's `own rows` rules (if not indexed already), so that the
 * rule is one indexed condition.
 */
export async function createOwnerIndex(db: Executor, tableId: number, column: string): Promise<void> {
  const index = quoteIdentifier(ownerIndexName(tableId));
  await sql
    .raw(`CREATE INDEX IF NOT EXISTS ${index} ON ${quoteIdentifier(userTableName(tableId))} (${quotedColumn(column)})`)
    .execute(db);
}

/** dropOwnerIndex drops a table's owner-column index if it exists. */
export async function dropOwnerIndex(db: Executor, tableId: number): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${quoteIdentifier(ownerIndexName(tableId))}`).execute(db);
}

/** dropColumn drops a column and its indexes. */
export async function dropColumn(db: Executor, tableId: number, column: string): Promise<void> {
  await dropUniqueIndexSql(tableId, column).execute(db);
  await dropColumnIndex(db, tableId, column);
  await sql`ALTER TABLE ${tableRef(tableId)} DROP COLUMN ${columnRef(column)}`.execute(db);
}

/** renameColumn renames a column and re-creates its unique index under the new column's index name. */
export async function renameColumn(db: Executor, tableId: number, column: string, to: string, unique: boolean) {
  if (unique) await dropUniqueIndexSql(tableId, column).execute(db);
  await sql`ALTER TABLE ${tableRef(tableId)} RENAME COLUMN ${columnRef(column)} TO ${columnRef(to)}`.execute(db);
  if (unique) await uniqueIndexSql(tableId, to).execute(db);
}
