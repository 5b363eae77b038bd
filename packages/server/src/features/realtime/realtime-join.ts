import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { can } from '../../lib/actor/actor-can.js';
import { actorOn } from '../project-access/project-access.js';
import { findTableById, findTableByName } from '../tables/tables.service.js';
import { callerOf, isSignedIn, tokenOf } from './realtime-auth.js';
import { roomKeyOf } from './realtime-events.js';
import { checkFilter, eqKeyOf, FilterError, parseFilter } from './realtime-filters.js';
import { encodeMessage, encodeReply, type Frame } from './realtime-frames.js';
import type { RealtimeHub } from './realtime-hub.js';
import type { Binding, ChangeEvent, Channel, Connection } from './realtime-types.js';

// phx_join on `realtime:<name>`: the join payload's config (broadcast ack/self, presence key/enabled,
// postgres_changes bindings, private) and access token decide the channel. Each binding names a table of the
// channel's account by name (schema `public`; no table: every table), or, for the console, `#<id>` (a table shared
// with the signed-in account through a project). The reply echoes each binding with its id; then a `system`
// message says the changes are subscribed, and presence_state follows when presence is on. Any refusal is the
// join's error reply `{reason: "Code: message"}` and leaves nothing behind.

const MAX_TOPIC_BYTES = 255;
const MAX_BINDINGS = 100;

const bindingSchema = z.looseObject({
  event: z.string().max(20),
  schema: z.string().max(63).optional(),
  table: z.string().max(80).optional(),
  filter: z.string().max(4096).optional(),
});

const joinSchema = z.looseObject({
  config: z
    .looseObject({
      broadcast: z.looseObject({ ack: z.boolean().optional(), self: z.boolean().optional() }).optional(),
      presence: z.looseObject({ key: z.string().max(255).optional(), enabled: z.boolean().optional() }).optional(),
      postgres_changes: z.array(bindingSchema.nullable()).max(MAX_BINDINGS).optional(),
      private: z.boolean().optional(),
    })
    .optional(),
  access_token: z.string().nullable().optional(),
});

type BindingSpec = z.infer<typeof bindingSchema>;

const EVENTS = new Set(['*', 'INSERT', 'UPDATE', 'DELETE']);
const TABLE_ID = /^#([1-9]\d{0,15})$/;

class BindingError extends Error {}

