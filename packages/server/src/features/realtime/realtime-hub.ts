import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { accountActor } from '../../lib/actor/actor.js';
import type { RecordsChanged } from '../records/record-events.js';
import type { RestKey } from '../rest/rest-gateway.js';
import { findTableById } from '../tables/tables.service.js';
import { createAudiences } from './realtime-audiences.js';
import { deliverChange } from './realtime-delivery.js';
import type { BroadcastSent } from './realtime-events.js';
import { encodeBroadcast, encodeMessage, type UserBroadcast, type Vsn } from './realtime-frames.js';
import { createOutbox } from './realtime-outbox.js';
import { BEAT_MS, createPresence, type Metas, type Presence } from './realtime-presence.js';
import type { Channel, Connection, RealtimeLimits, RealtimeSocket } from './realtime-types.js';
import { type Wire, writeFrames, wsFrame } from './realtime-wire.js';
import '../../db/bus/account-events.js';
import '../records/record-events.js';

// This node's realtime: its sockets and their channels, indexed by room (broadcast and presence) and in audiences
// by table (record changes, realtime-audiences.ts), and what every node's bus carries to them. Record changes come from `records.changed` (each
// node serves its own subscribers, in commit order); broadcasts and presence go through the bus so that a room
// spans every node. Limits are counted here, per account on this node. Three jobs keep it (app-jobs.ts): token
// expiry (each second), presence beats (BEAT_MS) and idle sockets.

const OPEN = 1;
/** IDLE_AFTER_MS: a socket that sent nothing (not even a heartbeat, every 25-30 s) for this long is closed. */
export const IDLE_AFTER_MS = 120_000;
/** REALTIME_RHYTHMS are the rhythms of realtime's jobs (app-jobs.ts). */
export const REALTIME_RHYTHMS = {
  tokens: { firstAfterMs: 1000, everyMs: 1000 },
  beat: { firstAfterMs: 0, everyMs: BEAT_MS },
  idle: { firstAfterMs: 30_000, everyMs: 30_000 },
} as const;
// A socket that reads this far behind is dropped rather than let its queue grow without bound.
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** RealtimeHub is this node's realtime. */
export interface RealtimeHub {
  readonly db: Db;
  readonly callers: Callers;
  readonly limits: RealtimeLimits;
  readonly presence: Presence;
  /** open registers a socket; `closed` forgets it with its channels. */
  open(socket: RealtimeSocket, options: { wire: Wire; vsn: Vsn; key: RestKey; ip: string }): Connection;
  closed(conn: Connection): void;
  nextChannelId(): number;
  /** add registers a joined channel; false (and nothing changed) when its account has reached its sockets. */
  add(channel: Channel): boolean;
  /** remove forgets a channel (left, replaced, or its socket closed). */
  remove(channel: Channel): void;
  /** rebind files a channel anew after its bindings' actors changed (a token of another user or role). */
  rebind(channel: Channel): void;
  /** watchExpiry follows a channel's token expiry after a refresh changed it. */
  watchExpiry(channel: Channel): void;
  /** shutdown tells the client why (a `system` error), closes the channel on its side too, and forgets it. */
  shutdown(channel: Channel, message: string): void;
  /** admitMessage counts one message of an account; false when it is over its rate this second. */
  admitMessage(accountId: string): boolean;
  /** send queues a message (JSON text, or bytes as a binary message) for a socket; it leaves this turn. */
  send(conn: Connection, data: string | Buffer, binary?: boolean): void;
  /** broadcast sends to a room on every node; the sending channel hears it only with `self`. */
  broadcast(room: string, message: UserBroadcast, sender: Channel | null): void;
  track(channel: Channel, meta: Record<string, unknown>): void;
  untrack(channel: Channel): void;
  presenceState(room: string): Metas;
  sweepTokens(now?: number): void;
  sweepIdle(now?: number): void;
  close(): void;
}

const addTo = <K, V>(index: Map<K, Set<V>>, key: K, value: V) => {
  let set = index.get(key);
  if (!set) {
    set = new Set();
    index.set(key, set);
  }
  set.add(value);
};
const removeFrom = <K, V>(index: Map<K, Set<V>>, key: K, value: V) => {
  const set = index.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) index.delete(key);
};

