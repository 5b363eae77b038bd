import { z } from 'zod';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { isSignedIn } from './realtime-auth.js';
import { roomKeyOf } from './realtime-events.js';
import { MAX_DEPTH, nestsTooDeep, type UserBroadcast } from './realtime-frames.js';
import type { RealtimeHub } from './realtime-hub.js';

// Broadcasts sent over HTTP, as supabase-js sends them: `send()` on a channel not subscribed yet posts a batch to
// /realtime/v1/api/broadcast, `httpSend()` posts one message (JSON or bytes) to .../broadcast/<topic>/events/<event>.
// Both reach the room's sockets on every node like a socket's broadcast, in the caller's account; a private room
// needs a signed-in caller. The whole request is refused (nothing sent) when any message is: invalid, too large,
// private without a user, or over the account's rate.

/** MAX_BATCH is the most messages one batch may carry. */
export const MAX_BATCH = 100;

const messageSchema = z.object({
  topic: z.string().min(1, 'topic is required').max(255, 'A topic has at most 255 characters'),
  event: z.string().min(1, 'event is required').max(255, 'An event name has at most 255 characters'),
  payload: z.unknown().optional(),
  private: z.boolean().optional(),
});

const batchSchema = z.object({
  messages: z
    .array(messageSchema)
    .min(1, 'messages must list at least one message')
    .max(MAX_BATCH, `A batch has at most ${MAX_BATCH} messages`),
});

/** RestBroadcast is one message of either endpoint. */
export interface RestBroadcast {
  topic: string;
  message: UserBroadcast;
  isPrivate: boolean;
  /** size is the payload's size in bytes. */
  size: number;
}

const unprocessable = (message: string) => new ApiError(422, 'unprocessable_entity', message);

/** parseBatch reads a batch body into its broadcasts (422 when it is not one). */
export function parseBatch(body: unknown): RestBroadcast[] {
  const parsed = batchSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw unprocessable(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data.messages.map((m) => {
    const json = m.payload ?? null;
    if (nestsTooDeep(json)) throw unprocessable(`A payload nests at most ${MAX_DEPTH} levels`);
    const text = JSON.stringify(json);
    return {
      topic: m.topic,
      message: { event: m.event, json },
      isPrivate: m.private === true,
      size: Buffer.byteLength(text),
    };
  });
}

/**
 * parseSingle reads httpSend's body: bytes for application/octet-stream, else JSON (a payload is required, as the
 * client requires one).
 */
export function parseSingle(
  params: { topic: string; event: string; private: boolean },
  body: Buffer,
  contentType: string | undefined,
): RestBroadcast {
  const { topic, event } = params;
  if (!topic || Buffer.byteLength(topic) > 255) throw unprocessable('A topic has 1 to 255 bytes');
  if (!event || Buffer.byteLength(event) > 255) throw unprocessable('An event name has 1 to 255 bytes');
  if (contentType?.toLowerCase().startsWith('application/octet-stream')) {
    return { topic, message: { event, bytes: new Uint8Array(body) }, isPrivate: params.private, size: body.length };
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw unprocessable('The body must be JSON, or bytes sent as application/octet-stream');
  }
  if (json === null) throw unprocessable('A payload is required');
  if (nestsTooDeep(json)) throw unprocessable(`A payload nests at most ${MAX_DEPTH} levels`);
  return { topic, message: { event, json }, isPrivate: params.private, size: body.length };
}

/** sendBroadcasts sends the broadcasts to their rooms in the actor's account, or refuses them all. */
export function sendBroadcasts(hub: RealtimeHub, actor: Actor, broadcasts: RestBroadcast[]): void {
  for (const broadcast of broadcasts) {
    if (broadcast.size > hub.limits.maxPayloadBytes) {
      throw new ApiError(413, 'payload_too_large', `A message has at most ${hub.limits.maxPayloadBytes} bytes`);
    }
    if (broadcast.isPrivate && !isSignedIn(actor)) {
      throw new ApiError(
        403,
        'forbidden',
        `You do not have permissions to write to this Channel topic: ${broadcast.topic}`,
      );
    }
  }
  for (let i = 0; i < broadcasts.length; i++) {
    if (!hub.admitMessage(actor.accountId)) {
      throw new ApiError(429, 'too_many_requests', 'You have exceeded your rate limit', {
        headers: { 'Retry-After': '1' },
      });
    }
  }
  for (const { topic, message, isPrivate } of broadcasts) {
    hub.broadcast(roomKeyOf(actor.accountId, isPrivate, topic), message, null);
  }
}
