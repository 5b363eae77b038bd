// The wire format of /realtime/v1: Phoenix channel messages, as supabase-js (realtime-js over @supabase/phoenix)
// writes and reads them, in its two protocol versions (docs/realtime.md has the byte layouts):
// - vsn 1.0.0: every frame is a JSON object {join_ref, ref, topic, event, payload}.
// - vsn 2.0.0: text frames are JSON arrays [join_ref, ref, topic, event, payload]; binary frames start with a kind
//   byte: 0 a push, 3 a user broadcast the client sends (its event, encoding and payload in the frame), 4 a user
//   broadcast the server sends. Replies and every other server message go as text arrays.
// Decoding never throws: a frame that is not a message comes back as `{ malformed: reason }`.

/** Vsn is a protocol version supabase-js speaks. */
export type Vsn = '1.0.0' | '2.0.0';

/** UserBroadcast is what a client broadcasts: an event and a JSON payload, or bytes (vsn 2.0.0 only). */
export type UserBroadcast = { event: string; json: unknown } | { event: string; bytes: Uint8Array };

/** Frame is one message from a client. `payload` is a UserBroadcast for a binary broadcast frame. */
export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
  /** broadcast is set when the frame is a binary user broadcast (kind 3). */
  broadcast?: UserBroadcast;
}

/** Malformed is a frame that is not a message, and why. */
export interface Malformed {
  malformed: string;
}

const PUSH = 0;
const USER_BROADCAST_PUSH = 3;
const USER_BROADCAST = 4;
const BINARY_ENCODING = 0;
const JSON_ENCODING = 1;
// The longest field the binary layouts can carry: its length is one byte.
const MAX_FIELD_BYTES = 255;

/** MAX_DEPTH is the deepest a broadcast or presence payload may nest (deeper would cost recursion to encode). */
export const MAX_DEPTH = 64;

/** nestsTooDeep tells whether a JSON value nests deeper than MAX_DEPTH (checked level by level, no recursion). */
export function nestsTooDeep(value: unknown): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > MAX_DEPTH) return true;
    const next: unknown[] = [];
    for (const item of level) {
      if (typeof item === 'object' && item !== null) for (const child of Object.values(item)) next.push(child);
    }
    level = next;
  }
  return false;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const refOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;

/** decodeFrame reads one frame of a client speaking `vsn`. */
export function decodeFrame(data: Buffer, isBinary: boolean, vsn: Vsn): Frame | Malformed {
  if (isBinary) return vsn === '2.0.0' ? decodeBinary(data) : { malformed: 'binary frames need vsn 2.0.0' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    return { malformed: 'not JSON' };
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length < 5)
      return { malformed: 'expected [join_ref, ref, topic, event, payload]' };
    const [joinRef, ref, topic, event, payload] = parsed;
    return message(refOf(joinRef), refOf(ref), topic, event, payload);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { malformed: 'expected {topic, event, payload, ref}' };
  }
  const object = parsed as Record<string, unknown>;
  return message(refOf(object.join_ref), refOf(object.ref), object.topic, object.event, object.payload);
}

function message(joinRef: string | null, ref: string | null, topic: unknown, event: unknown, payload: unknown) {
  if (typeof topic !== 'string' || typeof event !== 'string') return { malformed: 'topic and event must be strings' };
  return { joinRef, ref, topic, event, payload };
}

function decodeBinary(data: Buffer): Frame | Malformed {
  const kind = data[0];
  try {
    if (kind === USER_BROADCAST_PUSH) return decodeUserBroadcastPush(data);
    if (kind === PUSH) return decodePush(data);
  } catch {
    return { malformed: 'binary frame fields are not UTF-8' };
  }
  return { malformed: `unknown binary frame kind ${kind ?? 'none'}` };
}

// [3, join_ref size, ref size, topic size, event size, metadata size, encoding, join_ref, ref, topic, event,
//  metadata, payload…]
function decodeUserBroadcastPush(data: Buffer): Frame | Malformed {
  const header = 7;
  if (data.length < header) return { malformed: 'binary broadcast frame is too short' };
  const sizes = [data[1], data[2], data[3], data[4], data[5]] as number[];
  const encoding = data[6];
  const fieldsEnd = header + sizes.reduce((a, b) => a + b, 0);
  if (fieldsEnd > data.length) return { malformed: 'binary broadcast frame is shorter than its fields' };
  const fields: string[] = [];
  let at = header;
  for (const size of sizes) {
    fields.push(utf8.decode(data.subarray(at, at + size)));
    at += size;
  }
  const [joinRef, ref, topic, event] = fields as [string, string, string, string];
  const body = data.subarray(fieldsEnd);
  let broadcast: UserBroadcast;
  if (encoding === JSON_ENCODING) {
    let json: unknown;
    try {
      json = JSON.parse(utf8.decode(body));
    } catch {
      return { malformed: 'binary broadcast payload is not JSON' };
    }
    broadcast = { event, json };
  } else if (encoding === BINARY_ENCODING) {
    broadcast = { event, bytes: new Uint8Array(body) };
  } else {
    return { malformed: `unknown payload encoding ${encoding}` };
  }
  return { joinRef: joinRef || null, ref: ref || null, topic, event: 'broadcast', payload: null, broadcast };
}

