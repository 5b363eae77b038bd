import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { BusTransport, BusTransportHandlers } from './event-bus.js';
import { envelopePrefix, inlineEnvelope, readEnvelope } from './notify-envelope.js';

// The bus between nodes over Redis pub/sub (REDIS_URL), for clusters whose fan-out outgrows PostgreSQL's NOTIFY
// (one queue per database, 8,000-byte payloads, an outbox row per larger event): one connection publishes, one
// subscribes, and Redis carries any size. The envelope is the NOTIFY one (db/bus/notify-envelope.ts): events
// published in one turn of the event loop leave together, numbered per node, so that a receiver sees its own
// (and skips them) and sees a gap. Redis keeps nothing for a subscriber that is not connected: while the
// subscription is down the bus is unreliable, and caches start over when it is back.
// - At most MAX_QUEUED events wait while Redis is away; beyond that the oldest are dropped (the others see a gap).
// - A publish that fails is not retried (the connection's own reconnect does that for queued commands).

/** REDIS_CHANNEL is the pub/sub channel of Basalt's events. */
export const REDIS_CHANNEL = 'basalt_events';

const MAX_QUEUED = 50_000;
const CLOSE_FLUSH_MS = 2000;
// Reconnect after min(attempts × 100 ms, 5 s), as the PostgreSQL listener does.
const retryStrategy = (times: number) => Math.min(times * 100, 5000);

/** RedisTransportOptions configures createRedisTransport. */
export interface RedisTransportOptions {
  redisUrl: string;
  channel?: string;
  /** nodeId names this node (default random), unique to the process. */
  nodeId?: string;
  onError?: (error: unknown) => void;
}

/** createRedisTransport makes the bus transport of one node over Redis pub/sub; it connects when started. */
export function createRedisTransport(options: RedisTransportOptions): BusTransport & { readonly nodeId: string } {
  const nodeId = options.nodeId ?? randomBytes(8).toString('hex');
  const channel = options.channel ?? REDIS_CHANNEL;
  const onError = options.onError ?? (() => {});
  const ownPrefix = envelopePrefix(nodeId);
  const connect = (name: string) =>
    new Redis(options.redisUrl, {
      lazyConnect: true,
      connectionName: `basalt-bus-${nodeId}-${name}`,
      retryStrategy,
      maxRetriesPerRequest: null,
    });
  const publisher = connect('pub');
  const subscriber = connect('sub');
  let queue: string[] = [];
  let queued = 0;
  let dropped = false;
  let seq = 0;
  let scheduled: NodeJS.Immediate | null = null;
  let inFlight = 0;
  let closed = false;
  let listening = false;
  let subscribed = false;
  let failures = 0;
  const lastSeq = new Map<string, number>();
  const report = (error: unknown) => {
    // A Redis that stays away would otherwise fill the log with one line per attempt.
    if (failures++ === 0) onError(error);
  };
  publisher.on('error', report);
  subscriber.on('error', report);

  function flush() {
    scheduled = null;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    queued = 0;
    // A skipped number tells the receivers that events were dropped before this batch.
    if (dropped) seq++;
    dropped = false;
    inFlight++;
    publisher
      .publish(channel, inlineEnvelope(nodeId, ++seq, batch))
      .catch((error: unknown) => onError(error))
      .finally(() => inFlight--);
  }

  function receive(text: string, handlers: BusTransportHandlers) {
    if (text.startsWith(ownPrefix)) return;
    const envelope = readEnvelope(text);
    if (!envelope?.events) {
      onError(new Error(`Ignored a message on ${channel} that is not a Basalt event: ${text.slice(0, 100)}`));
      return;
    }
    const last = lastSeq.get(envelope.node);
    if (last !== undefined && envelope.seq <= last) return;
    lastSeq.delete(envelope.node);
    lastSeq.set(envelope.node, envelope.seq);
    if (lastSeq.size > 1000) lastSeq.delete(lastSeq.keys().next().value ?? '');
    if (last !== undefined && envelope.seq > last + 1) handlers.reset(listening);
    handlers.deliver(envelope.events);
  }

  return {
    nodeId,
    start(handlers) {
      subscriber.on('message', (from: string, text: string) => {
        if (from === channel && !closed) receive(text, handlers);
      });
      const hearing = () => {
        if (closed) return;
        failures = 0;
        // Numbers heard before the gap say nothing about what comes after it.
        lastSeq.clear();
        listening = true;
        handlers.reset(true);
      };
      // ioredis subscribes again by itself after a reconnect, as it becomes ready.
      subscriber.on('ready', () => {
        if (subscribed) hearing();
      });
      subscriber.on('close', () => {
        if (closed || !listening) return;
        listening = false;
        handlers.reset(false);
      });
      subscriber
        .connect()
        .then(() => subscriber.subscribe(channel))
        .then(() => {
          subscribed = true;
          hearing();
        })
        .catch(report);
      publisher.connect().catch(report);
    },
    send(message) {
      if (closed) return;
      queue.push(message);
      queued++;
      if (queued > MAX_QUEUED) {
        queue.shift();
        queued--;
        if (!dropped) onError(new Error('Bus events are queued faster than Redis takes them; dropping the oldest'));
        dropped = true;
      }
      scheduled ??= setImmediate(flush);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (scheduled) clearImmediate(scheduled);
      flush();
      const deadline = Date.now() + CLOSE_FLUSH_MS;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
