import type { InputSource } from '../../db/column-types/column-type.js';
import type { Db } from '../../db/database.js';
import { addToRowCount } from '../../db/row-counts.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { type Change, journal } from '../journal/journal.js';
import { assertCan } from './record-access.js';
import { translateDatabaseError } from './record-errors.js';
import type { RecordChange, RecordsChanged } from './record-events.js';
import { withConflictingValue } from './record-unique.js';
import type { RecordRow } from './record-values.js';
import type { StoredRow } from './records.store.js';

// The transaction around every record write, whichever API or feature it comes from: the rows, their history
// and activity entries (features/journal) commit together, and one `records.changed` event goes on the bus after
// the commit. At the root a write may share its commit with others that arrive at the same time (SQLite's group
// commit); inside a larger change (a revert, a restore, a table brought back) it joins that change's
// transaction and its event waits for that commit.

/** WriteOptions are common to every write. */
export interface WriteOptions {
  /** Where the values come from: a JSON body (default) or a form whose inputs are text. */
  from?: InputSource;
  /**
   * beforeCommit runs inside the transaction with the written rows; throwing rolls the whole write back
   * (PostgREST's singular responses answer 406 and change nothing when the count is not 1).
   */
  beforeCommit?: (rows: RecordRow[]) => void | Promise<void>;
  /** The history change this write undoes (history's revert and restore). */
  revertOf?: number | null;
}

/** WriteLog collects one write's changes: its history entries and its event. */
export interface WriteLog {
  changes: Change[];
  events: RecordChange[];
}

const EVENT_OF = { RECORD_CREATE: 'INSERT', RECORD_UPDATE: 'UPDATE', RECORD_DELETE: 'DELETE' } as const;

/** RecordChangeType is the history type of a record change. */
export type RecordChangeType = keyof typeof EVENT_OF;

/** logChange adds one record's change to a write's history entries and event. */
export function logChange(log: WriteLog, type: RecordChangeType, before: RecordRow | null, after: RecordRow | null) {
  log.changes.push({
    changeType: type,
    recordId: (after ?? before)?.id ?? null,
    previousState: before,
    newState: after,
  });
  log.events.push({ type: EVENT_OF[type], record: after, oldRecord: before });
}

/** WriteRun is the body of a write: it writes rows in the scope and logs each change. */
export type WriteRun = (scope: Db, log: WriteLog, now: Date) => Promise<RecordRow[]>;

/**
 * runWrite runs one write in a transaction (or the open one) with its history and activity, and publishes its
 * event once committed. `sent` are the rows the write sends, to name the value of a unique violation.
 * `journaled: false` keeps the rows out of history: only a table brought back with its rows uses it, whose
 * SCHEMA_CREATE entry holds them.
 */
export async function runWrite(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  options: WriteOptions & { journaled?: boolean },
  sent: StoredRow[],
  write: WriteRun,
): Promise<RecordRow[]> {
  assertCan(actor, 'write', table);
  const now = new Date();
  try {
    return await db.transaction(
      async (scope) => {
        const log: WriteLog = { changes: [], events: [] };
        const written = await write(scope, log, now);
        if (options.journaled !== false) {
          // Nothing reads a record write's entries back before it commits: on PostgreSQL they go as one statement.
          await journal(scope, actor, table, log.changes, { now, revertOf: options.revertOf ?? null, deferred: true });
        }
        await options.beforeCommit?.(written);
        if (log.events.length > 0) {
          // Last, so that PostgreSQL holds the lock on the count's shard row for as short a time as it can.
          const counted = await addToRowCount(scope, table.id, rowDelta(log.events));
          const event: RecordsChanged = {
            accountId: table.accountId,
            tableId: table.id,
            tableName: table.name,
            at: now.toISOString(),
            changes: log.events,
            countShard: counted?.shard ?? null,
            countVersion: counted?.version ?? null,
          };
          // Hooks run in the order they were added: the commit's time is stamped just before the event leaves.
          scope.afterCommit(() => {
            event.committedAt = new Date().toISOString();
          });
          scope.publish('records.changed', event);
        }
        return written;
      },
      { group: true },
    );
  } catch (error) {
    throw await withConflictingValue(db, table, translated(db, error, table), sent);
  }
}

/** rowDelta is how many rows a write's changes add to its table (inserted minus deleted). */
function rowDelta(events: RecordChange[]): number {
  let delta = 0;
  for (const event of events) delta += event.type === 'INSERT' ? 1 : event.type === 'DELETE' ? -1 : 0;
  return delta;
}

/** translated turns an engine error of a record statement into the records service's ApiError (or returns it). */
export function translated(db: Db, error: unknown, table: TableDefinition): unknown {
  return translateDatabaseError(db.dialect, error, table) ?? error;
}
