// The bus topics of realtime (db/bus): every node delivers what any node receives. Record changes need none of
// their own: each node hears `records.changed` and serves its own subscribers. A room is one channel topic of one
// account, public or private (`roomKeyOf`).

/** BroadcastSent is a broadcast to one room: a JSON payload or bytes (base64), and who sent it. */
export interface BroadcastSent {
  room: string;
  event: string;
  json?: unknown;
  base64?: string;
  /** sender names the channel that sent it (`node:channel`), so that it hears itself only with `self`. */
  sender: string | null;
}

/** PresenceEntry is one tracked presence: its phx_ref, its key and its metadata. */
export interface PresenceEntry {
  ref: string;
  key: string;
  meta: Record<string, unknown>;
}

/** PresenceDiff is what changed in one room on one node; `seq` numbers each node's presence messages. */
export interface PresenceDiff {
  node: string;
  seq: number;
  room: string;
  joins: PresenceEntry[];
  leaves: PresenceEntry[];
}

/** PresenceState is every presence one node holds, sent when another node asks. */
export interface PresenceState {
  node: string;
  seq: number;
  rooms: Record<string, PresenceEntry[]>;
}

/** NodeBeat says a node is alive, and the number of its last presence message. */
export interface NodeBeat {
  node: string;
  seq: number;
}

/** PresenceAsk asks a node (or every node, `*`) to send its whole presence state. */
export interface PresenceAsk {
  node: string;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'realtime.broadcast': BroadcastSent;
    'realtime.presence': PresenceDiff;
    'realtime.presence.state': PresenceState;
    'realtime.presence.ask': PresenceAsk;
    'realtime.node': NodeBeat;
  }
}

/** roomKeyOf names the room of a channel topic (without `realtime:`) of an account, public or private. */
export function roomKeyOf(accountId: string, isPrivate: boolean, subTopic: string): string {
  return `${accountId}\u0000${isPrivate ? 'p' : 'o'}\u0000${subTopic}`;
}
