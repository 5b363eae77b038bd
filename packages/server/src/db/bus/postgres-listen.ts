import pg from 'pg';
import type { BusMessage, BusTransportHandlers } from './event-bus.js';
import { findOutboxPayload, type Queryable } from './event-outbox.store.js';
import { type Envelope, envelopePrefix, readEnvelope, readOutboxRow } from './notify-envelope.js';

// The receiving half of the PostgreSQL transport: one dedicated connection that LISTENs, and reconnects.
// While it is down, notifications sent meanwhile are lost for good (PostgreSQL keeps none for a session that is
// not there), so the bus is told it is unreliable and caches drop what they hold; once LISTEN is back, they
// drop it again, since what they read while it was down may already be stale.

/** RECONNECT_MIN_MS and RECONNECT_MAX_MS bound the wait before each new attempt (doubling from min to max). */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5000;

// A silent network loss shows only through TCP keepalive: probes begin after this much quiet.
const KEEPALIVE_DELAY_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5000;
// How many senders' last numbers are remembered (nodes come and go; each restart is a new node).
const MAX_KNOWN_NODES = 1000;

/** NotifyListener is the LISTEN connection of one node. */
export interface NotifyListener {
  close(): Promise<void>;
}

interface Received {
  envelope: Envelope;
  /** The events, or a read of the outbox row that holds them (null: the row is gone or unreadable). */
  events: BusMessage[] | Promise<BusMessage[] | null>;
}

/**
 * listenForNotifications opens the LISTEN connection and keeps it open: it hands other nodes' events to
 * `handlers.deliver` in each sender's order, and reports through `handlers.reset` when it is up or down.
 * Outbox rows are read through `pool`.
 */
export function listenForNotifications(options: {
  databaseUrl: string;
  channel: string;
  nodeId: string;
  applicationName: string;
  pool: Queryable;
  handlers: BusTransportHandlers;
  onError: (error: unknown) => void;
}): NotifyListener {
  const { channel, nodeId, pool, handlers, onError } = options;
  const ownPrefix = envelopePrefix(nodeId);
  const lastSeq = new Map<string, number>();
  const inbox: Received[] = [];
  let draining = false;
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let delay = RECONNECT_MIN_MS;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let failures = 0;

  function connect() {
    reconnectTimer = null;
    const next = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: options.applicationName,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    client = next;
    // Every client keeps an 'error' listener for good: pg emits 'error' on a dead socket even after we let go of
    // it, and an unheard 'error' would end the process.
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, new Error('LISTEN connection ended')));
    next.on('notification', (message) => {
      if (next === client && message.channel === channel && message.payload) receive(message.payload);
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${pg.escapeIdentifier(channel)}`))
      .then(
        () => {
          if (next !== client) return;
          listening = true;
          delay = RECONNECT_MIN_MS;
          failures = 0;
          // Numbers heard before the gap say nothing about what comes after it.
          lastSeq.clear();
          handlers.reset(true);
        },
        (error: unknown) => lost(next, error),
      );
  }

  function lost(which: pg.Client, error: unknown) {
    if (which !== client) return;
    client = null;
    which.end().catch(() => {});
    if (closed) return;
    // A database that stays away would otherwise fill the log with one line per attempt.
    if (failures === 0) onError(error);
    failures++;
    if (listening) {
      listening = false;
      handlers.reset(false);
    }
    reconnectTimer = setTimeout(connect, delay);
    reconnectTimer.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  }

  function receive(text: string) {
    // This node's own events were delivered here when published.
    if (text.startsWith(ownPrefix)) return;
    const envelope = readEnvelope(text);
    if (!envelope) {
      onError(new Error(`Ignored a notification on ${channel} that is not a Basalt event: ${text.slice(0, 100)}`));
      return;
    }
    inbox.push({ envelope, events: envelope.events ?? readOutbox(envelope.outbox ?? 0) });
    void drain();
  }

  // The read starts at once; drain still delivers it after every notification that came before it.
  async function readOutbox(id: number): Promise<BusMessage[] | null> {
    try {
      const payload = await findOutboxPayload(pool, id);
      const events = payload === null ? null : readOutboxRow(payload);
      if (!events) onError(new Error(`Event outbox row ${id} is gone or unreadable; caches are reset`));
      return events;
    } catch (error) {
      onError(error);
      return null;
    }
  }

  // Delivers in arrival order, synchronously while no outbox read is pending.
  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (inbox.length > 0) {
        const head = inbox[0] as Received;
        const events = Array.isArray(head.events) ? head.events : await head.events;
        inbox.shift();
        try {
          if (!closed) accept(head.envelope, events);
        } catch (error) {
          onError(error);
        }
      }
    } finally {
      draining = false;
    }
  }

  function accept(envelope: Envelope, events: BusMessage[] | null) {
    const last = lastSeq.get(envelope.node);
    // A number already heard is a send that was retried after it had in fact gone through.
    if (last !== undefined && envelope.seq <= last) return;
    lastSeq.delete(envelope.node);
    lastSeq.set(envelope.node, envelope.seq);
    if (lastSeq.size > MAX_KNOWN_NODES) lastSeq.delete(lastSeq.keys().next().value ?? '');
    // A gap: the sender dropped events it could not send. Nobody heard them, so every cache starts over.
    const missed = (last !== undefined && envelope.seq > last + 1) || events === null;
    if (missed) handlers.reset(listening);
    if (events) handlers.deliver(events);
  }

  connect();

  return {
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const current = client;
      client = null;
      listening = false;
      await current?.end().catch(() => {});
    },
  };
}
