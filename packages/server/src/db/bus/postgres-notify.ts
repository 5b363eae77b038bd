import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { BusTransport, BusTransportHandlers } from './event-bus.js';
import { deleteOldOutboxRows, insertOutboxRowAndNotify, notifyEach, type Queryable } from './event-outbox.store.js';
import { inlineEnvelope, outboxEnvelopeHead, outboxRowPayload, packMessages } from './notify-envelope.js';
import { listenForNotifications, type NotifyListener } from './postgres-listen.js';

// The bus between nodes that share one PostgreSQL database: NOTIFY on a channel to send, a dedicated
// connection that LISTENs to receive (db/bus/postgres-listen.ts). The limits:
// - A node queues at most MAX_QUEUED events while PostgreSQL is away; beyond that it drops the oldest, and the
//   other nodes see a gap in its numbering and reset their caches.
// - A failed send is retried, RETRY_MIN_MS doubling to RETRY_MAX_MS, until it goes through; an error about the
//   statement itself (no event_outbox table) drops the events, as a retry would fail alike.
// - close() waits at most CLOSE_FLUSH_MS for what is queued to leave.
// - Outbox rows are kept OUTBOX_RETENTION_MS, ample for a receiver that is listening to read them.

/** DEFAULT_CHANNEL is the NOTIFY channel of Basalt's events (channels are per database). */
export const DEFAULT_CHANNEL = 'basalt_events';

const MAX_QUEUED = 50_000;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5000;
const CLOSE_FLUSH_MS = 2000;
const OUTBOX_RETENTION_MS = 5 * 60_000;
const OUTBOX_CLEANUP_EVERY_MS = 60_000;
// Each cleanup deletes at most this many rows per statement and this many statements, then waits for the next.
const OUTBOX_DELETE_CHUNK = 1000;
const OUTBOX_DELETE_ROUNDS = 10;
// SQLSTATE classes of a lost or refused connection, worth retrying: 08 connection, 53 resources, 57 operator.
const TRANSIENT_CLASSES = new Set(['08', '53', '57', '58']);

/** PostgresTransportOptions configures createPostgresTransport. */
export interface PostgresTransportOptions {
  databaseUrl: string;
  /** channel is the NOTIFY channel, a lower-case SQL identifier (default `basalt_events`). */
  channel?: string;
  /** nodeId names this node (default random); it must be unique to the process, never reused by a restart. */
  nodeId?: string;
  /** onError hears lost connections, failed sends and dropped events; the transport goes on. */
  onError?: (error: unknown) => void;
}

/** PostgresTransport is the bus transport over LISTEN/NOTIFY, with the names it shows PostgreSQL. */
export interface PostgresTransport extends BusTransport {
  readonly nodeId: string;
  /** applicationName is the LISTEN connection's application_name (`basalt-bus-<nodeId>`); sends use `…-send`. */
  readonly applicationName: string;
}

