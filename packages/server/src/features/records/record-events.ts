import type { RecordRow } from './record-values.js';

// The event every committed record write publishes on the bus (db/bus): one per write, with each record's
// change in order, heard on every node (realtime, counts, metering). A rolled-back write publishes nothing.

/** RecordChange is one record's change, as PostgreSQL's logical replication names them. */
export interface RecordChange {
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  /** The record as it is now; null for a delete. */
  record: RecordRow | null;
  /** The record as it was; null for an insert. */
  oldRecord: RecordRow | null;
}

/** RecordsChanged is one committed write's changes to one table. */
export interface RecordsChanged {
  accountId: string;
  tableId: number;
  tableName: string;
  /** When the write ran (ISO 8601). */
  at: string;
  /** When it committed (ISO 8601): realtime's commit_timestamp. Set as the event leaves, after the commit. */
  committedAt?: string;
  changes: RecordChange[];
  /**
   * The shard of the table's kept count this write counted in, and the version it moved that shard to
   * (db/row-counts.ts): by them the cached counts of the table's filters follow the write (record-counts.ts).
   * Null for a table without count rows.
   */
  countShard?: number | null;
  countVersion?: number | null;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'records.changed': RecordsChanged;
  }
}
