import { initialsOf, type PresenceUser, type ProjectRole, presenceColorOf, projectRoleSchema } from '@basalt/shared';
import type { Actor } from '../../lib/actor/actor.js';
import type { PresenceAnnounced } from './project-events.js';
import type { LayoutUpdate } from './schema-layouts.service.js';

// A Schema Editor room's state on one node, and who is in it: this node's sockets and what the other nodes last
// announced of theirs. A node silent for PRESENCE_EXPIRY_MS is forgotten.

const PRESENCE_EXPIRY_MS = 15_000;

/** RoomSocket is what the rooms need of a WebSocket. */
export interface RoomSocket {
  send(data: string | Buffer, options: { binary: boolean }): void;
  close(code?: number, reason?: string): void;
  readonly readyState: number;
}

/** RoomClient is one connected editor: its socket, account, name, and the room it is in. */
export interface RoomClient {
  socket: RoomSocket;
  actor: Actor;
  name: string;
  room: Room | null;
  role: ProjectRole;
  selection: string[];
}

/** Room is one project's room on this node: its sockets, the updates waiting for a merge, other nodes' users. */
export interface Room {
  projectId: string;
  clients: Set<RoomClient>;
  queue: Array<{ client: RoomClient; update: LayoutUpdate }>;
  merging: boolean;
  /** When the room's last merge began (performance.now()). */
  mergedAt: number;
  /** The newest version sent to this room's sockets. */
  version: number;
  remote: Map<string, { users: PresenceAnnounced['users']; at: number }>;
}

/** localUsers are the room's users on this node, as announced to the others. */
export const localUsers = (room: Room): PresenceAnnounced['users'] =>
  [...room.clients].map((c) => ({
    accountId: c.actor.accountId,
    name: c.name,
    role: c.role,
    selection: c.selection,
  }));

/** presenceOf is everyone in the room on every node, one entry per account (its selections joined). */
export function presenceOf(room: Room): PresenceUser[] {
  const byAccount = new Map<string, PresenceUser>();
  const now = Date.now();
  const all = [...localUsers(room)];
  for (const [other, entry] of room.remote) {
    if (now - entry.at > PRESENCE_EXPIRY_MS) room.remote.delete(other);
    else all.push(...entry.users);
  }
  for (const user of all) {
    const role = projectRoleSchema.safeParse(user.role);
    const known = byAccount.get(user.accountId);
    byAccount.set(user.accountId, {
      accountId: user.accountId,
      name: user.name,
      initials: initialsOf(user.name),
      color: presenceColorOf(user.accountId),
      role: role.success ? role.data : 'VIEWER',
      selection: [...new Set([...(known?.selection ?? []), ...user.selection])],
    });
  }
  return [...byAccount.values()].sort((a, b) => a.name.localeCompare(b.name));
}
