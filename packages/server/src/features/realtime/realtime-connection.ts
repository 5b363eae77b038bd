import {
  decodeFrame,
  encodeMessage,
  encodeReply,
  type Frame,
  MAX_DEPTH,
  nestsTooDeep,
  type UserBroadcast,
} from './realtime-frames.js';
import type { RealtimeHub } from './realtime-hub.js';
import { joinChannel, refreshToken } from './realtime-join.js';
import type { Channel, Connection } from './realtime-types.js';

// One socket's frames, in order: heartbeats on `phoenix`, phx_join and phx_leave, and on a joined channel
// `broadcast`, `presence` (track, untrack) and `access_token`. A frame that waits (a join, a token to verify) holds
// the ones after it until it is done. Whatever a client sends gets a reply or is ignored as Supabase ignores it;
// nothing it sends can throw out of here: a malformed frame gets an error reply on `phoenix`, a message to a topic
// it has not joined "unmatched topic", and a message over the limits its error.

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** ConnectionHandlers feed a socket's frames to realtime. */
export interface ConnectionHandlers {
  message(data: Buffer, isBinary: boolean): void;
}

/** serveConnection handles the frames of one registered connection. */
export function serveConnection(
  hub: RealtimeHub,
  conn: Connection,
  report: (error: unknown) => void,
): ConnectionHandlers {
  const reply = (frame: Frame, status: 'ok' | 'error', response: unknown) => {
    if (frame.ref !== null) hub.send(conn, encodeReply(conn.vsn, frame, status, response));
  };
  const refuse = (frame: Frame, reason: string) => reply(frame, 'error', { reason });

  // A message a channel's account sends counts against its rate; false (and refused) when over it or too large.
  function admitted(channel: Channel, frame: Frame, size: number): boolean {
    if (!hub.admitMessage(channel.accountId)) {
      refuse(frame, 'ClientRateLimitReached: Too many messages per second');
      return false;
    }
    if (size > hub.limits.maxPayloadBytes) {
      refuse(frame, `PayloadTooLarge: A message has at most ${hub.limits.maxPayloadBytes} bytes`);
      return false;
    }
    return true;
  }

  function broadcast(channel: Channel, frame: Frame, size: number) {
    if (!admitted(channel, frame, size)) return;
    let message: UserBroadcast;
    if (frame.broadcast) {
      message = frame.broadcast;
    } else {
      const payload = frame.payload;
      if (!isPlainObject(payload) || typeof payload.event !== 'string') {
        return refuse(frame, 'InvalidBroadcast: A broadcast needs {type, event, payload}');
      }
      message = { event: payload.event, json: payload.payload ?? null };
    }
    if (message.event.length === 0 || Buffer.byteLength(message.event) > 255) {
      return refuse(frame, 'InvalidBroadcast: An event name has 1 to 255 bytes');
    }
    if ('json' in message && nestsTooDeep(message.json)) {
      return refuse(frame, `InvalidBroadcast: A payload nests at most ${MAX_DEPTH} levels`);
    }
    hub.broadcast(channel.room, message, channel);
    if (channel.ack) reply(frame, 'ok', {});
  }

  function presence(channel: Channel, frame: Frame, size: number) {
    if (!admitted(channel, frame, size)) return;
    const payload = isPlainObject(frame.payload) ? frame.payload : {};
    const event = typeof payload.event === 'string' ? payload.event.toLowerCase() : '';
    if (event === 'untrack') {
      hub.untrack(channel);
      return reply(frame, 'ok', {});
    }
    if (event !== 'track') return refuse(frame, `UnknownPresenceEvent: ${String(payload.event ?? '')}`);
    const meta = payload.payload ?? {};
    if (!isPlainObject(meta)) return refuse(frame, 'Presence track payload must be a map');
    if (nestsTooDeep(meta)) return refuse(frame, `InvalidPresence: A payload nests at most ${MAX_DEPTH} levels`);
    const wasEnabled = channel.presenceEnabled;
    hub.track(channel, meta);
    channel.presenceEnabled = true;
    reply(frame, 'ok', {});
    // Tracking turns presence on for a channel that joined without it: it gets the room's state now.
    if (!wasEnabled) {
      const state = hub.presenceState(channel.room);
      hub.send(conn, encodeMessage(conn.vsn, channel.joinRef, null, channel.topic, 'presence_state', state));
    }
  }

  function handle(frame: Frame, size: number): void | Promise<void> {
    if (frame.topic === 'phoenix') {
      if (frame.event === 'heartbeat') return reply(frame, 'ok', {});
      return refuse(frame, 'unmatched topic');
    }
    if (frame.event === 'phx_join') {
      if (!frame.topic.startsWith('realtime:')) return refuse(frame, 'unmatched topic');
      return joinChannel(hub, conn, frame).catch((error: unknown) => {
        report(error);
        refuse(frame, 'UnknownErrorOnChannel: Unknown Error on Channel');
      });
    }
    const channel = conn.channels.get(frame.topic);
    if (!channel) return refuse(frame, 'unmatched topic');
    switch (frame.event) {
      case 'phx_leave':
        hub.remove(channel);
        return reply(frame, 'ok', {});
      case 'access_token':
        return refreshToken(hub, channel, frame.payload);
      case 'broadcast':
        return broadcast(channel, frame, size);
      case 'presence':
        return presence(channel, frame, size);
      default:
        // Supabase ignores other events; they still count against the rate.
        hub.admitMessage(channel.accountId);
    }
  }

  // Runs a frame; a failure is reported, and the socket goes on. Returns what to wait for, if anything.
  function run(frame: Frame, size: number): Promise<void> | undefined {
    try {
      const result = handle(frame, size);
      return result instanceof Promise ? result.catch(report) : undefined;
    } catch (error) {
      report(error);
      return undefined;
    }
  }

  // Frames after one that waits run once it is done, in order.
  function wait(promise: Promise<void>) {
    const waiting: Promise<void> = promise.then(() => {
      if (conn.pending === waiting) conn.pending = null;
    });
    conn.pending = waiting;
  }

  return {
    message(data, isBinary) {
      conn.lastSeenAt = Date.now();
      const frame = decodeFrame(data, isBinary, conn.vsn);
      if ('malformed' in frame) {
        hub.send(
          conn,
          encodeMessage(conn.vsn, null, null, 'phoenix', 'phx_reply', {
            status: 'error',
            response: { reason: `MalformedMessage: ${frame.malformed}` },
          }),
        );
        return;
      }
      const size = data.length;
      if (conn.pending) {
        wait(conn.pending.then(() => run(frame, size)));
        return;
      }
      const result = run(frame, size);
      if (result) wait(result);
    },
  };
}
