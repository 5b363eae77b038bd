import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TableSchema } from '@basalt/shared';
import { z } from 'zod';
import type { CellValue } from '../column-types/column-type.js';
import { columnTypeOf } from '../column-types/registry.js';
import type { AnyKysely } from '../dialect/backup-dialect.js';
import type { SqlDialect } from '../dialect/dialect.js';
import { userTableName } from '../identifiers.js';
import { columnTypeIn } from '../user-tables.js';
import { type Pacer, unpaced } from './pace.js';

// Basalt's logical format: every table's rows as JSON, one file per table, readable by either engine
// (docs/backups.md). Basalt's own tables store the same values on both engines (text, integers, reals: see
// db/schema.ts), so their values are written as read; a user table's values are written as the APIs give them
// (booleans, ISO dates, JSON values) and stored again by their column type for the engine that reads them.
//
// database/logical.json says which tables there are, in the order they are written back (a table after those
// it refers to), their columns, and each table's id counter; database/rows/<table>.ndjson holds one JSON array
// of a row's values per line, in the columns' order.

/** LOGICAL_INDEX is the logical part's index file inside the archive's database folder. */
export const LOGICAL_INDEX = 'logical.json';
const ROWS_DIR = 'rows';

// What is not written: the engine's and the bus's own tables, the catalogue of backups (the instance's, kept by
// a restore), the log search's index (rebuilt from the log), a user table's search index (SQLite's FTS5 tables
// `t_<id>_fts_<column>`, rebuilt from the table) and the kept row counts (counted again on restore, since each
// engine splits them into its own number of shards).
const NOT_WRITTEN = new Set([
  'basalt_migrations',
  'basalt_migrations_lock',
  'event_outbox',
  'rate_limits',
  'database_backups',
  'backup_settings',
  'backup_leases',
  'table_row_counts',
]);
const SEARCH_INDEX = /^t_\d+_fts_/;
const isWritten = (table: string) =>
  !NOT_WRITTEN.has(table) && !table.startsWith('system_logs_search') && !SEARCH_INDEX.test(table);
const USER_TABLE = /^t_(\d+)$/;
// Rows fetched at a time, and between rests of a paced backup.
const BATCH = 500;
const SAFE_NAME = /^[a-z][a-z0-9_]{0,62}$/;

const tableEntrySchema = z.object({
  name: z.string().regex(SAFE_NAME),
  columns: z.array(z.string().min(1).max(63)).max(2000),
  rows: z.number().int().min(0),
  /** The definition's id for a user table (its rows are API values). */
  tableId: z.number().int().positive().nullable(),
});

/** logicalIndexSchema checks an archive's logical.json before anything of it is used. */
export const logicalIndexSchema = z.object({
  version: z.literal(1),
  tables: z.array(tableEntrySchema).max(100_000),
  idCounters: z.record(z.string().regex(SAFE_NAME), z.number().int().min(0)),
});

/** LogicalIndex is an archive's logical.json. */
export type LogicalIndex = z.infer<typeof logicalIndexSchema>;

/** LogicalProgress is how far a logical write or read has come. */
export interface LogicalProgress {
  rows: number;
  bytes: number;
}

/** rowsFileOf is the file of a table's rows inside the database folder. */
export function rowsFileOf(dir: string, table: string): string {
  if (!SAFE_NAME.test(table)) throw new Error(`"${table}" is not a table name of the logical format`);
  return path.join(dir, ROWS_DIR, `${table}.ndjson`);
}

/** inDependencyOrder orders tables so that each comes after every table it refers to (ties keep their order). */
export function inDependencyOrder(tables: string[], edges: Array<{ table: string; references: string }>): string[] {
  const known = new Set(tables);
  const needs = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const edge of edges) {
    if (edge.table !== edge.references && known.has(edge.references)) needs.get(edge.table)?.add(edge.references);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find((t) => !placed.has(t) && [...(needs.get(t) ?? [])].every((n) => placed.has(n)));
    // A cycle of references (none in Basalt's tables): the rest go in their own order.
    const table = next ?? tables.find((t) => !placed.has(t));
    if (table === undefined) break;
    placed.add(table);
    ordered.push(table);
  }
  return ordered;
}

/** UserTableShapes maps a user table's SQL name to its definition's id and columns. */
type UserTableShapes = Map<string, { id: number; schema: TableSchema }>;

