import type { Db } from '../../db/database.js';
import type { Condition, OrderTerm } from '../../db/user-tables.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { checkCondition, checkOrder, recordIdCondition } from './record-conditions.js';
import { invalidFilter } from './record-errors.js';
import { type RecordRow, toRecordRow } from './record-values.js';
import { assertOwner, type RecordCaller, translated } from './record-writes.js';
import { countRows, type RawRow, selectRowById, selectRows } from './records.store.js';

// The records service's reads, for every API: the caller's own table only, conditions and order checked
// against its schema, and a point read (one id) as its own statement, the record APIs' most frequent one.

/** ReadOptions filter, order (default: by id) and page a read. */
export interface ReadOptions {
  where?: Condition;
  order?: OrderTerm[];
  limit?: number | null;
  offset?: number;
}

async function read<T>(db: Db, table: TableDefinition, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translated(db, error, table);
  }
}

/** listRecords reads records: filtered, ordered (by id when no order is given), limited and offset. */
export async function listRecords(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  options: ReadOptions = {},
): Promise<RecordRow[]> {
  assertOwner(caller, table);
  const { limit = null, offset = 0 } = options;
  if (
    (limit !== null && !(Number.isSafeInteger(limit) && limit >= 0)) ||
    !(Number.isSafeInteger(offset) && offset >= 0)
  ) {
    throw invalidFilter('Limit and offset must be whole numbers, zero or more', 'PGRST103');
  }
  const where = options.where ? checkCondition(db.dialect, table, options.where) : undefined;
  const order = options.order ? checkOrder(table, options.order) : undefined;
  // One id selects at most one row, whatever the order: a point read (a get, PostgREST's `id=eq.5`).
  const id = offset === 0 && limit !== 0 ? pointId(where) : null;
  const rows: RawRow[] = await read(db, table, () =>
    id !== null
      ? selectRowById(db.readRows, db.dialect, table, id)
      : selectRows(db.readRows, db.dialect, table, { where, order, limit, offset }),
  );
  return rows.map((raw) => toRecordRow(db.dialect.name, table, raw));
}

/** pointId is the id a checked condition selects on its own (`id = 5`), or null for any other condition. */
function pointId(where: Condition | undefined): number | null {
  if (where?.kind !== 'compare' || where.column !== 'id' || where.op !== 'eq' || where.path) return null;
  return typeof where.value === 'number' ? where.value : null;
}

/** countRecords counts the records a condition selects (all without one). */
export async function countRecords(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  where?: Condition,
): Promise<number> {
  assertOwner(caller, table);
  const checked = where ? checkCondition(db.dialect, table, where) : undefined;
  return read(db, table, () => countRows(db.readRows, db.dialect, table, checked));
}

/** getRecord reads one record by id, or null. */
export async function getRecord(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  id: number,
): Promise<RecordRow | null> {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await listRecords(db, caller, table, { where: recordIdCondition(id), limit: 1 });
  return row ?? null;
}
