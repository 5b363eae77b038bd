import type { RecordRow } from './record-values.js';

// Change events for realtime subscribers and later features (webhooks, usage). They are emitted after the
// write's transaction commits, never for a rolled-back write. The emitter is per process: a subscriber in
// another process sharing PostgreSQL does not hear them (a LISTEN/NOTIFY bridge would carry them there).

/** RecordChangeEvent is one record's change, as PostgreSQL logical replication names them. */
export interface RecordChangeEvent {
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  accountId: string;
  tableId: number;
  tableName: string;
  /** The record as it is now; null for a delete. */
  record: RecordRow | null;
  /** The record as it was; null for an insert. */
  oldRecord: RecordRow | null;
  committedAt: string;
}

/** RecordChangeListener receives the events of one committed write, in order. */
export type RecordChangeListener = (events: readonly RecordChangeEvent[]) => void;

const listeners = new Set<RecordChangeListener>();

/** onRecordChanges subscribes to committed record changes; it returns the unsubscribe function. */
export function onRecordChanges(listener: RecordChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * emitRecordChanges tells every listener about a committed write, stamped with the commit time; a failing
 * listener does not fail the write. Without listeners it costs nothing.
 */
export function emitRecordChanges(events: readonly RecordChangeEvent[], committedAt: string): void {
  if (events.length === 0 || listeners.size === 0) return;
  const stamped = events.map((event) => ({ ...event, committedAt }));
  for (const listener of listeners) {
    try {
      listener(stamped);
    } catch (error) {
      process.emitWarning(`A record change listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
