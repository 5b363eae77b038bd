import { normalizeAccess, type TableSchema } from '@basalt/shared';
import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { AnyKysely } from '../dialect/backup-dialect.js';
import { recountRowCount } from '../row-counts.js';
import { refillSearchIndexes } from '../text-search/search-index.js';
import { createOwnerIndex, createUserTable } from '../user-tables.js';
import { type LogicalIndex, type LogicalProgress, readRows, storedUserValue } from './logical-format.js';

// Writes a logical part (db/backup/logical-format.ts) into an empty database migrated to the archive's level: a
// restore's staging database. Basalt's tables first, in the index's order (each after those it refers to), then
// each user table, made from its definition and filled with its rows, ids kept. Then every id counter is moved
// past what the source had handed out, and the row counts are counted again.

// One statement binds at most this many values (SQLite allows 32,766, PostgreSQL 65,535), and at most this many rows.
const MAX_VALUES = 30_000;
const MAX_ROWS = 1000;

async function insertBatch(db: AnyKysely, table: string, columns: string[], batch: unknown[][]) {
  if (batch.length === 0) return;
  const values = batch.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i] ?? null])));
  await db.insertInto(table).values(values).execute();
}

async function copyRows(
  db: AnyKysely,
  dir: string,
  table: string,
  columns: string[],
  convert: (row: unknown[]) => unknown[],
  progress: LogicalProgress,
  onProgress: (progress: LogicalProgress) => void,
): Promise<void> {
  const perBatch = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_VALUES / Math.max(1, columns.length))));
  await db.transaction().execute(async (trx) => {
    let batch: unknown[][] = [];
    for await (const row of readRows(dir, table)) {
      if (row.length !== columns.length)
        throw new Error(`A row of ${table} has ${row.length} values, not ${columns.length}`);
      batch.push(convert(row));
      if (batch.length >= perBatch) {
        await insertBatch(trx, table, columns, batch);
        progress.rows += batch.length;
        onProgress(progress);
        batch = [];
      }
    }
    await insertBatch(trx, table, columns, batch);
    progress.rows += batch.length;
    onProgress(progress);
  });
}

/** importLogical fills an empty database, migrated to the archive's level, with a logical part's rows. */
export async function importLogical(
  target: Db,
  dir: string,
  index: LogicalIndex,
  onProgress: (progress: LogicalProgress) => void = () => {},
): Promise<void> {
  const db: AnyKysely = target.kysely;
  const { dialect } = target;
  const present = new Set(await dialect.backup.tableNames(db));
  const progress: LogicalProgress = { rows: 0, bytes: 0 };
  for (const entry of index.tables) {
    if (entry.tableId !== null) continue;
    if (!present.has(entry.name)) throw new Error(`The archive has rows of "${entry.name}", a table this level lacks`);
    await copyRows(db, dir, entry.name, entry.columns, (row) => row, progress, onProgress);
  }
  const definitions = await db.selectFrom('user_tables').select(['id', 'schema', 'access']).execute();
  const shapes = new Map(
    (definitions as Array<{ id: number; schema: string; access: string | null }>).map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        schema: JSON.parse(row.schema) as TableSchema,
        access: row.access ? normalizeAccess(JSON.parse(row.access)) : null,
      },
    ]),
  );
  for (const shape of shapes.values()) {
    await target.kysely.transaction().execute(async (trx) => {
      await createUserTable(trx, dialect, shape);
      if (shape.access?.ownerColumn) await createOwnerIndex(trx, shape.id, shape.access.ownerColumn);
    });
  }
  for (const entry of index.tables) {
    if (entry.tableId === null) continue;
    const shape = shapes.get(entry.tableId);
    if (!shape) throw new Error(`The archive has rows of ${entry.name} but no definition of it`);
    const convert = (row: unknown[]) =>
      row.map((value, i) => storedUserValue(dialect, shape, entry.columns[i] ?? '', value));
    await copyRows(db, dir, entry.name, entry.columns, convert, progress, onProgress);
  }
  for (const shape of shapes.values()) await refillSearchIndexes(db, dialect.name, shape.id, shape.schema);
  for (const [table, counter] of Object.entries(index.idCounters)) {
    if (present.has(table) || /^t_\d+$/.test(table)) await dialect.userTables.syncIdSequence(db, table, counter);
  }
  await recountRows(target, [...shapes.keys()]);
  await indexRestoredLog(target);
}

// The log search's index (SQLite's FTS table) is filled by the log writer, not by the table: the restored entries
// are added to it here.
async function indexRestoredLog(target: Db): Promise<void> {
  const range = await target.kysely
    .selectFrom('system_logs')
    .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')])
    .executeTakeFirst();
  if (range?.first === null || range?.first === undefined || range.last === null) return;
  const ids = { first: Number(range.first), last: Number(range.last) };
  await target.kysely.transaction().execute((trx) => target.dialect.logSearch.indexLogRows(trx, ids));
}

/**
 * recountRows counts every user table's rows into its kept count, with versions above any the replaced database
 * can have handed out (the current time in ms): a filtered count a node cached before the restore never matches.
 */
export async function recountRows(target: Db, tableIds: number[]): Promise<void> {
  await target.kysely.transaction().execute(async (trx) => {
    for (const id of tableIds) await recountRowCount(trx, target.dialect, id);
    await sql`UPDATE table_row_counts SET version = ${Date.now()}`.execute(trx);
  });
}
