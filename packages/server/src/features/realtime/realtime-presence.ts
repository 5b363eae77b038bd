import type { EventBus } from '../../db/bus/event-bus.js';
import type { PresenceDiff, PresenceEntry, PresenceState } from './realtime-events.js';
import './realtime-events.js';

// Presence across nodes. Each node owns the presences its sockets track and announces every change on the bus
// (`realtime.presence`, numbered per node); every node keeps what the others announced, so that a room's state is
// the union over the nodes. A node that missed an announcement (a gap in a node's numbers, a node it never heard
// of, a bus that was down) asks that node for its whole state (`realtime.presence.ask` → `realtime.presence.state`)
// and replaces what it held of it. Each node beats every BEAT_MS (`realtime.node`); a node silent for DEAD_AFTER_MS
// has died, and its presences leave every room: within one client heartbeat (30 s), typically ~15 s.

/** BEAT_MS is how often a node says it is alive; DEAD_AFTER_MS how long before the others give it up. */
export const BEAT_MS = 5000;
export const DEAD_AFTER_MS = 15_000;
// A node answers asks for its state at most this often (many nodes asking at once get one answer).
const ANSWER_AT_MOST_EVERY_MS = 250;

/** Metas is a room's presences as Phoenix sends them: per key, its metas with their phx_ref. */
export type Metas = Record<string, { metas: Array<Record<string, unknown>> }>;

/** PresenceListener hears what joined and left a room (on any node). */
export type PresenceListener = (room: string, joins: Metas, leaves: Metas) => void;

interface NodeView {
  seq: number;
  seenAt: number;
  /** room → ref → entry */
  rooms: Map<string, Map<string, PresenceEntry>>;
}

/** Presence is this node's view of every room's presences. */
export interface Presence {
  readonly nodeId: string;
  /** track adds (or replaces, when `previousRef` is given) a presence of this node in a room; returns its ref. */
  track(room: string, key: string, meta: Record<string, unknown>, previousRef: string | null): string;
  untrack(room: string, ref: string): void;
  /** stateOf is a room's presences on every node, as presence_state sends them. */
  stateOf(room: string): Metas;
  /** beat announces this node and gives up nodes gone silent (the presence job calls it every BEAT_MS). */
  beat(now?: number): void;
  close(): void;
}

const grouped = (entries: Iterable<PresenceEntry>): Metas => {
  const metas: Metas = {};
  for (const entry of entries) {
    const group = Object.hasOwn(metas, entry.key) ? metas[entry.key] : undefined;
    const meta = { ...entry.meta, phx_ref: entry.ref };
    if (group) group.metas.push(meta);
    else Object.defineProperty(metas, entry.key, { value: { metas: [meta] }, enumerable: true, writable: true });
  }
  return metas;
};

