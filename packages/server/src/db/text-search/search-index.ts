import { createHash } from 'node:crypto';
import type { TableSchema } from '@basalt/shared';
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../dialect/dialect.js';
import { assertIdentifier, quoteIdentifier, userTableName } from '../identifiers.js';
import { toTsVector } from './ts-document.js';

// The index a text column gets when its table opts in to search on it (`search: true` in its definition), for
// the fts, plfts, phfts and wfts filters:
// - PostgreSQL: a GIN index on the very expression the filters write, `to_tsvector('english'::regconfig, col)`,
//   which the planner then uses by itself.
// - SQLite: an FTS5 table `t_<id>_fts_<column>` holding each row's lexemes (rowid = the record's id), as
//   ts-document.ts reads them like PostgreSQL, written by the one records path in the write's transaction
//   (syncSearchRows, from features/records/record-writes.ts) and filled from the rows when it is made. A search
//   asks it first for the rows that can match (searchPrefilter) and then checks only those exactly.
// The statements are DDL (never bound), the names go through the identifier gate.

const MAX_NAME = 63;

// biome-ignore lint/suspicious/noExplicitAny: user tables are known only at run time.
type Executor = Kysely<any>;

/** searchIndexName names a searchable column's index (PostgreSQL, hashed past 63 bytes) or FTS5 table (SQLite). */
export function searchIndexName(dialect: DialectName, tableId: number, column: string): string {
  assertIdentifier(column, 'column');
  if (dialect === 'sqlite') return `${userTableName(tableId)}_fts_${column}`;
  const full = `${userTableName(tableId)}_${column}_fts`;
  if (full.length <= MAX_NAME) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 10);
  return `${full.slice(0, MAX_NAME - hash.length - 5)}_${hash}_fts`;
}

/** searchColumns are the columns of a schema that opted in to search. */
export function searchColumns(schema: TableSchema): string[] {
  return Object.entries(schema).flatMap(([column, definition]) => (definition.search ? [column] : []));
}

/** lexemeText is a document's lexemes as FTS5 keeps them: each once, separated by spaces. */
export function lexemeText(document: string): string {
  return [...toTsVector(document).keys()].join(' ');
}

async function sqliteTableExists(db: Executor, name: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_schema WHERE name = ${name}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

/** createSearchIndex makes a column's search index unless it has it; on SQLite it is filled from the rows. */
export async function createSearchIndex(db: Executor, dialect: DialectName, tableId: number, column: string) {
  const name = searchIndexName(dialect, tableId, column);
  const table = quoteIdentifier(userTableName(tableId));
  const col = quoteIdentifier(column);
  if (dialect === 'postgres') {
    await sql
      .raw(
        `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} USING gin (to_tsvector('english'::regconfig, ${col}))`,
      )
      .execute(db);
    return;
  }
  if (await sqliteTableExists(db, name)) return;
  await sql.raw(`CREATE VIRTUAL TABLE ${quoteIdentifier(name)} USING fts5(lexemes)`).execute(db);
  const { rows } = await sql<{ id: number; v: string }>`SELECT id, ${sql.raw(col)} AS v FROM ${sql.raw(table)}
    WHERE ${sql.raw(col)} IS NOT NULL`.execute(db);
  await insertLexemes(
    db,
    name,
    rows.map((row) => ({ id: Number(row.id), text: String(row.v) })),
  );
}

/** dropSearchIndex drops a column's search index (or FTS5 table) if it has one. */
export async function dropSearchIndex(db: Executor, dialect: DialectName, tableId: number, column: string) {
  const name = quoteIdentifier(searchIndexName(dialect, tableId, column));
  await sql.raw(dialect === 'postgres' ? `DROP INDEX IF EXISTS ${name}` : `DROP TABLE IF EXISTS ${name}`).execute(db);
}

/** syncSearchIndexes gives every searchable column of a schema its index (after a change that may drop them). */
export async function syncSearchIndexes(db: Executor, dialect: DialectName, tableId: number, schema: TableSchema) {
  for (const column of searchColumns(schema)) await createSearchIndex(db, dialect, tableId, column);
}

/**
 * refillSearchIndexes builds the search indexes of a table whose rows were loaded past the records path (a backup
 * restored, an account imported) again from its rows. PostgreSQL's index followed the rows: nothing to do.
 */
export async function refillSearchIndexes(db: Executor, dialect: DialectName, tableId: number, schema: TableSchema) {
  if (dialect === 'postgres') return;
  for (const column of searchColumns(schema)) {
    await dropSearchIndex(db, dialect, tableId, column);
    await createSearchIndex(db, dialect, tableId, column);
  }
}

/** dropSearchIndexes drops the search indexes of every searchable column of a schema (a table dropped). */
export async function dropSearchIndexes(db: Executor, dialect: DialectName, tableId: number, schema: TableSchema) {
  for (const column of searchColumns(schema)) await dropSearchIndex(db, dialect, tableId, column);
}

// Rows per statement: two bound values each, far below SQLite's limit.
const CHUNK = 500;

async function insertLexemes(db: Executor, name: string, rows: Array<{ id: number; text: string }>) {
  for (let at = 0; at < rows.length; at += CHUNK) {
    const chunk = rows.slice(at, at + CHUNK);
    if (chunk.length === 0) continue;
    const values = sql.join(chunk.map((row) => sql`(${row.id}, ${lexemeText(row.text)})`));
    await sql`INSERT INTO ${sql.raw(quoteIdentifier(name))} (rowid, lexemes) VALUES ${values}`.execute(db);
  }
}

/** SearchRowChange is a record written: its id, and the searchable column's text after the write (null: none). */
export interface SearchRowChange {
  id: number;
  text: string | null;
}

/**
 * syncSearchRows keeps a column's FTS5 table in step with written rows, in the write's transaction: each row's
 * lexemes are replaced by those of its new text (or removed). Nothing to do on PostgreSQL: its index follows.
 */
export async function syncSearchRows(
  db: Executor,
  dialect: DialectName,
  tableId: number,
  column: string,
  changes: readonly SearchRowChange[],
): Promise<void> {
  if (dialect === 'postgres' || changes.length === 0) return;
  const name = quoteIdentifier(searchIndexName(dialect, tableId, column));
  for (let at = 0; at < changes.length; at += CHUNK) {
    const ids = changes.slice(at, at + CHUNK).map((change) => change.id);
    await sql`DELETE FROM ${sql.raw(name)} WHERE rowid IN (${sql.join(ids)})`.execute(db);
  }
  const present = changes.flatMap((change) => (change.text === null ? [] : [{ id: change.id, text: change.text }]));
  await insertLexemes(db, searchIndexName(dialect, tableId, column), present);
}
