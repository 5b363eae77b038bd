import { describe, expect, it } from 'vitest';
import { createOutbox } from './realtime-outbox.js';
import type { Audience, Channel, Connection } from './realtime-types.js';

// The outbox writes an audience's frames as one buffer per socket, and keeps each socket's frames in the order
// they were sent, whichever list they waited in: a join's reply before the changes after it, nothing sent before a
// channel joined, nothing after it left, and frames that waited in an audience the channel moved out of.

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

function setup() {
  const written = new Map<Connection, string[]>();
  const outbox = createOutbox((conn, frames) => {
    const list = written.get(conn) ?? [];
    list.push(Buffer.concat(frames).toString());
    written.set(conn, list);
  });
  const audience = (): Audience => ({
    key: 'a',
    vsn: '2.0.0',
    topic: 'realtime:t',
    bindings: [],
    channels: new Map(),
    pending: [],
  });
  const channel = (topic = 'realtime:t'): Channel => {
    const conn = { channels: new Map(), closed: false } as unknown as Connection;
    const ch = { conn, topic, audience: null } as unknown as Channel;
    conn.channels.set(topic, ch);
    return ch;
  };
  const enter = (ch: Channel, to: Audience) => {
    to.channels.set(ch, outbox.seq);
    ch.audience = to;
  };
  return { written, outbox, audience, channel, enter };
}

describe('realtime outbox', () => {
  it('sends an audience one buffer per socket, in order with each socket’s own frames', async () => {
    const { written, outbox, audience, channel, enter } = setup();
    const a = audience();
    const first = channel();
    enter(first, a);
    outbox.toAudience(a, Buffer.from('c1;'));
    // A second socket joins now: its reply first, then only what is sent after.
    const second = channel();
    outbox.toSocket(second.conn, Buffer.from('reply;'));
    enter(second, a);
    outbox.toAudience(a, Buffer.from('c2;'));
    outbox.toSocket(first.conn, Buffer.from('pong;'));
    outbox.toAudience(a, Buffer.from('c3;'));
    await settle();
    expect(written.get(first.conn)?.join('')).toBe('c1;c2;pong;c3;');
    expect(written.get(second.conn)?.join('')).toBe('reply;c2;c3;');
  });

  it('writes a plain subscriber’s frames of one turn in one write', async () => {
    const { written, outbox, audience, channel, enter } = setup();
    const a = audience();
    const only = channel();
    enter(only, a);
    for (let i = 0; i < 5; i++) outbox.toAudience(a, Buffer.from(`c${i};`));
    await settle();
    expect(written.get(only.conn)).toEqual(['c0;c1;c2;c3;c4;']);
  });

  it('sends nothing more to a channel that left, and keeps what waited for one that moved', async () => {
    const { written, outbox, audience, channel, enter } = setup();
    const a = audience();
    const b = audience();
    const gone = channel();
    const moving = channel();
    enter(gone, a);
    enter(moving, a);
    outbox.toAudience(a, Buffer.from('c1;'));
    gone.conn.channels.delete(gone.topic);
    a.channels.delete(gone);
    // Another token: the channel moves to another audience, what waited for it in the first is still its own.
    const since = a.channels.get(moving) ?? 0;
    a.channels.delete(moving);
    enter(moving, b);
    outbox.keep(moving, a, since);
    outbox.toAudience(b, Buffer.from('c2;'));
    await settle();
    expect(written.get(gone.conn)).toBeUndefined();
    expect(written.get(moving.conn)?.join('')).toBe('c1;c2;');
  });
});