/** createRealtimeHub makes this node's realtime over the database, its bus and the caller steps. */
export function createRealtimeHub(
  db: Db,
  callers: Callers,
  limits: RealtimeLimits,
  onError: (error: unknown) => void = () => {},
): RealtimeHub {
  const nodeId = randomUUID();
  const connections = new Set<Connection>();
  const rooms = new Map<string, Set<Channel>>();
  const audiences = createAudiences();
  const byAccount = new Map<string, Set<Channel>>();
  const socketsOf = new Map<string, number>();
  const rates = new Map<string, { second: number; count: number }>();
  const expiring = new Set<Channel>();
  let ids = 0;
  let changes: Promise<void> = Promise.resolve();

  const outbox = createOutbox((conn, frames) => {
    if (conn.closed || conn.socket.readyState !== OPEN || !conn.wire.writable) return;
    if (conn.wire.writableLength > MAX_BUFFERED_BYTES) {
      conn.socket.close(1013, 'The client reads too slowly');
      return;
    }
    writeFrames(conn.wire, frames);
  });
  const sendFrame = (conn: Connection, frame: Buffer) => {
    if (!conn.closed) outbox.toSocket(conn, frame);
  };
  const send = (conn: Connection, data: string | Buffer, binary = false) =>
    sendFrame(conn, wsFrame(typeof data === 'string' ? Buffer.from(data) : data, binary));

  const presence = createPresence(db.bus, nodeId, (room, joins, leaves) => {
    const channels = rooms.get(room);
    if (!channels) return;
    const frames = new Map<string, Buffer>();
    for (const channel of channels) {
      if (!channel.presenceEnabled) continue;
      const key = `${channel.conn.vsn}\u0000${channel.topic}`;
      let frame = frames.get(key);
      if (frame === undefined) {
        const text = encodeMessage(channel.conn.vsn, null, null, channel.topic, 'presence_diff', { joins, leaves });
        frame = wsFrame(Buffer.from(text), false);
        frames.set(key, frame);
      }
      sendFrame(channel.conn, frame);
    }
  });

  async function deliverChanges(event: RecordsChanged) {
    if (!audiences.mayHear(event.tableId, event.accountId)) return;
    const table = await findTableById(db, accountActor(event.accountId), event.tableId);
    if (!table) return;
    const at = event.committedAt ?? event.at;
    for (const change of event.changes) {
      deliverChange(audiences.of(table, event.accountId, change), table, change, at, outbox.toAudience);
    }
  }

  function deliverBroadcast(sent: BroadcastSent) {
    const channels = rooms.get(sent.room);
    if (!channels) return;
    const message: UserBroadcast =
      sent.base64 !== undefined
        ? { event: sent.event, bytes: Buffer.from(sent.base64, 'base64') }
        : { event: sent.event, json: sent.json ?? null };
    const frames = new Map<string, Buffer | null>();
    // The sending channel, when it is one of this node's.
    const own = `${nodeId}:`;
    const senderId = sent.sender?.startsWith(own) ? Number(sent.sender.slice(own.length)) : null;
    for (const channel of channels) {
      if (channel.id === senderId && !channel.self) continue;
      const key = `${channel.conn.vsn}\u0000${channel.topic}`;
      let frame = frames.get(key);
      if (frame === undefined) {
        const encoded = encodeBroadcast(channel.conn.vsn, channel.topic, message);
        frame = encoded === null ? null : wsFrame(Buffer.from(encoded), Buffer.isBuffer(encoded));
        frames.set(key, frame);
      }
      if (frame !== null) sendFrame(channel.conn, frame);
    }
  }

  function forget(channel: Channel) {
    const conn = channel.conn;
    if (conn.channels.get(channel.topic) !== channel) return;
    conn.channels.delete(channel.topic);
    removeFrom(rooms, channel.room, channel);
    removeFrom(byAccount, channel.accountId, channel);
    audiences.leave(channel);
    expiring.delete(channel);
    if (channel.presenceRef) presence.untrack(channel.room, channel.presenceRef);
    channel.presenceRef = null;
    // The socket stops counting toward an account once it has no channel of it left.
    const account = channel.accountId;
    if ([...conn.channels.values()].some((other) => other.accountId === account)) return;
    if (conn.accounts.delete(account)) {
      const left = (socketsOf.get(account) ?? 1) - 1;
      if (left > 0) socketsOf.set(account, left);
      else socketsOf.delete(account);
    }
  }

  function shutdown(channel: Channel, message: string) {
    const { conn } = channel;
    send(
      conn,
      encodeMessage(conn.vsn, channel.joinRef, null, channel.topic, 'system', {
        extension: 'system',
        status: 'error',
        message,
        channel: channel.subTopic,
      }),
    );
    send(conn, encodeMessage(conn.vsn, channel.joinRef, channel.joinRef, channel.topic, 'phx_close', {}));
    forget(channel);
  }

  function closed(conn: Connection) {
    if (conn.closed) return;
    conn.closed = true;
    connections.delete(conn);
    for (const channel of [...conn.channels.values()]) forget(channel);
  }

  const unsubscribers = [
    // In commit order: each change waits for the one before it, even when its table must be read first.
    db.bus.subscribe('records.changed', (event) => {
      if (!audiences.mayHear(event.tableId, event.accountId)) return;
      changes = changes.then(() => deliverChanges(event)).catch(onError);
    }),
    db.bus.subscribe('realtime.broadcast', deliverBroadcast),
    db.bus.subscribe('account.deleted', ({ accountId }) => {
      for (const channel of [...(byAccount.get(accountId) ?? [])]) shutdown(channel, 'The account was deleted');
    }),
  ];

  return {
    db,
    callers,
    limits,
    presence,
    open(socket, { wire, vsn, key, ip }) {
      const conn: Connection = {
        id: ++ids,
        socket,
        wire,
        vsn,
        key,
        ip,
        channels: new Map(),
        accounts: new Set(),
        lastSeenAt: Date.now(),
        pending: null,
        closed: false,
      };
      connections.add(conn);
      return conn;
    },
    closed,
    nextChannelId: () => ++ids,
    add(channel) {
      const { conn, accountId } = channel;
      if (!conn.accounts.has(accountId)) {
        const count = socketsOf.get(accountId) ?? 0;
        if (count >= limits.maxSockets) return false;
        socketsOf.set(accountId, count + 1);
        conn.accounts.add(accountId);
      }
      conn.channels.set(channel.topic, channel);
      addTo(rooms, channel.room, channel);
      addTo(byAccount, accountId, channel);
      audiences.join(channel, outbox.seq);
      if (channel.expiresAt !== null) expiring.add(channel);
      return true;
    },
    remove: forget,
    rebind(channel) {
      const before = channel.audience;
      if (!before || channel.conn.channels.get(channel.topic) !== channel) return;
      const since = before.channels.get(channel) ?? outbox.seq;
      audiences.leave(channel);
      audiences.join(channel, outbox.seq);
      // What was sent to it before and has not left yet is still its own.
      if (channel.audience === before) before.channels.set(channel, since);
      else outbox.keep(channel, before, since);
    },
    watchExpiry(channel) {
      if (channel.expiresAt !== null && channel.conn.channels.get(channel.topic) === channel) expiring.add(channel);
      else expiring.delete(channel);
    },
    shutdown,
    admitMessage(accountId) {
      const second = Math.floor(Date.now() / 1000);
      const rate = rates.get(accountId);
      if (!rate || rate.second !== second) {
        // Old windows go as the map is written, so it holds only accounts that sent in the last second or so.
        if (rates.size > 10_000) rates.clear();
        rates.set(accountId, { second, count: 1 });
        return true;
      }
      rate.count++;
      return rate.count <= limits.maxMessagesPerSecond;
    },
    send,
    broadcast(room, message, sender) {
      const sent: BroadcastSent = {
        room,
        event: message.event,
        sender: sender ? `${nodeId}:${sender.id}` : null,
        ...('bytes' in message ? { base64: Buffer.from(message.bytes).toString('base64') } : { json: message.json }),
      };
      db.bus.publish('realtime.broadcast', sent);
    },
    track(channel, meta) {
      channel.presenceRef = presence.track(channel.room, channel.presenceKey, meta, channel.presenceRef);
    },
    untrack(channel) {
      if (channel.presenceRef) presence.untrack(channel.room, channel.presenceRef);
      channel.presenceRef = null;
    },
    presenceState: (room) => presence.stateOf(room),
    sweepTokens(now = Date.now()) {
      for (const channel of [...expiring]) {
        if (channel.expiresAt === null) expiring.delete(channel);
        else if (channel.expiresAt <= now) {
          const ago = Math.floor((now - channel.expiresAt) / 1000);
          shutdown(channel, `Token has expired ${ago} seconds ago`);
        }
      }
    },
    sweepIdle(now = Date.now()) {
      for (const conn of connections) {
        if (now - conn.lastSeenAt > IDLE_AFTER_MS) conn.socket.close(1000, 'heartbeat timeout');
      }
    },
    close() {
      for (const stop of unsubscribers) stop();
      for (const conn of [...connections]) {
        conn.socket.close(1001, 'The server is shutting down');
        closed(conn);
      }
      presence.close();
    },
  };
}
