import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appClient,
  type Developer,
  type EndUserClient,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { closeClients, Inbox, subscribeOrThrow } from '../../testing/realtime.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Broadcast and presence through the unmodified supabase-js, in an app: `self` and `ack`, JSON and bytes, both
// protocol versions talking to each other, the HTTP sends (send() before subscribing, httpSend()), presence sync,
// join and leave (untrack, and a socket that goes away).

type Payload = Record<string, unknown>;

describe.each(testDialects)('realtime broadcast and presence with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let ann: EndUserClient;
  let ben: EndUserClient;
  let n = 0;
  const extra: SupabaseClient[] = [];

  beforeAll(async () => {
    server = await startAuthServer(dialect, { realtime: { ...startDefaults(), maxPayloadBytes: 4096 } });
    dev = await startDeveloper(server, users.alice);
    ann = await signUpEndUser(server, dev, 'ann@example.com');
    ben = await signUpEndUser(server, dev, 'ben@example.com');
  });
  afterAll(async () => {
    await closeClients(ann.client, ben.client, dev.client, ...extra);
    await server.close();
  });

  const listen = async (client: SupabaseClient, topic: string, config: Record<string, unknown> = {}) => {
    const inbox = new Inbox<Payload>();
    const channel = client.channel(topic, { config }).on('broadcast', { event: '*' }, (p) => inbox.push(p));
    await subscribeOrThrow(channel);
    return { channel, inbox };
  };

  it('reaches the others, and the sender only with self', async () => {
    const topic = `room-${++n}`;
    const quiet = await listen(ann.client, topic);
    const ben1 = await listen(ben.client, topic);
    expect(await quiet.channel.send({ type: 'broadcast', event: 'hi', payload: { n: 1 } })).toBe('ok');
    expect(await ben1.inbox.next()).toEqual({ type: 'broadcast', event: 'hi', payload: { n: 1 } });
    expect(await quiet.inbox.quiet()).toBe(true);

    const selfTopic = `room-${++n}`;
    const echo = await listen(ann.client, selfTopic, { broadcast: { self: true } });
    await echo.channel.send({ type: 'broadcast', event: 'me', payload: { n: 2 } });
    expect(await echo.inbox.next()).toMatchObject({ event: 'me', payload: { n: 2 } });
  });

  it('answers with ack: ok once the server took it, error when it refuses it', async () => {
    const topic = `acked-${++n}`;
    const sender = await listen(ann.client, topic, { broadcast: { ack: true } });
    const receiver = await listen(ben.client, topic);
    expect(await sender.channel.send({ type: 'broadcast', event: 'e', payload: { ok: true } })).toBe('ok');
    await receiver.inbox.next();
    const big = 'x'.repeat(5000);
    expect(await sender.channel.send({ type: 'broadcast', event: 'e', payload: { big } })).toBe('error');
    expect(await receiver.inbox.quiet()).toBe(true);
  });

  it('carries bytes between vsn 2.0.0 clients, and JSON between vsn 1.0.0 and 2.0.0 ones', async () => {
    const topic = `bytes-${++n}`;
    const sender = await listen(ann.client, topic);
    const receiver = await listen(ben.client, topic);
    const bytes = new Uint8Array([0, 1, 2, 250, 255]).buffer;
    await sender.channel.send({ type: 'broadcast', event: 'raw', payload: bytes });
    const heard = await receiver.inbox.next();
    expect(heard.event).toBe('raw');
    expect([...new Uint8Array(heard.payload as ArrayBuffer)]).toEqual([0, 1, 2, 250, 255]);

    const old = createClient(server.url, dev.app.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { vsn: '1.0.0' },
    });
    extra.push(old);
    const mixed = `mixed-${++n}`;
    const v1 = await listen(old, mixed);
    const v2 = await listen(ben.client, mixed);
    await v1.channel.send({ type: 'broadcast', event: 'from-v1', payload: { a: [1, 'é'] } });
    expect(await v2.inbox.next()).toEqual({ type: 'broadcast', event: 'from-v1', payload: { a: [1, 'é'] } });
    await v2.channel.send({ type: 'broadcast', event: 'from-v2', payload: { b: true } });
    expect(await v1.inbox.next()).toEqual({ type: 'broadcast', event: 'from-v2', payload: { b: true } });
  });

  it('sends over HTTP: send() before subscribing, httpSend(), and refuses a private room to a visitor', async () => {
    const topic = `http-${++n}`;
    const receiver = await listen(ben.client, topic);
    const visitor = appClient(server, dev.app.anonKey);
    extra.push(visitor);
    const notJoined = visitor.channel(topic);
    expect(await notJoined.send({ type: 'broadcast', event: 'rest', payload: { via: 'batch' } })).toBe('ok');
    expect(await receiver.inbox.next()).toEqual({ type: 'broadcast', event: 'rest', payload: { via: 'batch' } });
    expect(await notJoined.httpSend('single', { via: 'httpSend' })).toEqual({ success: true });
    expect(await receiver.inbox.next()).toMatchObject({ event: 'single', payload: { via: 'httpSend' } });

    const privateRoom = visitor.channel(`staff-${n}`, { config: { private: true } });
    await expect(privateRoom.httpSend('x', { a: 1 })).rejects.toThrow(/permissions to write/);
    await expect(notJoined.httpSend('big', { big: 'x'.repeat(5000) })).rejects.toThrow(/at most 4096 bytes/);
  });

  it('syncs presence: both see each other, a change, an untrack and a socket that goes away', async () => {
    const topic = `lobby-${++n}`;
    const annSync = new Inbox<string>();
    const annLeaves = new Inbox<Payload>();
    const annChannel = ann.client
      .channel(topic, { config: { presence: { key: 'ann' } } })
      .on('presence', { event: 'sync' }, () => annSync.push('sync'))
      .on('presence', { event: 'leave' }, (p) => annLeaves.push(p as Payload));
    await subscribeOrThrow(annChannel);
    expect(await annChannel.track({ status: 'online' })).toBe('ok');

    const visitor = appClient(server, dev.app.anonKey);
    const visitorChannel = visitor
      .channel(topic, { config: { presence: { key: 'visitor' } } })
      .on('presence', { event: 'sync' }, () => {});
    await subscribeOrThrow(visitorChannel);
    await visitorChannel.track({ status: 'browsing' });
    const both = async (channel: typeof annChannel) => {
      for (let i = 0; i < 100; i++) {
        const state = channel.presenceState();
        if (state.ann && state.visitor) return state;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`presence never showed both: ${JSON.stringify(channel.presenceState())}`);
    };
    expect((await both(annChannel)).visitor).toEqual([
      expect.objectContaining({ status: 'browsing', presence_ref: expect.any(String) }),
    ]);
    expect((await both(visitorChannel)).ann).toEqual([expect.objectContaining({ status: 'online' })]);

    await annChannel.track({ status: 'away' });
    for (let i = 0; i < 100 && visitorChannel.presenceState<{ status: string }>().ann?.[0]?.status !== 'away'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(visitorChannel.presenceState().ann).toEqual([expect.objectContaining({ status: 'away' })]);

    await visitorChannel.untrack();
    expect(await annLeaves.next((p) => p.key === 'visitor')).toMatchObject({ event: 'leave', key: 'visitor' });
    await visitorChannel.track({ status: 'back' });
    await both(annChannel);
    // The visitor's socket goes away: its presence leaves the room.
    await visitor.realtime.disconnect();
    expect(await annLeaves.next((p) => p.key === 'visitor')).toMatchObject({ key: 'visitor' });
    expect(annChannel.presenceState().visitor).toBeUndefined();
  });
});

function startDefaults() {
  return { maxSockets: 10_000, maxChannels: 100, maxMessagesPerSecond: 1000, maxPayloadBytes: 262_144 };
}
