import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appClient,
  createAppTable,
  type Developer,
  type EndUserClient,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { closeClients, Inbox, subscribeOrThrow } from '../../testing/realtime.fixtures.js';
import { callNode, type ServerProcess, startServerProcess } from '../../testing/server-process.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../testing/test-server.js';

// Realtime on two nodes of one PostgreSQL database behaves as one server: node A is a `basalt serve` process,
// node B a server in this process. A write on one node reaches a subscriber on the other; a broadcast (one over
// NOTIFY's 8,000 bytes too) and presence cross over; and when A dies, its presences leave B's rooms within the
// nodes' heartbeat. Once over the bus's LISTEN/NOTIFY, once over Redis pub/sub (REDIS_URL).

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe.skipIf(!process.env.TEST_DATABASE_URL).each(['notify', 'redis'] as const)(
  'realtime on two nodes over %s',
  (transport) => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let a: ServerProcess;
    let b: TestServer;
    let dev: Developer;
    let onB: EndUserClient;
    let onA: SupabaseClient;
    const siteUrl = 'http://basalt.cluster.test';

    beforeAll(async () => {
      database = await createTestDatabase();
      const redis = transport === 'redis' ? REDIS_URL : null;
      b = await startTestServer('postgres', {
        databaseUrl: database.url,
        siteUrl,
        authRateLimit: 1000,
        redisUrl: redis,
      });
      a = await startServerProcess({
        DATABASE_URL: database.url,
        SITE_URL: siteUrl,
        AUTH_RATE_LIMIT: '1000',
        ...(redis ? { REDIS_URL: redis } : {}),
      });
      dev = await startDeveloper(b, users.alice);
      await createAppTable(b, dev, {
        name: 'notes',
        schema: { body: { type: 'text' } },
        access: { select: 'authenticated', insert: 'authenticated', update: 'nobody', delete: 'nobody' },
      });
      onB = await signUpEndUser(b, dev, 'ann@example.com');
      onA = appClient({ ...b, url: a.url } as TestServer, dev.app.anonKey);
      const { error } = await onA.auth.signInWithPassword({ email: 'ann@example.com', password: 'End-User-Passw0rd!' });
      if (error) throw error;
    }, 60_000);

    afterAll(async () => {
      await closeClients(onA, onB.client, dev.client);
      await b?.close();
      await a?.kill();
      await database?.drop();
    });

    const notesOf = async (client: SupabaseClient, topic: string) => {
      const inbox = new Inbox<Record<string, unknown>>();
      const channel = client
        .channel(topic)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes' }, (p) => inbox.push(p));
      await subscribeOrThrow(channel);
      return inbox;
    };

    it('delivers a write on one node to a subscriber on the other, both ways', async () => {
      const heardOnB = await notesOf(onB.client, 'notes-b');
      const heardOnA = await notesOf(onA, 'notes-a');
      await onA.from('notes').insert({ body: 'written on A' }).throwOnError();
      expect(await heardOnB.next()).toMatchObject({ new: { body: 'written on A' } });
      await onB.client.from('notes').insert({ body: 'written on B' }).throwOnError();
      expect(await heardOnA.next((p) => (p.new as { body: string }).body === 'written on B')).toBeTruthy();
    });

    it('follows a table rule changed on the other node, for a subscriber already joined', async () => {
      const rules = (select: string) => ({ select, insert: 'authenticated', update: 'nobody', delete: 'nobody' });
      const memos = await createAppTable(b, dev, {
        name: `memos_${transport}`,
        schema: { body: { type: 'text' } },
        access: rules('authenticated'),
      });
      const heard = new Inbox<Record<string, unknown>>();
      const channel = onB.client
        .channel(`memos-${transport}`)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: `memos_${transport}` }, (p) =>
          heard.push(p),
        );
      await subscribeOrThrow(channel);
      const body = (p: Record<string, unknown>) => (p.new as { body: string }).body;
      const write = (text: string) => onA.from(`memos_${transport}`).insert({ body: text }).throwOnError();
      await write('seen');
      expect(body(await heard.next())).toBe('seen');
      // On node A the rule becomes `nobody`: B's subscriber, joined under the old rule, stops hearing.
      const patch = (select: string) =>
        callNode(a.url, 'PATCH', `/api/tables/${memos}`, dev.headers, { access: rules(select) });
      expect((await patch('nobody')).status).toBe(200);
      await write('hidden');
      expect((await patch('authenticated')).status).toBe(200);
      await write('seen again');
      expect(body(await heard.next())).toBe('seen again');
      expect(heard.items.map(body)).not.toContain('hidden');
      await onB.client.removeChannel(channel);
    });

    it('carries broadcasts across, a large one too', async () => {
      const heard = new Inbox<Record<string, unknown>>();
      const receiver = onB.client.channel('room').on('broadcast', { event: '*' }, (p) => heard.push(p));
      await subscribeOrThrow(receiver);
      const sender = onA.channel('room');
      await subscribeOrThrow(sender);
      await sender.send({ type: 'broadcast', event: 'small', payload: { n: 1 } });
      expect(await heard.next()).toMatchObject({ event: 'small', payload: { n: 1 } });
      const big = 'x'.repeat(20_000);
      await sender.send({ type: 'broadcast', event: 'large', payload: { big } });
      expect(await heard.next()).toMatchObject({ event: 'large', payload: { big } });
    });

    it('merges presence across nodes, and drops a dead node from it', async () => {
      const leaves = new Inbox<Record<string, unknown>>();
      const watcher = onB.client
        .channel('lobby', { config: { presence: { key: 'on-b' } } })
        .on('presence', { event: 'leave' }, (p) => leaves.push(p as Record<string, unknown>));
      await subscribeOrThrow(watcher);
      const present = onA
        .channel('lobby', { config: { presence: { key: 'on-a' } } })
        .on('presence', { event: 'sync' }, () => {});
      await subscribeOrThrow(present);
      await present.track({ where: 'A' });
      await watcher.track({ where: 'B' });
      for (let i = 0; i < 200 && !(watcher.presenceState()['on-a'] && present.presenceState()['on-b']); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(watcher.presenceState()['on-a']).toEqual([expect.objectContaining({ where: 'A' })]);
      expect(present.presenceState()['on-b']).toEqual([expect.objectContaining({ where: 'B' })]);
      // A dies without a word: B gives it up after its beats stop.
      await a.kill();
      expect(await leaves.next((p) => p.key === 'on-a', 30_000)).toMatchObject({ event: 'leave', key: 'on-a' });
      expect(watcher.presenceState()['on-a']).toBeUndefined();
    }, 45_000);
  },
);