// [0, join_ref size, ref size, topic size, event size, join_ref, ref, topic, event, payload…]: a push whose payload
// is bytes. Realtime has no event that takes one; it is read so that it can be refused with its ref.
function decodePush(data: Buffer): Frame | Malformed {
  const header = 5;
  if (data.length < header) return { malformed: 'binary push frame is too short' };
  const sizes = [data[1], data[2], data[3], data[4]] as number[];
  if (header + sizes.reduce((a, b) => a + b, 0) > data.length) return { malformed: 'binary push frame is too short' };
  const fields: string[] = [];
  let at = header;
  for (const size of sizes) {
    fields.push(utf8.decode(data.subarray(at, at + size)));
    at += size;
  }
  const [joinRef, ref, topic, event] = fields as [string, string, string, string];
  return { joinRef: joinRef || null, ref: ref || null, topic, event, payload: { binary: true } };
}

/** encodeMessage writes a server message (a push or a reply's envelope) for a client speaking `vsn`. */
export function encodeMessage(
  vsn: Vsn,
  joinRef: string | null,
  ref: string | null,
  topic: string,
  event: string,
  payload: unknown,
): string {
  return encodeRawMessage(vsn, joinRef, ref, topic, event, JSON.stringify(payload));
}

/** encodeRawMessage is encodeMessage with a payload already written as JSON (shared by many sockets). */
export function encodeRawMessage(
  vsn: Vsn,
  joinRef: string | null,
  ref: string | null,
  topic: string,
  event: string,
  payloadJson: string,
): string {
  const j = JSON.stringify;
  if (vsn === '2.0.0') return `[${j(joinRef)},${j(ref)},${j(topic)},${j(event)},${payloadJson}]`;
  return `{"join_ref":${j(joinRef)},"ref":${j(ref)},"topic":${j(topic)},"event":${j(event)},"payload":${payloadJson}}`;
}

/** encodeReply writes the phx_reply to a client's message. */
export function encodeReply(
  vsn: Vsn,
  frame: Pick<Frame, 'joinRef' | 'ref' | 'topic'>,
  status: 'ok' | 'error',
  response: unknown,
): string {
  return encodeMessage(vsn, frame.joinRef, frame.ref, frame.topic, 'phx_reply', { status, response });
}

/**
 * encodeBroadcast writes a user broadcast for a client speaking `vsn`: vsn 2.0.0 gets the binary form (kind 4) the
 * client decodes into {type, event, payload}, vsn 1.0.0 a JSON message. Null when the client cannot take it: bytes
 * for vsn 1.0.0.
 */
export function encodeBroadcast(vsn: Vsn, topic: string, broadcast: UserBroadcast): string | Buffer | null {
  const bytes = 'bytes' in broadcast;
  if (vsn === '1.0.0') {
    if (bytes) return null;
    return encodeMessage(vsn, null, null, topic, 'broadcast', {
      type: 'broadcast',
      event: broadcast.event,
      payload: broadcast.json,
    });
  }
  const topicBytes = Buffer.from(topic, 'utf8');
  const eventBytes = Buffer.from(broadcast.event, 'utf8');
  if (topicBytes.length > MAX_FIELD_BYTES || eventBytes.length > MAX_FIELD_BYTES) {
    // Too long for the binary layout: JSON payloads still reach the client as a text message.
    if (bytes) return null;
    return encodeMessage(vsn, null, null, topic, 'broadcast', {
      type: 'broadcast',
      event: broadcast.event,
      payload: broadcast.json,
    });
  }
  const body = bytes ? broadcast.bytes : Buffer.from(JSON.stringify(broadcast.json), 'utf8');
  const header = Buffer.from([
    USER_BROADCAST,
    topicBytes.length,
    eventBytes.length,
    0,
    bytes ? BINARY_ENCODING : JSON_ENCODING,
  ]);
  return Buffer.concat([header, topicBytes, eventBytes, body]);
}

/** encodeUserBroadcastPush writes what a vsn 2.0.0 client sends for a broadcast (tests and the benchmark). */
export function encodeUserBroadcastPush(
  frame: { joinRef: string; ref: string; topic: string },
  broadcast: UserBroadcast,
): Buffer {
  const fields = [frame.joinRef, frame.ref, frame.topic, broadcast.event, ''].map((f) => Buffer.from(f, 'utf8'));
  const bytes = 'bytes' in broadcast;
  const body = bytes ? broadcast.bytes : Buffer.from(JSON.stringify(broadcast.json), 'utf8');
  const header = Buffer.from([USER_BROADCAST_PUSH, ...fields.map((f) => f.length), bytes ? 0 : 1]);
  return Buffer.concat([header, ...fields, body]);
}
