import type { RealtimeConfig } from '../../config.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { RestKey } from '../rest/rest-gateway.js';
import type { EqKey, FilterTerm } from './realtime-filters.js';
import type { Vsn } from './realtime-frames.js';
import type { Wire } from './realtime-wire.js';

// The shapes of realtime's state on one node: a connection per socket, its joined channels, and each channel's
// postgres_changes bindings. Kept small: an idle subscribed socket should cost the server well under 20 KB.

/** RealtimeSocket is what realtime needs of a WebSocket (ws's): its state, and closing it. Frames go to its wire. */
export interface RealtimeSocket {
  close(code?: number, reason?: string): void;
  readonly readyState: number;
}

/** ChangeEvent is an event a binding hears. */
export type ChangeEvent = '*' | 'INSERT' | 'UPDATE' | 'DELETE';

/**
 * Binding is one postgres_changes subscription of a channel: its id (echoed in the join reply and sent with each
 * change), the table it hears (null: every table of the account), its event and filter, and the actor whose rules
 * decide what it hears (a project member reaching another account's table acts as that account's member).
 */
export interface Binding {
  id: number;
  event: ChangeEvent;
  tableId: number | null;
  filter: FilterTerm[] | null;
  /** eq is the filter's first `eq` term, by which the channel is indexed (realtime-audiences.ts), or null. */
  eq: EqKey | null;
  actor: Actor;
  /** follows tells whether the binding's actor is the channel's (and so changes with its token). */
  follows: boolean;
}

/** Connection is one socket: its protocol version, its apikey and its channels by topic. */
export interface Connection {
  readonly id: number;
  readonly socket: RealtimeSocket;
  /** wire is the TCP socket under the WebSocket, which realtime's frames are written to (realtime-wire.ts). */
  readonly wire: Wire;
  readonly vsn: Vsn;
  readonly key: RestKey;
  readonly ip: string;
  readonly channels: Map<string, Channel>;
  /** The accounts this socket counts toward (one per account whose channel it joined). */
  readonly accounts: Set<string>;
  lastSeenAt: number;
  /** Frames wait for a join or token check under way, so that each socket's frames are handled in order. */
  pending: Promise<void> | null;
  closed: boolean;
}

/** Channel is one joined topic of a connection. */
export interface Channel {
  readonly id: number;
  readonly conn: Connection;
  /** The topic as the client named it (`realtime:<name>`), and the name alone. */
  readonly topic: string;
  readonly subTopic: string;
  readonly joinRef: string | null;
  readonly accountId: string;
  readonly isPrivate: boolean;
  readonly room: string;
  readonly self: boolean;
  readonly ack: boolean;
  actor: Actor;
  /** When the channel's token expires (ms since the epoch), or null. */
  expiresAt: number | null;
  readonly presenceKey: string;
  presenceEnabled: boolean;
  presenceRef: string | null;
  readonly bindings: Binding[];
  /** The audience the channel hears record changes with (null: it has no binding); realtime-audiences.ts. */
  audience: Audience | null;
}

/** Queued is a frame waiting to leave, numbered so that each socket gets its frames in the order they were sent. */
export interface Queued {
  seq: number;
  frame: Buffer;
}

/**
 * Audience is the channels of this node that hear every record change alike: the same protocol version, topic,
 * account and bindings (ids, events, tables, filters, and the rule context of each binding's actor). A change is
 * decided and encoded once per audience, and leaves as one buffer written to each of its sockets.
 */
export interface Audience {
  readonly key: string;
  readonly vsn: Vsn;
  readonly topic: string;
  /** A copy of its first channel's bindings: the others' differ only in actors of the same rule context. */
  readonly bindings: readonly Binding[];
  /** Its channels, each with the sequence number at which it joined (it gets only frames sent after). */
  readonly channels: Map<Channel, number>;
  /** The frames sent to it that have not left yet (realtime-outbox.ts). */
  pending: Queued[];
}

/** RealtimeLimits are realtime's limits per account on each node (REALTIME_* in config.ts). */
export type RealtimeLimits = RealtimeConfig;
