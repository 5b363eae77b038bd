import type { BusMessage } from './event-bus.js';

// What one NOTIFY carries between nodes, as JSON text:
//   {"node":"<sender>","seq":<n>,"events":[<BusMessage>, …]}   events inline
//   {"node":"<sender>","seq":<n>,"outbox":<id>}                 events in the row `id` of event_outbox
// `seq` counts a sender's notifications from 1. It makes every payload unique (PostgreSQL folds identical
// payloads sent in one transaction into one), lets a receiver drop a notification that a retried send
// repeats, and shows it a gap when a sender had to drop events.

/**
 * MAX_NOTIFY_BYTES is the largest payload sent inline: PostgreSQL refuses one of 8000 bytes or more, and a
 * little room is left for the server's own encoding of it.
 */
export const MAX_NOTIFY_BYTES = 7900;

/** MAX_OUTBOX_ROW_BYTES bounds the events gathered in one outbox row (a larger single event has a row alone). */
export const MAX_OUTBOX_ROW_BYTES = 1024 * 1024;

// The longest `seq` written: 16 digits covers every integer JSON can carry exactly.
const SEQ_DIGITS = 16;

/** NotifyPart is a run of consecutive events that travels as one notification, inline or through the outbox. */
export interface NotifyPart {
  outbox: boolean;
  /** The events' JSON texts, in publish order. */
  messages: string[];
}

/** Envelope is a notification read back: who sent it, its number, and its events or the outbox row holding them. */
export interface Envelope {
  node: string;
  seq: number;
  events: BusMessage[] | null;
  outbox: number | null;
}

/** envelopePrefix is how every notification of a node begins, so that the node knows its own at a glance. */
export function envelopePrefix(nodeId: string): string {
  return `{"node":${JSON.stringify(nodeId)},"seq":`;
}

/** inlineEnvelope writes the notification that carries events themselves. */
export function inlineEnvelope(nodeId: string, seq: number, messages: string[]): string {
  return `${envelopePrefix(nodeId)}${seq},"events":[${messages.join(',')}]}`;
}

/** outboxEnvelopeHead is an outbox notification up to its row id; the id and a closing `}` follow. */
export function outboxEnvelopeHead(nodeId: string, seq: number): string {
  return `${envelopePrefix(nodeId)}${seq},"outbox":`;
}

/** outboxRowPayload is what an outbox row stores: the events as one JSON array. */
export function outboxRowPayload(messages: string[]): string {
  return `[${messages.join(',')}]`;
}

/**
 * packMessages splits a node's queued events into as few notifications as fit, in order: consecutive events
 * share an inline notification while it stays under maxBytes (envelope included), and an event too large for
 * any notification goes to the outbox, in one row with the large events that follow it.
 */
export function packMessages(nodeId: string, messages: string[], maxBytes = MAX_NOTIFY_BYTES): NotifyPart[] {
  const overhead = Buffer.byteLength(inlineEnvelope(nodeId, 10 ** (SEQ_DIGITS - 1), []));
  const room = maxBytes - overhead;
  const parts: NotifyPart[] = [];
  let current: NotifyPart | null = null;
  let currentBytes = 0;
  for (const message of messages) {
    const bytes = Buffer.byteLength(message);
    const outbox = bytes > room;
    // A comma separates it from the events before it in the same part.
    const added = current && current.messages.length > 0 ? bytes + 1 : bytes;
    const limit = outbox ? MAX_OUTBOX_ROW_BYTES : room;
    if (current === null || current.outbox !== outbox || currentBytes + added > limit) {
      current = { outbox, messages: [message] };
      currentBytes = bytes;
      parts.push(current);
    } else {
      current.messages.push(message);
      currentBytes += added;
    }
  }
  return parts;
}

/** readEnvelope parses a notification, or returns null when it is not one of Basalt's. */
export function readEnvelope(text: string): Envelope | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { node, seq, events, outbox } = value as Record<string, unknown>;
  if (typeof node !== 'string' || !Number.isSafeInteger(seq)) return null;
  if (Array.isArray(events) && events.every(isBusMessage)) {
    return { node, seq: seq as number, events, outbox: null };
  }
  if (Number.isSafeInteger(outbox)) return { node, seq: seq as number, events: null, outbox: outbox as number };
  return null;
}

/** readOutboxRow parses an outbox row's events, or returns null when the row is not an array of events. */
export function readOutboxRow(text: string): BusMessage[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every(isBusMessage) ? value : null;
  } catch {
    return null;
  }
}

function isBusMessage(value: unknown): value is BusMessage {
  return typeof value === 'object' && value !== null && typeof (value as BusMessage).topic === 'string';
}