/** createPresence makes this node's presence over the bus; `listener` hears every room's joins and leaves. */
export function createPresence(bus: EventBus, nodeId: string, listener: PresenceListener): Presence {
  const nodes = new Map<string, NodeView>();
  const own: NodeView = { seq: 0, seenAt: Date.now(), rooms: new Map() };
  nodes.set(nodeId, own);
  let refs = 0;
  let lastAnswer = 0;
  let answerTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const viewOf = (node: string): NodeView => {
    let view = nodes.get(node);
    if (!view) {
      view = { seq: 0, seenAt: Date.now(), rooms: new Map() };
      nodes.set(node, view);
    }
    return view;
  };

  const tell = (room: string, joins: PresenceEntry[], leaves: PresenceEntry[]) => {
    if (joins.length > 0 || leaves.length > 0) listener(room, grouped(joins), grouped(leaves));
  };

  const apply = (view: NodeView, diff: Pick<PresenceDiff, 'room' | 'joins' | 'leaves'>) => {
    let entries = view.rooms.get(diff.room);
    if (!entries) {
      entries = new Map();
      view.rooms.set(diff.room, entries);
    }
    for (const left of diff.leaves) entries.delete(left.ref);
    for (const joined of diff.joins) entries.set(joined.ref, joined);
    if (entries.size === 0) view.rooms.delete(diff.room);
  };

  const announce = (room: string, joins: PresenceEntry[], leaves: PresenceEntry[]) => {
    own.seq++;
    apply(own, { room, joins, leaves });
    bus.publish('realtime.presence', { node: nodeId, seq: own.seq, room, joins, leaves });
  };

  // Replaces everything held of a node by its state, telling the rooms what that changed.
  const replace = (node: string, state: PresenceState['rooms'] | null, seq: number) => {
    const view = viewOf(node);
    const rooms = new Set([...view.rooms.keys(), ...Object.keys(state ?? {})]);
    for (const room of rooms) {
      const before = view.rooms.get(room) ?? new Map<string, PresenceEntry>();
      const after = new Map((state?.[room] ?? []).map((entry) => [entry.ref, entry] as const));
      const joins = [...after.values()].filter((entry) => !before.has(entry.ref));
      const leaves = [...before.values()].filter((entry) => !after.has(entry.ref));
      if (after.size > 0) view.rooms.set(room, after);
      else view.rooms.delete(room);
      tell(room, joins, leaves);
    }
    view.seq = seq;
  };

  const stateOfNode = (): PresenceState['rooms'] => {
    const rooms: PresenceState['rooms'] = {};
    for (const [room, entries] of own.rooms) rooms[room] = [...entries.values()];
    return rooms;
  };

  const answer = () => {
    answerTimer = null;
    if (closed) return;
    lastAnswer = Date.now();
    bus.publish('realtime.presence.state', { node: nodeId, seq: own.seq, rooms: stateOfNode() });
  };

  const ask = (node: string) => bus.publish('realtime.presence.ask', { node });

  const unsubscribers = [
    bus.subscribe('realtime.presence', (diff, origin) => {
      if (origin.local) {
        tell(diff.room, diff.joins, diff.leaves);
        return;
      }
      const view = viewOf(diff.node);
      view.seenAt = Date.now();
      if (diff.seq <= view.seq) return;
      const missed = diff.seq !== view.seq + 1;
      view.seq = diff.seq;
      apply(view, diff);
      tell(diff.room, diff.joins, diff.leaves);
      if (missed) ask(diff.node);
    }),
    bus.subscribe('realtime.presence.state', (state, origin) => {
      if (origin.local) return;
      viewOf(state.node).seenAt = Date.now();
      replace(state.node, state.rooms, state.seq);
    }),
    bus.subscribe('realtime.presence.ask', ({ node }) => {
      if (node !== nodeId && node !== '*') return;
      if (answerTimer) return;
      answerTimer = setTimeout(answer, Math.max(0, lastAnswer + ANSWER_AT_MOST_EVERY_MS - Date.now()));
      answerTimer.unref();
    }),
    bus.subscribe('realtime.node', (beat, origin) => {
      if (origin.local) return;
      const known = nodes.get(beat.node);
      const view = viewOf(beat.node);
      view.seenAt = Date.now();
      // A node heard of for the first time, or one whose announcements were missed: ask for its state.
      if (!known ? beat.seq > 0 : beat.seq > view.seq) ask(beat.node);
    }),
    // Events may have been missed while the bus was down: ask every node again.
    bus.onReset(() => ask('*')),
  ];
  ask('*');

  return {
    nodeId,
    track(room, key, meta, previousRef) {
      const ref = `${nodeId}:${++refs}`;
      const previous = previousRef ? own.rooms.get(room)?.get(previousRef) : undefined;
      announce(room, [{ ref, key, meta }], previous ? [previous] : []);
      return ref;
    },
    untrack(room, ref) {
      const entry = own.rooms.get(room)?.get(ref);
      if (entry) announce(room, [], [entry]);
    },
    stateOf(room) {
      const entries: PresenceEntry[] = [];
      for (const view of nodes.values()) {
        const held = view.rooms.get(room);
        if (held) entries.push(...held.values());
      }
      return grouped(entries);
    },
    beat(now = Date.now()) {
      bus.publish('realtime.node', { node: nodeId, seq: own.seq });
      for (const [node, view] of nodes) {
        if (node === nodeId || now - view.seenAt < DEAD_AFTER_MS) continue;
        replace(node, null, view.seq);
        nodes.delete(node);
      }
    },
    close() {
      closed = true;
      if (answerTimer) clearTimeout(answerTimer);
      for (const stop of unsubscribers) stop();
    },
  };
}
