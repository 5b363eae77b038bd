import { randomUUID } from 'node:crypto';
import {
  blankLayout,
  type ClientMessage,
  type ProjectRole,
  roleCan,
  type ServerMessage,
  type StoredLayout,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { SchemaLayoutChanged } from './project-events.js';
import { memberProject } from './projects.service.js';
import { type LayoutUpdate, mergeLayoutUpdates, readLayout, versionCacheOf } from './schema-layouts.service.js';
import { readClientMessage } from './schema-room-messages.js';
import { localUsers, presenceOf, type Room, type RoomClient, type RoomSocket } from './schema-room-state.js';

// The Schema Editor's rooms on this node. A socket joins one project's
// room at a time, as a member (its role decides whether it may send updates: DEVELOPER and up). Updates that
// arrive while the room's previous merge is under way wait and are merged together, in one transaction, as the
// next version (schema-layouts.service.ts); then each sender gets the merged layout back (schema_layout_saved)
// and everyone else in the room gets it as schema_layout_update. Other nodes hear the committed layout on the bus
// (`schema.layout`) and send it to their sockets in the room, so one room spans every node on one PostgreSQL.
// Presence (who is in the room, what each has selected) is announced on the bus too, by each node for its own
// sockets, again every few seconds, and forgotten when a node stops announcing. A malformed frame gets an
// `error` message and the socket stays usable.

const OPEN = 1;
const TEXT_FRAME = { binary: false } as const;
// Presence is announced again this often (a job of app-jobs.ts).
const PRESENCE_EVERY_MS = 5_000;

/** SCHEMA_PRESENCE_RHYTHM is how often each node announces who is in its rooms. */
export const SCHEMA_PRESENCE_RHYTHM = { firstAfterMs: PRESENCE_EVERY_MS, everyMs: PRESENCE_EVERY_MS } as const;
// Updates merged in one transaction, at most.
const BATCH_MAX = 200;
// A room merges at most once per this many ms: updates that arrive meanwhile go into the next merge together, so a
// busy room sends each socket one layout for several updates (fewer frames, each a whole layout) for at most this
// much more latency. A lone update after a quiet moment is merged at once.
const MERGE_EVERY_MS = 10;

/** SchemaRooms is this node's rooms. */
export interface SchemaRooms {
  /** connect registers a socket of a signed-in account; the returned handlers feed it frames and its close. */
  connect(socket: RoomSocket, actor: Actor, name: string): { message(data: string): void; close(): void };
  /** beat announces this node's presence in its rooms again, and forgets the nodes that went silent. */
  beat(): void;
  /** close ends every socket and stops listening to the bus. */
  close(): void;
}

/** createSchemaRooms makes this node's rooms over the database and its bus. */
export function createSchemaRooms(db: Db, options: { onError?: (error: unknown) => void } = {}): SchemaRooms {
  const node = randomUUID();
  const rooms = new Map<string, Room>();
  const clients = new Set<RoomClient>();
  const report = options.onError ?? (() => {});

  // A message for many sockets is encoded once (a Buffer sent as a text frame), not once per socket.
  const send = (client: RoomClient, message: ServerMessage | string | Buffer) => {
    if (client.socket.readyState !== OPEN) return;
    const data = Buffer.isBuffer(message) || typeof message === 'string' ? message : JSON.stringify(message);
    client.socket.send(data, TEXT_FRAME);
  };
  const encoded = (message: object) => Buffer.from(JSON.stringify(message));
  const fail = (client: RoomClient, code: string, message: string, projectId?: string) =>
    send(client, { type: 'error', code, message, ...(projectId ? { projectId } : {}) });

  function roomOf(projectId: string): Room {
    let room = rooms.get(projectId);
    if (!room) {
      room = { projectId, clients: new Set(), queue: [], merging: false, mergedAt: 0, version: 0, remote: new Map() };
      rooms.set(projectId, room);
    }
    return room;
  }

  // ---- Presence

  function sendPresence(room: Room) {
    const message = encoded({ type: 'schema_presence', projectId: room.projectId, users: presenceOf(room) });
    for (const client of room.clients) send(client, message);
  }

  function announce(room: Room, ask = false) {
    db.bus.publish('schema.presence', { projectId: room.projectId, node, users: localUsers(room), ask });
  }

  // ---- Joining and leaving

  function leave(client: RoomClient) {
    const room = client.room;
    if (!room) return;
    client.room = null;
    room.clients.delete(client);
    announce(room);
    sendPresence(room);
    if (room.clients.size === 0 && room.queue.length === 0 && !room.merging) rooms.delete(room.projectId);
  }

  async function join(client: RoomClient, projectId: string) {
    let role: ProjectRole;
    try {
      role = (await memberProject(db, client.actor, projectId)).role;
    } catch (error) {
      if (error instanceof ApiError)
        return fail(client, 'not_a_member', 'You are not a member of this project', projectId);
      throw error;
    }
    if (client.socket.readyState !== OPEN) return;
    if (client.room?.projectId !== projectId) leave(client);
    const room = roomOf(projectId);
    const layout = (await readLayout(db, projectId)) ?? blankLayout();
    client.role = role;
    client.selection = [];
    client.room = room;
    room.clients.add(client);
    room.version = Math.max(room.version, layout.version);
    send(client, { type: 'schema_layout_init', projectId, layout, role, self: client.actor.accountId });
    announce(room, true);
    sendPresence(room);
  }

  // ---- Updates

  function enqueue(client: RoomClient, message: Extract<ClientMessage, { type: 'schema_layout_update' }>) {
    const room = client.room;
    if (!room || room.projectId !== message.projectId) {
      return fail(client, 'not_in_room', 'Join the project’s room before sending updates', message.projectId);
    }
    if (!roleCan(client.role, 'schema.write')) {
      return fail(
        client,
        'role_forbidden',
        `Your role in this project (${client.role}) does not allow you to change the schema layout.`,
        room.projectId,
      );
    }
    const { elements, version } = message.layout;
    room.queue.push({
      client,
      update: { actor: client.actor, elements, version, timestamp: message.timestamp ?? null },
    });
    void mergeQueued(room);
  }

  async function mergeQueued(room: Room) {
    if (room.merging) return;
    room.merging = true;
    try {
      while (room.queue.length > 0) {
        const wait = room.mergedAt + MERGE_EVERY_MS - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        room.mergedAt = performance.now();
        const batch = room.queue.splice(0, BATCH_MAX);
        let outcome: Awaited<ReturnType<typeof mergeLayoutUpdates>>;
        try {
          outcome = await mergeLayoutUpdates(
            db,
            room.projectId,
            batch.map((item) => item.update),
            { room: node },
          );
        } catch (error) {
          report(error);
          for (const { client } of batch) {
            fail(
              client,
              'save_failed',
              'Failed to save schema: Please try again later or check your connection.',
              room.projectId,
            );
          }
          continue;
        }
        deliverMerged(room, outcome.layout, batch, outcome.refused);
      }
    } finally {
      room.merging = false;
      if (room.clients.size === 0 && room.queue.length === 0) rooms.delete(room.projectId);
    }
  }

  function deliverMerged(
    room: Room,
    layout: StoredLayout,
    batch: Array<{ client: RoomClient; update: LayoutUpdate }>,
    refused: Map<number, ApiError>,
  ) {
    const accepted = batch.filter((_, index) => !refused.has(index));
    batch.forEach(({ client }, index) => {
      const refusal = refused.get(index);
      if (refusal) fail(client, refusal.code, refusal.message, room.projectId);
    });
    const updates = accepted.map(({ update }) => ({
      userId: update.actor.memberId ?? update.actor.accountId,
      timestamp: update.timestamp,
    }));
    const last = updates.at(-1);
    // Each accepted update is answered with the merged layout (one answer per update sent).
    const saved = encoded({
      type: 'schema_layout_saved',
      projectId: room.projectId,
      version: layout.version,
      timestamp: last?.timestamp ?? null,
      updates,
      layout,
    });
    const senders = new Set<RoomClient>();
    for (const { client } of accepted) {
      senders.add(client);
      send(client, saved);
    }
    if (layout.version <= room.version) return;
    room.version = layout.version;
    const broadcast = encoded({
      type: 'schema_layout_update',
      projectId: room.projectId,
      userId: last?.userId ?? '',
      timestamp: last?.timestamp ?? null,
      updates,
      layout,
    });
    for (const client of room.clients) if (!senders.has(client)) send(client, broadcast);
  }

  // A layout merged on another node: sent to this node's sockets in the room.
  async function onRemoteLayout(event: SchemaLayoutChanged) {
    const room = rooms.get(event.projectId);
    if (!room || room.clients.size === 0 || event.version <= room.version) return;
    const layout = event.layout ?? (await readLayout(db, event.projectId));
    if (!layout || layout.version <= room.version) return;
    if (event.layout) versionCacheOf(db).remember(event.projectId, layout);
    room.version = layout.version;
    const last = event.updates.at(-1);
    const message = encoded({
      type: 'schema_layout_update',
      projectId: room.projectId,
      userId: last?.userId ?? '',
      timestamp: last?.timestamp ?? null,
      updates: event.updates,
      layout,
    });
    for (const client of room.clients) send(client, message);
  }

  // A membership changed: re-check the role of the sockets concerned, and put out whoever lost access.
  async function onMembersChanged(projectId: string, accountId: string | null) {
    const room = rooms.get(projectId);
    if (!room) return;
    for (const client of [...room.clients]) {
      if (accountId !== null && client.actor.accountId !== accountId) continue;
      try {
        client.role = (await memberProject(db, client.actor, projectId)).role;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        fail(client, 'removed', 'You are no longer a member of this project', projectId);
        leave(client);
      }
    }
    sendPresence(room);
  }

  const unsubscribe = [
    db.bus.subscribe('schema.layout', (event) => {
      if (event.room !== node) onRemoteLayout(event).catch(report);
    }),
    db.bus.subscribe('schema.presence', (event) => {
      if (event.node === node) return;
      const room = rooms.get(event.projectId);
      if (!room || room.clients.size === 0) return;
      if (event.users.length === 0) room.remote.delete(event.node);
      else room.remote.set(event.node, { users: event.users, at: Date.now() });
      if (event.ask) announce(room);
      sendPresence(room);
    }),
    db.bus.subscribe('project.members', (event) => {
      onMembersChanged(event.projectId, event.accountId).catch(report);
    }),
    ...(['sessions.ended', 'account.deleted'] as const).map((topic) =>
      db.bus.subscribe(topic, (event) => {
        // The socket's session may be one of them: it reconnects, and signs in again if its session still lives.
        for (const client of clients)
          if (client.actor.accountId === event.accountId) client.socket.close(4401, 'Session ended');
      }),
    ),
  ];

  function handle(client: RoomClient, data: string) {
    const message = readClientMessage(data);
    if ('refusal' in message) return fail(client, message.refusal.code, message.refusal.message);
    switch (message.type) {
      case 'join_schema_room':
        join(client, message.projectId).catch((error) => {
          report(error);
          fail(client, 'join_failed', 'Failed to connect to the real-time collaboration server', message.projectId);
        });
        return;
      case 'leave_schema_room':
        if (client.room?.projectId === message.projectId) leave(client);
        return;
      case 'schema_layout_update':
        return enqueue(client, message);
      case 'schema_selection':
        if (client.room?.projectId !== message.projectId) return;
        client.selection = message.elementIds;
        announce(client.room);
        sendPresence(client.room);
        return;
    }
  }

  return {
    connect(socket, actor, name) {
      const client: RoomClient = { socket, actor, name, room: null, role: 'VIEWER', selection: [] };
      clients.add(client);
      return {
        message: (data) => {
          try {
            handle(client, data);
          } catch (error) {
            report(error);
            fail(client, 'internal_error', 'Something went wrong. Please try again.');
          }
        },
        close: () => {
          clients.delete(client);
          leave(client);
        },
      };
    },
    beat() {
      for (const room of rooms.values()) {
        if (room.clients.size > 0) announce(room);
        else if (room.remote.size > 0) presenceOf(room);
      }
    },
    close() {
      for (const stop of unsubscribe) stop();
      for (const client of clients) client.socket.close(1001, 'Server shutting down');
      clients.clear();
      rooms.clear();
    },
  };
}
