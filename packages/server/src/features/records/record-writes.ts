import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SystemDatabase } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { type ActivityAction, recordActivity } from '../activity/activity.service.js';
import { recordChanges } from '../history/history.service.js';
import type { ChangeInput, ChangeType } from '../history/history.store.js';
import type { InputSource } from '../tables/column-types/column-type.js';
import { tableCacheOf } from '../tables/table-cache.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { translateDatabaseError } from './record-errors.js';
import { emitRecordChanges, type RecordChangeEvent } from './record-events.js';
import { withConflictingValue } from './record-unique.js';
import type { RecordRow } from './record-values.js';
import type { StoredRow } from './records.store.js';

// The transaction around every record write (DESIGN.md principle 4), shared by the records service's writes
// (records.service.ts) and the writes of history's revert and restore (records-in-transaction.ts): the rows,
// one change_history row per record and one activity entry per kind of change commit together, and the change
// events go out after the commit. Who may touch a table is decided here too (assertOwner).

/** RecordCaller is who writes: the account whose table it is, and the actor history names (default: the account). */
export interface RecordCaller {
  accountId: string;
  actorId?: string | null;
}

/** WriteOptions are common to every write. */
export interface WriteOptions {
  /** Where the values come from: a JSON body (default) or a form whose inputs are text (spec console-core §5). */
  from?: InputSource;
  /**
   * beforeCommit runs inside the transaction with the written rows; throwing rolls the whole write back
   * (PostgREST's singular responses answer 406 and change nothing when the count is not 1).
   */
  beforeCommit?: (rows: RecordRow[]) => void | Promise<void>;
}

type Trx = Transaction<SystemDatabase>;

/** WriteLog collects one write's history entries and change events (records-in-transaction.ts shares it). */
export interface WriteLog {
  changes: ChangeInput[];
  events: RecordChangeEvent[];
}

const EVENT_OF: Record<string, RecordChangeEvent['type']> = {
  RECORD_CREATE: 'INSERT',
  RECORD_UPDATE: 'UPDATE',
  RECORD_DELETE: 'DELETE',
};
const ACTION_OF: Record<string, ActivityAction> = {
  RECORD_CREATE: 'CREATE',
  RECORD_UPDATE: 'UPDATE',
  RECORD_DELETE: 'DELETE',
};

/** assertOwner refuses a table of another account with the 404 of a missing one. */
export function assertOwner(caller: RecordCaller, table: TableDefinition): void {
  // Principle 5: a table is only ever reached by its owner; another account sees the same 404 as for no table.
  if (table.accountId !== caller.accountId) throw notFound(`Could not find the table '${table.name}'`, 'PGRST205');
}

/** logChange adds one record's change to a write's history entries and events. */
export function logChange(
  log: WriteLog,
  caller: RecordCaller,
  table: TableDefinition,
  type: ChangeType,
  before: RecordRow | null,
  after: RecordRow | null,
) {
  const recordId = (after ?? before)?.id ?? null;
  log.changes.push({
    accountId: table.accountId,
    tableId: table.id,
    tableName: table.name,
    recordId,
    changeType: type,
    previousState: before,
    newState: after,
    actorId: caller.actorId ?? caller.accountId,
  });
  log.events.push({
    type: EVENT_OF[type] ?? 'UPDATE',
    accountId: table.accountId,
    tableId: table.id,
    tableName: table.name,
    record: after,
    oldRecord: before,
    committedAt: '',
  });
}

/** finishWrite stores a write's history and activity entries in its transaction. */
export async function finishWrite(
  trx: Trx,
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  log: WriteLog,
  now: Date,
) {
  await recordChanges(trx, db.dialect, log.changes, now);
  const counts = new Map<string, number>();
  for (const change of log.changes) counts.set(change.changeType, (counts.get(change.changeType) ?? 0) + 1);
  for (const [type, count] of counts) {
    await recordActivity(
      trx,
      {
        accountId: caller.accountId,
        action: ACTION_OF[type] ?? 'UPDATE',
        resource: `table.${table.name}`,
        details: count === 1 ? { tableName: table.name } : { tableName: table.name, count },
      },
      now,
    );
  }
}

/** runWrite runs one write in a transaction with its history and activity, then emits its events. */
export async function runWrite(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  options: WriteOptions,
  sent: StoredRow[],
  write: (trx: Trx, log: WriteLog, now: Date) => Promise<RecordRow[]>,
): Promise<RecordRow[]> {
  assertOwner(caller, table);
  const log: WriteLog = { changes: [], events: [] };
  const now = new Date();
  let rows: RecordRow[];
  try {
    // writeTransaction may commit this write together with others that arrived at the same time (SQLite's
    // group commit); it resolves only once this write is committed.
    rows = await db.writeTransaction(async (trx) => {
      const written = await write(trx, log, now);
      await finishWrite(trx, db, caller, table, log, now);
      await options.beforeCommit?.(written);
      return written;
    });
  } catch (error) {
    throw await withConflictingValue(db, table, translated(db, error, table), sent);
  }
  emitRecordChanges(log.events, new Date().toISOString());
  return rows;
}

/** translated turns an engine error of a write into the records service's ApiError (or returns it as is). */
export function translated(db: Db, error: unknown, table: TableDefinition): unknown {
  const apiError = translateDatabaseError(db.dialect, error, table);
  if (apiError?.code === 'table_changed') tableCacheOf(db).evict(table.id);
  return apiError ?? error;
}
