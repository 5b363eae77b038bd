import type { ColumnDefinition } from '@basalt/shared';
import type { InputSource } from '../../db/column-types/column-type.js';
import type { Db } from '../../db/database.js';
import { addToRowCount, type RowCountWrite, rowCountStatement } from '../../db/row-counts.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { type CascadeMark, type Change, journal } from '../journal/journal.js';
import { assertCan } from './record-access.js';
import { translateDatabaseError } from './record-errors.js';
import type { RecordChange, RecordsChanged } from './record-events.js';
import { oneRowInsert } from './record-inserts.js';
import type { CascadeLink } from './record-references.js';
import { syncSearch } from './record-search.js';
import { withConflictingValue } from './record-unique.js';
import { type RecordRow, toRecordRow } from './record-values.js';
import type { RawRow, StoredRow } from './records.store.js';

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
  /** Set by a reference's on-delete rule only: the delete that cascaded this write (record-references.ts). */
  cascade?: CascadeLink;
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
export function logChange(
  log: WriteLog,
  type: RecordChangeType,
  before: RecordRow | null,
  after: RecordRow | null,
  cascade: CascadeMark | null = null,
) {
  log.changes.push({
    changeType: type,
    recordId: (after ?? before)?.id ?? null,
    previousState: before,
    newState: after,
    ...(cascade ? { cascade } : {}),
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
        await syncSearch(scope, table, log.events);
        if (options.journaled !== false) {
          // Nothing reads a record write's entries back before it commits: on PostgreSQL they go as one statement.
          await journal(scope, actor, table, log.changes, { now, revertOf: options.revertOf ?? null, deferred: true });
        }
        await options.beforeCommit?.(written);
        if (log.events.length > 0) {
          // Last, so that PostgreSQL holds the lock on the count's shard row for as short a time as it can.
          const counted = await addToRowCount(scope, table.id, rowDelta(log.events));
          publishChanged(scope, table, now, log.events, counted);
        }
        return written;
      },
      { group: true },
    );
  } catch (error) {
    throw await withConflictingValue(db, table, translated(db, error, table), sent);
  }
}

/** publishChanged sends a write's `records.changed` event once it has committed (at the root, at once). */
function publishChanged(
  scope: Db,
  table: TableDefinition,
  now: Date,
  changes: RecordChange[],
  counted: RowCountWrite | null,
): void {
  const event: RecordsChanged = {
    accountId: table.accountId,
    tableId: table.id,
    tableName: table.name,
    at: now.toISOString(),
    changes,
    countShard: counted?.shard ?? null,
    countVersion: counted?.version ?? null,
  };
  // Hooks run in the order they were added: the commit's time is stamped just before the event leaves.
  scope.afterCommit(() => {
    event.committedAt = new Date().toISOString();
  });
  scope.publish('records.changed', event);
}

// Stands for a created row's id in its history entry until PostgreSQL numbers the row (Db.writeOnce): no row's
// id is this number, and it is looked for only in the values Basalt binds beside the row, never in the user's.
const ID_MARK = Number.MIN_SAFE_INTEGER;

// The types whose values PostgreSQL answers exactly as they were bound, so that a row's history entry can be
// written from the values sent: texts, booleans, doubles (shortest round-trip text), and instants normalised to
// milliseconds. JSON (jsonb reorders keys) and arrays go the usual way.
const ONE_STATEMENT_TYPES: ReadonlySet<string> = new Set(['text', 'number', 'boolean', 'date']);

function fitsOneStatement(table: TableDefinition, row: StoredRow, options: WriteOptions): boolean {
  if ('id' in row || options.beforeCommit || (options.revertOf ?? null) !== null) return false;
  for (const column in table.schema) {
    const definition = table.schema[column] as ColumnDefinition & { default?: unknown };
    if (!ONE_STATEMENT_TYPES.has(definition.type) || definition.references || definition.default !== undefined) {
      return false;
    }
  }
  return true;
}

/**
 * createInOneStatement is runWrite for one created row where the engine can write it, its history entry, the
 * kept counts and its activity entry as one statement (Db.writeOnce, PostgreSQL): one round trip instead of four
 * for the commonest write. Null where it cannot (SQLite, a transaction, a type or option that needs the usual
 * way): the caller then runs the write through runWrite.
 */
export async function createInOneStatement(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  row: StoredRow,
  options: WriteOptions,
): Promise<RecordRow | null> {
  if (db.writeOnce === null || !fitsOneStatement(table, row, options)) return null;
  assertCan(actor, 'write', table);
  const { dialect } = db;
  const now = new Date();
  const { insert, stored } = oneRowInsert(dialect, table, row, now);
  const bound: RawRow = { id: ID_MARK };
  for (const column in table.schema) bound[column] = stored[column] ?? null;
  bound.created_at = stored.created_at;
  bound.updated_at = stored.updated_at;
  const log: WriteLog = { changes: [], events: [] };
  logChange(log, 'RECORD_CREATE', null, toRecordRow(dialect.name, table, bound));
  const count = rowCountStatement(dialect, table.id, 1);
  try {
    const done = await db.writeOnce(
      insert,
      (scope) => journal(scope, actor, table, log.changes, { now, deferred: true }),
      count.query,
      ID_MARK,
    );
    if (done === null) return null;
    const written = toRecordRow(dialect.name, table, done.row);
    const counted = done.last ? { shard: count.shard, version: Number(done.last.version) } : null;
    publishChanged(db, table, now, [{ type: 'INSERT', record: written, oldRecord: null }], counted);
    return written;
  } catch (error) {
    throw await withConflictingValue(db, table, translated(db, error, table), [row]);
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