async function userTableShapes(view: AnyKysely, tables: string[]): Promise<UserTableShapes> {
  const shapes: UserTableShapes = new Map();
  if (!tables.includes('user_tables')) return shapes;
  const rows = await view.selectFrom('user_tables').select(['id', 'schema']).execute();
  for (const row of rows as Array<{ id: number; schema: string }>) {
    shapes.set(userTableName(row.id), { id: Number(row.id), schema: JSON.parse(row.schema) as TableSchema });
  }
  return shapes;
}

// Writes lines to a file, waiting when the disk is slower than the reads.
async function writeLines(file: string, lines: AsyncIterable<string>, onBytes: (n: number) => void): Promise<void> {
  const out = createWriteStream(file);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  try {
    for await (const line of lines) {
      onBytes(Buffer.byteLength(line) + 1);
      if (!out.write(`${line}\n`)) await Promise.race([new Promise((r) => out.once('drain', r)), failed]);
    }
    await Promise.race([new Promise<void>((resolve) => out.end(resolve)), failed]);
  } finally {
    out.destroy();
  }
}

/**
 * writeLogical writes every table of a read-only view (a snapshot) of a database of engine `dialect` into `dir`
 * in the logical format, reading at the pacer's pace (between batches of rows); it returns the index it wrote.
 */
export async function writeLogical(
  view: AnyKysely,
  dialect: SqlDialect,
  dir: string,
  onProgress: (progress: LogicalProgress) => void = () => {},
  pacer: Pacer = unpaced(),
): Promise<LogicalIndex> {
  await fs.mkdir(path.join(dir, ROWS_DIR), { recursive: true });
  const all = await dialect.backup.tableNames(view);
  const shapes = await userTableShapes(view, all);
  // Only the user tables a definition names are data; any other t_<n> is a leftover.
  const written = all.filter((t) => isWritten(t) && (!USER_TABLE.test(t) || shapes.has(t)));
  const order = inDependencyOrder(written, await dialect.backup.foreignKeys(view));
  const progress: LogicalProgress = { rows: 0, bytes: 0 };
  const index: LogicalIndex = { version: 1, tables: [], idCounters: await dialect.backup.idCounters(view, order) };
  for (const table of order) {
    const shape = shapes.get(table);
    let columns: string[] = shape ? ['id', 'created_at', 'updated_at', ...Object.keys(shape.schema)] : [];
    let rows = 0;
    const lines = async function* () {
      for await (const row of view.selectFrom(table).selectAll().stream(BATCH)) {
        const record = row as Record<string, unknown>;
        if (columns.length === 0) columns = Object.keys(record);
        const values = shape
          ? columns.map((c) => apiValue(dialect, shape, c, record[c]))
          : columns.map((c) => record[c] ?? null);
        rows++;
        progress.rows++;
        yield JSON.stringify(values);
        if (progress.rows % BATCH === 0) await pacer.step();
      }
    };
    await writeLines(rowsFileOf(dir, table), lines(), (n) => {
      progress.bytes += n;
      if (progress.rows % 1000 === 0) onProgress(progress);
    });
    index.tables.push({ name: table, columns, rows, tableId: shape?.id ?? null });
  }
  onProgress(progress);
  await fs.writeFile(path.join(dir, LOGICAL_INDEX), JSON.stringify(index));
  return index;
}

function apiValue(dialect: SqlDialect, shape: { id: number; schema: TableSchema }, column: string, raw: unknown) {
  const type = columnTypeIn(shape, column);
  return type ? columnTypeOf(type).fromStorage(raw, dialect.name) : (raw ?? null);
}

/** readLogicalIndex reads and checks a logical part's index. */
export async function readLogicalIndex(dir: string): Promise<LogicalIndex> {
  const parsed = logicalIndexSchema.safeParse(JSON.parse(await fs.readFile(path.join(dir, LOGICAL_INDEX), 'utf8')));
  if (!parsed.success) throw new Error(`The logical index is not valid: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

/** readRows yields a table's rows from its file, as arrays of values in the index's column order. */
export async function* readRows(dir: string, table: string): AsyncGenerator<unknown[]> {
  const lines = createInterface({
    input: createReadStream(rowsFileOf(dir, table)),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (line.length === 0) continue;
    const values: unknown = JSON.parse(line);
    if (!Array.isArray(values)) throw new Error(`A row of ${table} is not a JSON array`);
    yield values;
  }
}

/** storedUserValue turns a user table's API value back into what engine `dialect` stores for its column. */
export function storedUserValue(
  dialect: SqlDialect,
  shape: { id: number; schema: TableSchema },
  column: string,
  value: unknown,
): unknown {
  const type = columnTypeIn(shape, column);
  return type ? columnTypeOf(type).toStorage(value as CellValue, dialect.name) : value;
}
