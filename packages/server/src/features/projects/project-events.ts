import type { StoredLayout, UpdateTimestamp } from '@basalt/shared';

// The events projects publish on the bus (db/bus) after commit. Every node's Schema Editor rooms hear them:
// a layout that changed is sent to the room's editors on that node, a membership that changed closes the
// sockets of whoever lost access, and presence announcements tell each node who is in a room on the others.

/** SchemaLayoutChanged is a committed layout: its version, and the layout itself unless it is large. */
export interface SchemaLayoutChanged {
  projectId: string;
  version: number;
  /** The layout, or null when it is too large for a notification (the rooms read it from the database). */
  layout: StoredLayout | null;
  /** Who sent the updates merged into this version, with each update's own timestamp. */
  updates: Array<{ userId: string; timestamp: UpdateTimestamp | null }>;
  /** The rooms (a node's) that merged it and answer their own sockets; absent for an HTTP save. */
  room?: string;
}

/** ProjectMembersChanged says a project's membership changed: one account's (its role), or the whole project's. */
export interface ProjectMembersChanged {
  projectId: string;
  /** The member whose role changed or who left; null when the project itself was deleted. */
  accountId: string | null;
}

/** PresenceAnnounced is one node's list of who is in a room there (sent on changes and every few seconds). */
export interface PresenceAnnounced {
  projectId: string;
  node: string;
  users: Array<{ accountId: string; name: string; role: string; selection: string[] }>;
  /** Asks the other nodes to announce theirs too (a node that just got its first editor in the room). */
  ask: boolean;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'schema.layout': SchemaLayoutChanged;
    'project.members': ProjectMembersChanged;
    'schema.presence': PresenceAnnounced;
  }
}
