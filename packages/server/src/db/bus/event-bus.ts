// The event bus carries what happened, after commit, to whoever must react: realtime, metering, and the caches of
// every node. Delivery in this process is synchronous and in publish order, so that a cache is invalidated before
// the request that changed the data has answered. Other nodes hear it through a transport (PostgreSQL
// LISTEN/NOTIFY, db/bus/postgres-notify.ts); with none (SQLite, one process per file) the bus is in-process only.

/**
 * BusEvents maps each topic to its payload; features add their topics by declaration merging:
 * `declare module './event-bus.js' { interface BusEvents { 'table.changed': { tableId: string } } }`.
 * Payloads cross nodes as JSON, so they must be plain JSON values (no Date, Map, bigint or undefined members).
 */
// biome-ignore lint/suspicious/noEmptyInterface: features fill it by declaration merging.
export interface BusEvents {}

/** BusTopic is the name of an event kind that some feature declared in BusEvents. */
export type BusTopic = keyof BusEvents & string;

/** BusOrigin says where an event was published: `local` on this node, otherwise on another one. */
export interface BusOrigin {
  local: boolean;
}

/** BusListener hears one topic's events. */
export type BusListener<K extends BusTopic> = (payload: BusEvents[K], origin: BusOrigin) => void;

/** EventBus carries typed events after commit, to this process's subscribers and to every other node's. */
export interface EventBus {
  /**
   * publish delivers to this process's subscribers at once (synchronously, in order) and hands the event to the
   * transport for the other nodes. A throwing subscriber never fails publish (it is reported to onError).
   */
  publish<K extends BusTopic>(topic: K, payload: BusEvents[K]): void;
  /**
   * subscribe hears a topic's events from this node and every other node; returns the unsubscribe function.
   * `origin.local` tells whether it came from this node.
   */
  subscribe<K extends BusTopic>(topic: K, listener: BusListener<K>): () => void;
  /**
   * reliable is false while events from other nodes may be lost (the LISTEN connection is down, or not up yet);
   * caches must not trust what they hold then. Always true without a transport (SQLite).
   */
  readonly reliable: boolean;
  /**
   * onReset hears that events from other nodes may have been missed (connection lost, and again when it is
   * back): caches drop everything. Returns the function that stops listening.
   */
  onReset(listener: () => void): () => void;
  /**
   * resetLocal calls this process's reset listeners as a lost connection would, without changing `reliable`: the
   * database was replaced underneath (a restore), so every cache must forget what it holds.
   */
  resetLocal(): void;
  /** close stops the transport after sending what is queued; publish does nothing afterwards. */
  close(): Promise<void>;
}

/** BusMessage is one event as it travels between nodes: its topic and its payload, as JSON. */
export interface BusMessage {
  topic: string;
  payload: unknown;
}

/** BusTransportHandlers is how a transport reports to its bus. */
export interface BusTransportHandlers {
  /** deliver hands over events another node published, in that node's publish order. */
  deliver(messages: BusMessage[]): void;
  /**
   * reset says that events from other nodes may have been missed; `reliable` tells whether the transport now
   * hears every node (connection back) or may go on missing events (connection lost).
   */
  reset(reliable: boolean): void;
}

/**
 * BusTransport carries a bus's events to the other nodes and theirs back. It starts unreliable and calls
 * `reset(true)` once it hears the other nodes.
 */
export interface BusTransport {
  /** start begins listening to the other nodes; createEventBus calls it once. */
  start(handlers: BusTransportHandlers): void;
  /** send queues one event for the other nodes, as the JSON text of a BusMessage; it never throws. */
  send(message: string): void;
  /** close sends what is queued (briefly), then stops listening and frees every connection and timer. */
  close(): Promise<void>;
}

/** EventBusOptions configures createEventBus. */
export interface EventBusOptions {
  /** transport carries events to other nodes; null or absent keeps them in this process (SQLite). */
  transport?: BusTransport | null;
  /** onError hears a subscriber that threw and an event that could not be sent. */
  onError?: (error: unknown) => void;
}

// The bus's own table of listeners knows nothing of the topics' payload types; subscribe checked them.
type AnyListener = (payload: unknown, origin: BusOrigin) => void;

const LOCAL: BusOrigin = Object.freeze({ local: true });
const REMOTE: BusOrigin = Object.freeze({ local: false });

/** createEventBus makes the bus of one process, over a transport to the other nodes when there are any. */
export function createEventBus(options: EventBusOptions = {}): EventBus {
  const transport = options.transport ?? null;
  const report = options.onError ?? (() => {});
  // Each topic's listeners are replaced, never mutated, so that a listener that subscribes or unsubscribes
  // during a delivery changes the next delivery, not the one under way.
  const listeners = new Map<string, AnyListener[]>();
  let resetListeners: Array<() => void> = [];
  let reliable = transport === null;
  let closed = false;

  function notifyReset() {
    for (const listener of resetListeners) {
      try {
        listener();
      } catch (error) {
        report(error);
      }
    }
  }

  function dispatch(topic: string, payload: unknown, origin: BusOrigin) {
    const current = listeners.get(topic);
    if (!current) return;
    for (const listener of current) {
      try {
        listener(payload, origin);
      } catch (error) {
        report(error);
      }
    }
  }

  transport?.start({
    deliver(messages) {
      if (closed) return;
      for (const message of messages) dispatch(message.topic, message.payload, REMOTE);
    },
    reset(nowReliable) {
      if (closed) return;
      reliable = nowReliable;
      notifyReset();
    },
  });

  return {
    publish(topic, payload) {
      if (closed) return;
      dispatch(topic, payload, LOCAL);
      if (!transport) return;
      let message: string;
      try {
        message = JSON.stringify({ topic, payload } satisfies BusMessage);
      } catch (error) {
        // A payload JSON cannot hold (a cycle, a bigint) reaches this node only; the publisher's bug, reported.
        report(error);
        return;
      }
      transport.send(message);
    },
    subscribe(topic, listener) {
      const entry: AnyListener = (payload, origin) => listener(payload as BusEvents[typeof topic], origin);
      listeners.set(topic, [...(listeners.get(topic) ?? []), entry]);
      return () => {
        const rest = (listeners.get(topic) ?? []).filter((l) => l !== entry);
        if (rest.length > 0) listeners.set(topic, rest);
        else listeners.delete(topic);
      };
    },
    get reliable() {
      return reliable;
    },
    resetLocal() {
      if (!closed) notifyReset();
    },
    onReset(listener) {
      const entry = () => listener();
      resetListeners = [...resetListeners, entry];
      return () => {
        resetListeners = resetListeners.filter((l) => l !== entry);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      resetListeners = [];
      await transport?.close();
    },
  };
}