/** createPostgresTransport makes the transport of one node; it connects when the bus starts it. */
export function createPostgresTransport(options: PostgresTransportOptions): PostgresTransport {
  const nodeId = options.nodeId ?? randomBytes(8).toString('hex');
  const channel = options.channel ?? DEFAULT_CHANNEL;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid bus channel name: ${channel}`);
  const onError = options.onError ?? (() => {});
  const applicationName = `basalt-bus-${nodeId}`;
  // The sender has one statement under way at a time (that keeps the order); the second connection serves outbox
  // reads and the cleanup meanwhile.
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 2,
    application_name: `${applicationName}-send`,
    connectionTimeoutMillis: 5000,
    query_timeout: 10_000,
    // An outbox row lives minutes and matters only to listeners, who reset if PostgreSQL restarts: its commit need
    // not wait for the disk.
    options: '-c synchronous_commit=off',
  });
  // An idle connection the server drops emits 'error'; the pool replaces it on the next query.
  pool.on('error', onError);
  const sender = createNotifySender({ pool, channel, nodeId, onError });
  let listener: NotifyListener | null = null;
  let closing: Promise<void> | null = null;

  return {
    nodeId,
    applicationName,
    start(handlers: BusTransportHandlers) {
      if (listener) throw new Error('The bus transport is already started');
      listener = listenForNotifications({
        databaseUrl: options.databaseUrl,
        channel,
        nodeId,
        applicationName,
        pool,
        handlers,
        onError,
      });
    },
    send: (message) => sender.send(message),
    close() {
      closing ??= (async () => {
        await sender.close();
        await listener?.close();
        await pool.end();
      })();
      return closing;
    },
  };
}

type Outgoing =
  | { outbox: false; payloads: string[]; events: number }
  | { outbox: true; payload: string; head: string; events: number };

/**
 * createNotifySender queues a node's events and sends them in publish order: everything queued in one turn of the
 * event loop (and while a send is under way) leaves together, in as few notifications as fit.
 */
function createNotifySender(options: {
  pool: Queryable;
  channel: string;
  nodeId: string;
  onError: (error: unknown) => void;
}) {
  const { pool, channel, nodeId, onError } = options;
  let queue: string[] = [];
  let dropped = 0;
  let seq = 0;
  let scheduled: NodeJS.Immediate | null = null;
  let pumping: Promise<void> | null = null;
  let closing = false;
  let cleanupTimer: NodeJS.Timeout | null = null;
  let wakeRetry: (() => void) | null = null;

  function schedule() {
    if (scheduled === null && pumping === null) scheduled = setImmediate(startPump);
  }

  function startPump() {
    scheduled = null;
    pumping = pump().finally(() => {
      pumping = null;
      if (queue.length > 0 && !closing) schedule();
    });
  }

  async function pump() {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      // A skipped number tells the receivers that events were dropped before this batch.
      if (dropped > 0) seq++;
      dropped = 0;
      // A notification given up leaves its own gap in the numbering.
      for (const outgoing of number(batch)) await sendWithRetry(outgoing);
    }
  }

  // Gives each notification its number; consecutive inline ones leave in one statement.
  function number(batch: string[]): Outgoing[] {
    const result: Outgoing[] = [];
    for (const part of packMessages(nodeId, batch)) {
      seq++;
      const last = result.at(-1);
      if (part.outbox) {
        const head = outboxEnvelopeHead(nodeId, seq);
        result.push({ outbox: true, payload: outboxRowPayload(part.messages), head, events: part.messages.length });
      } else if (last && !last.outbox) {
        last.payloads.push(inlineEnvelope(nodeId, seq, part.messages));
        last.events += part.messages.length;
      } else {
        result.push({
          outbox: false,
          payloads: [inlineEnvelope(nodeId, seq, part.messages)],
          events: part.messages.length,
        });
      }
    }
    return result;
  }

  async function sendOnce(outgoing: Outgoing) {
    if (!outgoing.outbox) return notifyEach(pool, channel, outgoing.payloads);
    startOutboxCleanup();
    const createdAt = new Date().toISOString();
    return insertOutboxRowAndNotify(pool, { channel, payload: outgoing.payload, head: outgoing.head, createdAt });
  }

  async function sendWithRetry(outgoing: Outgoing): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await sendOnce(outgoing);
        return;
      } catch (error) {
        if (attempt === 0) onError(error);
        if (closing || !isTransient(error)) {
          onError(new Error(`Dropped ${outgoing.events} bus events that could not be sent`));
          return;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(RETRY_MIN_MS * 2 ** attempt, RETRY_MAX_MS));
          wakeRetry = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeRetry = null;
      }
    }
  }

  // Started by the first outbox row this node writes: a node that never writes one has nothing to clean.
  function startOutboxCleanup() {
    if (cleanupTimer) return;
    cleanupTimer = setInterval(() => void deleteOldRows(), OUTBOX_CLEANUP_EVERY_MS);
    cleanupTimer.unref();
  }

  async function deleteOldRows() {
    const before = new Date(Date.now() - OUTBOX_RETENTION_MS).toISOString();
    try {
      for (let round = 0; round < OUTBOX_DELETE_ROUNDS && !closing; round++) {
        if ((await deleteOldOutboxRows(pool, before, OUTBOX_DELETE_CHUNK)) < OUTBOX_DELETE_CHUNK) break;
      }
    } catch (error) {
      onError(error);
    }
  }

  return {
    send(message: string) {
      if (closing) return;
      queue.push(message);
      if (queue.length > MAX_QUEUED) {
        const excess = queue.length - MAX_QUEUED;
        queue.splice(0, excess);
        if (dropped === 0)
          onError(new Error(`Bus events are queued faster than they can be sent; dropping the oldest`));
        dropped += excess;
      }
      schedule();
    },
    async close() {
      closing = true;
      if (cleanupTimer) clearInterval(cleanupTimer);
      if (scheduled) {
        clearImmediate(scheduled);
        startPump();
      }
      // A send waiting to be retried gets one last attempt now.
      wakeRetry?.();
      if (!pumping) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([pumping, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_FLUSH_MS)))]);
      clearTimeout(timer);
    },
  };
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return true;
  return TRANSIENT_CLASSES.has((error.code ?? '').slice(0, 2));
}
