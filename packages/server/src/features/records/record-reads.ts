import type { Db } from '../../db/database.js';
import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { noteCount, noteList, notesReads } from './read-shapes.js';
import { assertCan } from './record-access.js';
import { checkCondition, checkOrder, recordIdCondition } from './record-conditions.js';
import { estimatedCount, exactCount, plannedCount } from './record-counts.js';
import { invalidFilter } from './record-errors.js';
import { selectRowById } from './record-point-reads.js';
import { rowRuleOf, ruleCondition, withRules } from './record-rules.js';
import { type RecordRow, toRecordRow } from './record-values.js';
import { translated } from './record-writes.js';
import { selectRows } from './records.store.js';

// The records service's reads, for every API: only tables the actor may read (record-access.ts), conditions and order checked
// against its schema, and a point read (one id) as its own statement, the record APIs' most frequent one.

/** ReadOptions filter, order (default: by id) and page a read. */
export interface ReadOptions {
  where?: Condition;
  order?: OrderTerm[];
  limit?: number | null;
  offset?: number;
}

/**
 * readTranslated runs a read and gives its database error in the records service's words. It takes the read's
 * promise, not a function making it: no closure per read.
 */
export async function readTranslated<T>(db: Db, table: TableDefinition, reading: Promise<T>): Promise<T> {
  try {
    return await reading;
  } catch (error) {
    throw translated(db, error, table);
  }
}

/** listRecords reads records: filtered, ordered (by id when no order is given), limited and offset. */
export async function listRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  options: ReadOptions = {},
): Promise<RecordRow[]> {
  assertCan(actor, 'read', table);
  const { limit = null, offset = 0 } = options;
  checkPaging(limit, offset);
  const checked = options.where ? checkCondition(db.dialect, table, options.where) : undefined;
  const order = options.order ? checkOrder(table, options.order, actor) : undefined;
  // The access rules are part of the statement (record-rules.ts): rows they hide are never read.
  const rule = rowRuleOf(actor, table, 'select');
  const where = withRules(checked, rule);
  // One id selects at most one row, whatever the order: a point read (a get, PostgREST's `id=eq.5`).
  const id = offset === 0 && limit !== 0 ? pointId(checked) : null;
  if (id !== null) {
    const one = await readTranslated(db, table, selectRowById(db.readRows, db.dialect, table, id, ruleCondition(rule)));
    return one.map((raw) => toRecordRow(db.dialect.name, table, raw));
  }
  // Filters and orders are noted for the performance insights (read-shapes.ts); the rules' own are not.
  const noted = !db.inTransaction && (checked !== undefined || order !== undefined) && notesReads(db);
  const started = noted ? performance.now() : 0;
  const rows = await readTranslated(
    db,
    table,
    selectRows(db.readRows, db.dialect, table, { where, order, limit, offset }),
  );
  if (noted) noteList(db, table, checked, order, performance.now() - started);
  return rows.map((raw) => toRecordRow(db.dialect.name, table, raw));
}

/** checkPaging refuses a limit or offset that is not a whole number, zero or more (PGRST103). */
export function checkPaging(limit: number | null, offset: number): void {
  if (
    (limit !== null && !(Number.isSafeInteger(limit) && limit >= 0)) ||
    !(Number.isSafeInteger(offset) && offset >= 0)
  ) {
    throw invalidFilter('Limit and offset must be whole numbers, zero or more', 'PGRST103');
  }
}

/** pointId is the id a checked condition selects on its own (`id = 5`), or null for any other condition. */
function pointId(where: Condition | undefined): number | null {
  if (where?.kind !== 'compare' || where.column !== 'id' || where.op !== 'eq' || where.path) return null;
  return typeof where.value === 'number' ? where.value : null;
}

/** CountKind is PostgREST's count: exact, or planned / estimated (record-counts.ts). */
export type CountKind = 'exact' | 'planned' | 'estimated';

const COUNTERS = { exact: exactCount, planned: plannedCount, estimated: estimatedCount } as const;

/**
 * countRecords counts the records a condition selects (all without one) that the actor may read: exactly, from
 * the kept counts when it can (record-counts.ts), or as planned or estimated.
 */
export async function countRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  where?: Condition,
  kind: CountKind = 'exact',
): Promise<number> {
  assertCan(actor, 'read', table);
  const checked = where ? checkCondition(db.dialect, table, where) : undefined;
  const ruled = withRules(checked, rowRuleOf(actor, table, 'select'));
  if (kind !== 'exact' || db.inTransaction) return readTranslated(db, table, COUNTERS[kind](db, table, ruled));
  if (!notesReads(db)) return readTranslated(db, table, exactCount(db, table, ruled));
  const started = performance.now();
  const count = await readTranslated(db, table, exactCount(db, table, ruled));
  noteCount(db, table, performance.now() - started);
  return count;
}

/** getRecord reads one record by id, or null. */
export async function getRecord(db: Db, actor: Actor, table: TableDefinition, id: number): Promise<RecordRow | null> {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await listRecords(db, actor, table, { where: recordIdCondition(id), limit: 1 });
  return row ?? null;
}
