import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Developer, startDeveloper } from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { openPhoenix, type PhoenixSocket, replyTo } from '../../testing/realtime.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { encodeUserBroadcastPush } from './realtime-frames.js';

// The wire itself, with a raw socket: what supabase-js never sends gets an error reply and the socket goes on
// (malformed frames, unknown topics, bad join payloads, oversize and deep payloads, binary garbage), the upgrade
// wants a key, the limits answer with the protocol's errors, and the HTTP broadcasts refuse bad input with
// `{message}` and 4xx. After all of it the server still serves a normal join.

const LIMITS = { maxSockets: 2, maxChannels: 3, maxMessagesPerSecond: 5, maxPayloadBytes: 2048 };

describe.each(testDialects)('realtime protocol and bad input on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let ref = 0;
  const open: PhoenixSocket[] = [];

  beforeAll(async () => {
    server = await startAuthServer(dialect, { realtime: LIMITS });
    dev = await startDeveloper(server, users.alice);
  });
  afterAll(async () => {
    await Promise.all(open.map((socket) => socket.close()));
    await server.close();
  });

  const connect = async (vsn = '2.0.0', key = dev.app.anonKey) => {
    const socket = await openPhoenix(server.url, `apikey=${encodeURIComponent(key)}&vsn=${vsn}`);
    open.push(socket);
    return socket;
  };
  /** ask sends a vsn 2.0.0 message and waits for its reply's payload. */
  const ask = async (socket: PhoenixSocket, topic: string, event: string, payload: unknown, joinRef?: string) => {
    const r = String(++ref);
    socket.send([joinRef ?? r, r, topic, event, payload]);
    const reply = (await socket.inbox.next(replyTo(r))) as unknown[];
    return reply[4] as { status: string; response: Record<string, unknown> };
  };

  it('refuses an upgrade without a key, with a wrong key or an unknown vsn, and a plain GET', async () => {
    await expect(openPhoenix(server.url, 'vsn=2.0.0')).rejects.toThrow('upgrade refused: 401');
    await expect(openPhoenix(server.url, 'apikey=nope&vsn=2.0.0')).rejects.toThrow('upgrade refused: 401');
    await expect(openPhoenix(server.url, `apikey=${dev.app.anonKey}&vsn=3.0.0`)).rejects.toThrow(
      'upgrade refused: 400',
    );
    const noKey = await server.request('GET', '/realtime/v1/websocket');
    expect(noKey).toMatchObject({ status: 401, body: { message: 'No API key found in request' } });
    const plain = await server.request('GET', `/realtime/v1/websocket?apikey=${dev.app.anonKey}`);
    expect(plain).toMatchObject({ status: 426, body: { message: expect.stringMatching(/WebSocket/) } });
    const unknown = await server.request('GET', '/realtime/v1/nothing');
    expect(unknown).toMatchObject({ status: 404, body: { message: expect.any(String) } });
  });

  it('answers heartbeats and refuses what is not a message, on both versions', async () => {
    const socket = await connect();
    expect(await ask(socket, 'phoenix', 'heartbeat', {})).toEqual({ status: 'ok', response: {} });
    const garbage: Array<string | Buffer> = [
      'not json',
      '{"an":"object"}',
      '[1,2]',
      '[null,"1",42,"phx_join",{}]',
      Buffer.from([9, 1, 2, 3]),
      Buffer.from([3, 200, 0, 0, 0, 0, 1]),
      Buffer.from([3, 0, 0, 1, 1, 0, 1, 0xff, 0xfe]),
      encodeUserBroadcastPush({ joinRef: '1', ref: '1', topic: 'realtime:x' }, { event: 'e', json: 1 }).subarray(0, 12),
    ];
    for (const frame of garbage) {
      socket.send(frame);
      const reply = (await socket.inbox.next((f) => Array.isArray(f) && f[2] === 'phoenix')) as unknown[];
      expect(reply[4]).toMatchObject({
        status: 'error',
        response: { reason: expect.stringMatching(/^MalformedMessage: /) },
      });
    }
    const old = await connect('1.0.0');
    old.send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '7' });
    expect(await old.inbox.next()).toEqual({
      join_ref: null,
      ref: '7',
      topic: 'phoenix',
      event: 'phx_reply',
      payload: { status: 'ok', response: {} },
    });
    old.send(['an', 'array']);
    expect(await old.inbox.next()).toMatchObject({ topic: 'phoenix', payload: { status: 'error' } });
    old.send(Buffer.from([3, 0, 0]));
    expect(await old.inbox.next()).toMatchObject({
      payload: { response: { reason: 'MalformedMessage: binary frames need vsn 2.0.0' } },
    });
  });

  it.each([
    ['a topic outside realtime:', 'room:1', {}, 'unmatched topic'],
    ['an empty topic', 'realtime:', {}, /^TopicNameRequired/],
    ['a topic over 255 bytes', `realtime:${'é'.repeat(200)}`, {}, /^TopicTooLong/],
    [
      'a config of the wrong shape',
      'realtime:a',
      { config: { private: 'yes' } },
      /^InvalidJoinPayload: config.private/,
    ],
    ['bindings that are not a list', 'realtime:a', { config: { postgres_changes: {} } }, /^InvalidJoinPayload/],
    ['a payload that is not an object', 'realtime:a', 'hello', /^InvalidJoinPayload/],
    [
      'an unknown event',
      'realtime:a',
      { config: { postgres_changes: [{ event: 'TRUNCATE', table: 'x' }] } },
      /Unknown event/,
    ],
    ['a garbage token', 'realtime:a', { access_token: 'not.a.jwt' }, /^Unauthorized/],
  ])('refuses a join with %s', async (_name, topic, payload, reason) => {
    const socket = await connect();
    const reply = await ask(socket, topic, 'phx_join', payload);
    expect(reply.status).toBe('error');
    expect(reply.response.reason).toMatch(reason);
    // The socket goes on.
    expect(await ask(socket, 'phoenix', 'heartbeat', {})).toMatchObject({ status: 'ok' });
  });

  it('refuses messages to a topic it did not join, too large, too deep, or without an event', async () => {
    const socket = await connect();
    expect((await ask(socket, 'realtime:never', 'broadcast', { type: 'broadcast', event: 'e' })).response).toEqual({
      reason: 'unmatched topic',
    });
    const joined = await ask(socket, 'realtime:limits', 'phx_join', { config: { broadcast: { ack: true } } });
    expect(joined.status).toBe('ok');
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'broadcast', event: 'e', payload: { big: 'x'.repeat(3000) } }, /^PayloadTooLarge/],
      [
        { type: 'broadcast', event: 'e', payload: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) },
        /nests at most 64/,
      ],
      [{ type: 'broadcast', payload: {} }, /^InvalidBroadcast/],
      [{ type: 'broadcast', event: '', payload: {} }, /^InvalidBroadcast/],
    ];
    for (const [payload, reason] of cases) {
      const reply = await ask(socket, 'realtime:limits', 'broadcast', payload);
      expect(reply).toMatchObject({ status: 'error', response: { reason: expect.stringMatching(reason) } });
      await new Promise((resolve) => setTimeout(resolve, 250)); // stay under 5 messages a second
    }
    const presence = await ask(socket, 'realtime:limits', 'presence', {
      type: 'presence',
      event: 'track',
      payload: 'me',
    });
    expect(presence.response.reason).toBe('Presence track payload must be a map');
    // A frame past the socket's own limit (2 MiB) ends that socket, and only it.
    socket.send(JSON.stringify([null, null, 'realtime:limits', 'broadcast', { x: 'y'.repeat(2.1 * 1024 * 1024) }]));
    await new Promise<void>((resolve) => socket.ws.once('close', () => resolve()));
    const next = await connect();
    expect(await ask(next, 'phoenix', 'heartbeat', {})).toMatchObject({ status: 'ok' });
  });

  it('limits channels per socket, sockets per account and messages per second with error replies', async () => {
    const first = await connect();
    for (const topic of ['realtime:c1', 'realtime:c2', 'realtime:c3']) {
      expect((await ask(first, topic, 'phx_join', {})).status).toBe('ok');
    }
    expect((await ask(first, 'realtime:c4', 'phx_join', {})).response.reason).toMatch(/^ChannelRateLimitReached/);

    const second = await connect();
    expect((await ask(second, 'realtime:c1', 'phx_join', {})).status).toBe('ok');
    const third = await connect();
    expect((await ask(third, 'realtime:c1', 'phx_join', {})).response.reason).toMatch(/^ConnectionRateLimitReached/);
    // A socket that leaves makes room.
    await second.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await ask(third, 'realtime:c1', 'phx_join', { config: { broadcast: { ack: true } } })).status).toBe('ok');

    const replies = [];
    for (let i = 0; i < 8; i++)
      replies.push(await ask(third, 'realtime:c1', 'broadcast', { type: 'broadcast', event: 'e', payload: {} }));
    const refused = replies.filter((r) => r.status === 'error');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.response.reason).toMatch(/^ClientRateLimitReached/);
    // The next second, the account may send again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await ask(third, 'realtime:c1', 'broadcast', { type: 'broadcast', event: 'e', payload: {} })).toMatchObject({
      status: 'ok',
    });
    await Promise.all(open.splice(0).map((socket) => socket.close()));
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });

  it.each([
    ['no key', {}, { messages: [{ topic: 'a', event: 'e', payload: {} }] }, 401],
    ['no messages', 'key', {}, 422],
    ['messages that are not a list', 'key', { messages: 'a' }, 422],
    ['a message without a topic', 'key', { messages: [{ event: 'e' }] }, 422],
    ['too many messages', 'key', { messages: Array.from({ length: 101 }, () => ({ topic: 'a', event: 'e' })) }, 422],
    ['a payload over the limit', 'key', { messages: [{ topic: 'a', event: 'e', payload: 'x'.repeat(3000) }] }, 413],
    [
      'a deep payload',
      'key',
      { messages: [{ topic: 'a', event: 'e', payload: JSON.parse(`${'['.repeat(80)}${']'.repeat(80)}`) }] },
      422,
    ],
    ['a private room, signed out', 'key', { messages: [{ topic: 'a', event: 'e', private: true }] }, 403],
    ["this instance's key, signed out", 'instance', { messages: [{ topic: 'a', event: 'e' }] }, 401],
  ])('refuses an HTTP batch with %s', async (_name, key, json, status) => {
    const headers =
      key === 'key'
        ? { apikey: dev.app.anonKey }
        : key === 'instance'
          ? { apikey: server.anonKey }
          : ({} as Record<string, string>);
    const res = await server.request('POST', '/realtime/v1/api/broadcast', { headers, json });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message: expect.any(String) });
  });

  it('refuses an httpSend of bad JSON, no payload, or too large a body', async () => {
    const url = '/realtime/v1/api/broadcast/room/events/e';
    const headers = { apikey: dev.app.anonKey, 'content-type': 'application/json' };
    expect((await server.request('POST', url, { headers, body: '{not json' })).status).toBe(422);
    expect((await server.request('POST', url, { headers, body: 'null' })).status).toBe(422);
    const big = await server.request('POST', url, { headers, body: JSON.stringify({ x: 'y'.repeat(3000) }) });
    expect(big).toMatchObject({ status: 413, body: { message: expect.any(String) } });
    const bytes = await server.request('POST', url, {
      headers: { apikey: dev.app.anonKey, 'content-type': 'application/octet-stream' },
      body: 'raw bytes',
    });
    expect(bytes.status).toBe(202);
  });

  it('still serves a normal join after all of it', async () => {
    const socket = await connect('2.0.0', dev.app.serviceKey);
    expect(await ask(socket, 'realtime:fine', 'phx_join', { config: { postgres_changes: [] } })).toEqual({
      status: 'ok',
      response: { postgres_changes: [] },
    });
  });
});
