import { describe, expect, it } from 'vitest';
import {
  inlineEnvelope,
  MAX_NOTIFY_BYTES,
  MAX_OUTBOX_ROW_BYTES,
  outboxEnvelopeHead,
  outboxRowPayload,
  packMessages,
  readEnvelope,
  readOutboxRow,
} from './notify-envelope.js';

const NODE = '0123456789abcdef';
const event = (n: number, text = '') => JSON.stringify({ topic: 'bus-test.ping', payload: { n, text } });
const bytes = (text: string) => Buffer.byteLength(text);

describe('packMessages', () => {
  it('puts small events in one notification', () => {
    const messages = [event(1), event(2), event(3)];
    expect(packMessages(NODE, messages)).toEqual([{ outbox: false, messages }]);
  });

  it('splits many events into notifications under the limit, keeping their order', () => {
    const messages = Array.from({ length: 2000 }, (_, n) => event(n, 'x'.repeat(n % 50)));
    const parts = packMessages(NODE, messages);
    expect(parts.every((p) => !p.outbox)).toBe(true);
    expect(parts.flatMap((p) => p.messages)).toEqual(messages);
    const sizes = parts.map((p) => bytes(inlineEnvelope(NODE, 2 ** 52, p.messages)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_NOTIFY_BYTES);
    // Packed tight: every notification but the last would pass the limit with the next event.
    expect(Math.min(...sizes.slice(0, -1))).toBeGreaterThan(MAX_NOTIFY_BYTES - 120);
  });

  it('counts bytes, not characters', () => {
    const wide = event(1, '€'.repeat(2000)); // 6,000 bytes of 2,000 characters
    const parts = packMessages(NODE, [wide, wide]);
    expect(parts.map((p) => [p.outbox, p.messages.length])).toEqual([
      [false, 1],
      [false, 1],
    ]);
    expect(packMessages(NODE, [event(1, '€'.repeat(2700))])[0]?.outbox).toBe(true);
  });

  it('sends a too large event through the outbox, with the large events that follow it, in order', () => {
    const large = (n: number) => event(n, 'y'.repeat(10_000));
    const parts = packMessages(NODE, [event(1), large(2), large(3), event(4), large(5)]);
    expect(parts.map((p) => [p.outbox, p.messages.map((m) => JSON.parse(m).payload.n)])).toEqual([
      [false, [1]],
      [true, [2, 3]],
      [false, [4]],
      [true, [5]],
    ]);
  });

  it('bounds an outbox row, though a single event larger than the bound still goes alone', () => {
    const quarter = event(0, 'z'.repeat(MAX_OUTBOX_ROW_BYTES / 4));
    const huge = event(9, 'z'.repeat(MAX_OUTBOX_ROW_BYTES * 2));
    const parts = packMessages(NODE, [quarter, quarter, quarter, quarter, huge, quarter]);
    expect(parts.map((p) => p.messages.length)).toEqual([3, 1, 1, 1]);
    expect(parts.every((p) => p.outbox)).toBe(true);
  });
});

describe('readEnvelope', () => {
  it('reads back inline and outbox notifications', () => {
    const inline = inlineEnvelope(NODE, 42, [event(1), event(2)]);
    expect(readEnvelope(inline)).toEqual({
      node: NODE,
      seq: 42,
      events: [
        { topic: 'bus-test.ping', payload: { n: 1, text: '' } },
        { topic: 'bus-test.ping', payload: { n: 2, text: '' } },
      ],
      outbox: null,
    });
    expect(readEnvelope(`${outboxEnvelopeHead(NODE, 7)}123}`)).toEqual({
      node: NODE,
      seq: 7,
      events: null,
      outbox: 123,
    });
    expect(readOutboxRow(outboxRowPayload([event(3)]))).toEqual([
      { topic: 'bus-test.ping', payload: { n: 3, text: '' } },
    ]);
  });

  it.each([
    ['not JSON', 'hello'],
    ['a number', '5'],
    ['no node', '{"seq":1,"events":[]}'],
    ['a fractional seq', '{"node":"a","seq":1.5,"events":[]}'],
    ['events without topics', '{"node":"a","seq":1,"events":[{"payload":1}]}'],
    ['neither events nor outbox', '{"node":"a","seq":1}'],
  ])('refuses %s', (_, text) => {
    expect(readEnvelope(text)).toBeNull();
  });

  it('refuses an outbox row that is not a list of events', () => {
    expect(readOutboxRow('{"topic":"x"}')).toBeNull();
    expect(readOutboxRow('[1]')).toBeNull();
    expect(readOutboxRow('[')).toBeNull();
  });
});