/** bindingIdOf gives a binding its id: the same for the same event, schema, table and filter (as Supabase does). */
export function bindingIdOf(spec: BindingSpec): number {
  const text = `${spec.event}\u0000${spec.schema ?? ''}\u0000${spec.table ?? ''}\u0000${spec.filter ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  // A positive 31-bit number, like the server's phash2 ids.
  return (hash >>> 1) + 1;
}

async function tableOf(
  hub: RealtimeHub,
  actor: Actor,
  name: string,
): Promise<{ table: TableDefinition; actor: Actor }> {
  const byId = TABLE_ID.exec(name);
  if (byId && !actor.app) {
    const tableId = Number(byId[1]);
    const member = await actorOn(hub.db, actor, { tableId });
    const table = await findTableById(hub.db, member, tableId);
    if (table && can(member, 'read', table)) return { table, actor: member };
  } else {
    const table = await findTableByName(hub.db, actor, name);
    if (table && can(actor, 'read', table)) return { table, actor };
  }
  throw new BindingError(`The table "${name}" does not exist`);
}

async function bindingOf(hub: RealtimeHub, actor: Actor, spec: BindingSpec): Promise<Binding> {
  const event = spec.event.toUpperCase();
  if (!EVENTS.has(event)) throw new BindingError(`Unknown event "${spec.event}": use *, INSERT, UPDATE or DELETE`);
  if (spec.schema !== undefined && spec.schema !== 'public') {
    throw new BindingError(`Tables are in the public schema, not "${spec.schema}"`);
  }
  const id = bindingIdOf(spec);
  if (!spec.table || spec.table === '*') {
    if (spec.filter) throw new BindingError('A filter needs a table');
    return { id, event: event as ChangeEvent, tableId: null, filter: null, eq: null, actor, follows: true };
  }
  const found = await tableOf(hub, actor, spec.table);
  let filter = null;
  if (spec.filter) {
    filter = parseFilter(spec.filter);
    checkFilter(filter, found.table);
  }
  return {
    id,
    event: event as ChangeEvent,
    tableId: found.table.id,
    filter,
    eq: filter === null ? null : eqKeyOf(filter, found.table),
    actor: found.actor,
    follows: found.actor === actor,
  };
}

// What the join reply echoes of a binding: what the client sent (it compares them), and the id.
const echoOf = (spec: BindingSpec, id: number) => ({
  id,
  event: spec.event,
  ...(spec.schema !== undefined ? { schema: spec.schema } : {}),
  ...(spec.table !== undefined ? { table: spec.table } : {}),
  ...(spec.filter !== undefined ? { filter: spec.filter } : {}),
});

/** joinChannel answers a phx_join of a connection. */
export async function joinChannel(hub: RealtimeHub, conn: Connection, frame: Frame): Promise<void> {
  const fail = (reason: string) => hub.send(conn, encodeReply(conn.vsn, frame, 'error', { reason }));
  const subTopic = frame.topic.slice('realtime:'.length);
  if (!subTopic) return fail('TopicNameRequired: You must provide a topic name');
  if (Buffer.byteLength(frame.topic) > MAX_TOPIC_BYTES) {
    return fail(`TopicTooLong: A topic has at most ${MAX_TOPIC_BYTES} bytes`);
  }
  const parsed = joinSchema.safeParse(frame.payload ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(`InvalidJoinPayload: ${issue?.path.join('.') || 'payload'}: ${issue?.message ?? 'invalid'}`);
  }
  const config = parsed.data.config ?? {};
  const existing = conn.channels.get(frame.topic);
  if (existing) {
    // Joined again (the client rejoins after an error): the old channel closes first.
    hub.send(conn, encodeMessage(conn.vsn, existing.joinRef, existing.joinRef, existing.topic, 'phx_close', {}));
    hub.remove(existing);
  }
  if (conn.channels.size >= hub.limits.maxChannels) return fail('ChannelRateLimitReached: Too many channels');
  const caller = await callerOf(hub.callers, conn.key, tokenOf(parsed.data), conn.ip);
  if ('refused' in caller) return fail(caller.refused);
  const isPrivate = config.private === true;
  if (isPrivate && !isSignedIn(caller.actor)) {
    return fail(`Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`);
  }
  const specs = (config.postgres_changes ?? []).filter((spec): spec is BindingSpec => spec !== null);
  const bindings: Binding[] = [];
  try {
    for (const spec of specs) bindings.push(await bindingOf(hub, caller.actor, spec));
  } catch (error) {
    if (error instanceof BindingError || error instanceof FilterError)
      return fail(`PostgresChangesError: ${error.message}`);
    throw error;
  }
  if (conn.closed || conn.channels.has(frame.topic)) return;
  const accountId = caller.actor.accountId;
  const channel: Channel = {
    id: hub.nextChannelId(),
    conn,
    topic: frame.topic,
    subTopic,
    joinRef: frame.joinRef ?? frame.ref,
    accountId,
    isPrivate,
    room: roomKeyOf(accountId, isPrivate, subTopic),
    self: config.broadcast?.self === true,
    ack: config.broadcast?.ack === true,
    actor: caller.actor,
    expiresAt: caller.expiresAt,
    presenceKey: config.presence?.key || randomUUID(),
    presenceEnabled: config.presence?.enabled === true,
    presenceRef: null,
    bindings,
    audience: null,
  };
  if (!hub.add(channel)) return fail('ConnectionRateLimitReached: Too many connected users');
  hub.send(
    conn,
    encodeReply(conn.vsn, frame, 'ok', { postgres_changes: specs.map((s, i) => echoOf(s, bindings[i]?.id ?? 0)) }),
  );
  if (bindings.length > 0) {
    const subscribed = {
      extension: 'postgres_changes',
      status: 'ok',
      message: 'Subscribed to PostgreSQL',
      channel: subTopic,
    };
    hub.send(conn, encodeMessage(conn.vsn, channel.joinRef, null, channel.topic, 'system', subscribed));
  }
  if (channel.presenceEnabled) {
    hub.send(
      conn,
      encodeMessage(conn.vsn, channel.joinRef, null, channel.topic, 'presence_state', hub.presenceState(channel.room)),
    );
  }
}

/** refreshToken applies an `access_token` message: the channel acts with the new token, or closes when it may not. */
export async function refreshToken(hub: RealtimeHub, channel: Channel, payload: unknown): Promise<void> {
  const token = tokenOf(payload);
  if (!token || token.startsWith('sb_')) return;
  const caller = await callerOf(hub.callers, channel.conn.key, token, channel.conn.ip);
  if (channel.conn.channels.get(channel.topic) !== channel) return;
  if ('refused' in caller) {
    hub.shutdown(channel, caller.refused.replace(/^[A-Za-z]+: /, ''));
    return;
  }
  if (caller.actor.accountId !== channel.accountId || (channel.isPrivate && !isSignedIn(caller.actor))) {
    hub.shutdown(channel, `You no longer have permission to read from this Channel topic: ${channel.subTopic}`);
    return;
  }
  channel.actor = caller.actor;
  for (const binding of channel.bindings) if (binding.follows) binding.actor = caller.actor;
  // Another user (or role) may hear other rows: the channel moves to the audience of its new actor.
  hub.rebind(channel);
  channel.expiresAt = caller.expiresAt;
  hub.watchExpiry(channel);
}
