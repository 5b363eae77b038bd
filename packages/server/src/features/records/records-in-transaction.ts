import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { DialectName } from '../../db/dialect/dialect.js';
import type { SystemDatabase } from '../../db/schema.js';
import { dateType } from '../tables/column-types/date.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { recordIdCondition } from './record-conditions.js';
import { emitRecordChanges, type RecordChangeEvent } from './record-events.js';
import { insertStoredRows } from './record-inserts.js';
import { type RecordInput, type RecordRow, storedInputRow, toRecordRow } from './record-values.js';
import { assertOwner, finishWrite, logChange, type RecordCaller, translated, type WriteLog } from './record-writes.js';
import { deleteRowsById, type StoredRow, selectRows, selectRowsForChange, updateRowsById } from './records.store.js';

// The records service inside a transaction its caller owns: history's revert and restore change records and
// schemas together, all or nothing, so they cannot use the service's own transactions. Each write here is
// validated like any other (storedInputRow) and stores its history and activity entries at once, in the
// caller's transaction, so history keeps the order of the writes; the change events wait for committed(),
// which the caller calls after its commit. Reads run in the transaction too: on SQLite a read outside it
// would wait for the connection the transaction holds.

type Trx = Transaction<SystemDatabase>;

const JSON_CREATE = { from: 'json', mode: 'create' } as const;

/** ChangeNote is what a write tells history beyond the change itself: the change it reverts. */
export interface ChangeNote {
  revertOf: number | null;
}

/** RecordsInTransaction writes and reads one account's records inside a caller's transaction. */
export interface RecordsInTransaction {
  /** findForChange reads a record by id and locks it (PostgreSQL) for the write that follows, or null. */
  findForChange(table: TableDefinition, id: number): Promise<RecordRow | null>;
  /** listAll reads every record of a table, by id. */
  listAll(table: TableDefinition): Promise<RecordRow[]>;
  /** recreate inserts a record as it was: its id and, when it carries one, its created_at (RECORD_CREATE). */
  recreate(table: TableDefinition, record: RecordInput, note: ChangeNote): Promise<RecordRow>;
  /** update sets the patch's columns on one record and returns it, or null when it is gone (RECORD_UPDATE). */
  update(table: TableDefinition, id: number, patch: RecordInput, note: ChangeNote): Promise<RecordRow | null>;
  /** remove deletes one record and returns it as it was, or null when it is gone (RECORD_DELETE). */
  remove(table: TableDefinition, id: number, note: ChangeNote): Promise<RecordRow | null>;
  /** committed emits the change events of every write; call it once the transaction has committed. */
  committed(): void;
}

/**
 * storedAsItWas validates a record saved in history for inserting it again: its id, its values and its
 * created_at (updated_at becomes the time of the insert).
 */
export function storedAsItWas(dialect: DialectName, table: TableDefinition, record: RecordInput): StoredRow {
  const stored = storedInputRow(dialect, table, record, JSON_CREATE);
  const createdAt = typeof record.created_at === 'string' ? dateType.parseInput(record.created_at, JSON_CREATE) : null;
  if (createdAt?.ok && createdAt.value !== null) stored.created_at = dateType.toStorage(createdAt.value, dialect);
  return stored;
}

/** recordsInTransaction makes the record writer of one transaction, acting for `caller`. */
export function recordsInTransaction(db: Db, trx: Trx, caller: RecordCaller): RecordsInTransaction {
  const events: RecordChangeEvent[] = [];
  const dialect = db.dialect;

  async function write<T>(
    table: TableDefinition,
    note: ChangeNote,
    run: (log: WriteLog, now: Date) => Promise<T>,
  ): Promise<T> {
    assertOwner(caller, table);
    const log: WriteLog = { changes: [], events: [] };
    const now = new Date();
    try {
      const result = await run(log, now);
      for (const change of log.changes) change.revertOf = note.revertOf;
      await finishWrite(trx, db, caller, table, log, now);
      events.push(...log.events);
      return result;
    } catch (error) {
      throw translated(db, error, table);
    }
  }

  const lockedRow = async (table: TableDefinition, id: number) => {
    const [raw] = await selectRowsForChange(trx, dialect, table, recordIdCondition(id));
    return raw ? toRecordRow(dialect.name, table, raw) : null;
  };

  return {
    async findForChange(table, id) {
      assertOwner(caller, table);
      try {
        return await lockedRow(table, id);
      } catch (error) {
        throw translated(db, error, table);
      }
    },

    async listAll(table) {
      assertOwner(caller, table);
      return (await selectRows(trx, dialect, table, {})).map((raw) => toRecordRow(dialect.name, table, raw));
    },

    recreate(table, record, note) {
      return write(table, note, async (log, now) => {
        const [raw] = await insertStoredRows(trx, dialect, table, [storedAsItWas(dialect.name, table, record)], now);
        if (!raw) throw new Error('recreate: the insert returned no row');
        const row = toRecordRow(dialect.name, table, raw);
        logChange(log, caller, table, 'RECORD_CREATE', null, row);
        return row;
      });
    },

    update(table, id, patch, note) {
      return write(table, note, async (log, now) => {
        const values = storedInputRow(dialect.name, table, patch, { from: 'json', mode: 'update' });
        const before = await lockedRow(table, id);
        if (!before) return null;
        const [raw] = await updateRowsById(trx, dialect, table, [id], { ...values, updated_at: now.toISOString() });
        if (!raw) return null;
        const row = toRecordRow(dialect.name, table, raw);
        logChange(log, caller, table, 'RECORD_UPDATE', before, row);
        return row;
      });
    },

    remove(table, id, note) {
      return write(table, note, async (log) => {
        const [raw] = await deleteRowsById(trx, dialect, table, [id]);
        if (!raw) return null;
        const row = toRecordRow(dialect.name, table, raw);
        logChange(log, caller, table, 'RECORD_DELETE', row, null);
        return row;
      });
    },

    committed() {
      emitRecordChanges(events.splice(0), new Date().toISOString());
    },
  };
}
