import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppTable, type Developer, signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { Inbox } from '../../testing/realtime.fixtures.js';
import { callNode, type ServerProcess, startServerProcess } from '../../testing/server-process.js';
import { createTestDatabase, type TestServer, testDialects } from '../../testing/test-server.js';

// A supabase-js app keeps its channels through a restart of the server: the client reconnects on its own (after
// 1, 2, 5, 10 s), joins again with its token, and hears the next change. The server is a `basalt serve` process
// stopped and started again on the same address and data.

/** nodeAsServer lets the fixtures that take a TestServer talk to a server process. */
async function nodeAsServer(node: ServerProcess): Promise<TestServer> {
  const anonKey = (await callNode(node.url, 'GET', '/api/config', {})).body.anonKey as string;
  return {
    url: node.url,
    anonKey,
    async request(method, path, init = {}) {
      const reply = await callNode(node.url, method, path, init.headers ?? {}, init.json);
      return { status: reply.status, headers: reply.headers, text: JSON.stringify(reply.body), body: reply.body };
    },
  } as TestServer;
}

describe.each(testDialects)('realtime across a server restart on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
  let node: ServerProcess;
  let env: Record<string, string>;
  let dev: Developer;

  beforeAll(async () => {
    database = dialect === 'postgres' ? await createTestDatabase() : null;
    env = { AUTH_RATE_LIMIT: '1000', ...(database ? { DATABASE_URL: database.url } : {}) };
    node = await startServerProcess(env);
    env = { ...env, PORT: new URL(node.url).port, BASALT_DATA_DIR: node.dataDir, SITE_URL: node.url };
    dev = await startDeveloper(await nodeAsServer(node), users.alice);
  }, 60_000);
  afterAll(async () => {
    await dev?.client.removeAllChannels();
    await node?.stop();
    await database?.drop();
    if (node) await fs.rm(node.dataDir, { recursive: true, force: true });
  });

  it('joins again after the restart and hears the next change', async () => {
    const server = await nodeAsServer(node);
    await createAppTable(server, dev, {
      name: 'notes',
      schema: { body: { type: 'text' } },
      access: { select: 'authenticated', insert: 'authenticated', update: 'nobody', delete: 'nobody' },
    });
    const ann = await signUpEndUser(server, dev, 'ann@example.com');
    const statuses = new Inbox<string>();
    const heard = new Inbox<Record<string, unknown>>();
    ann.client
      .channel('notes')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes' }, (p) => heard.push(p))
      .subscribe((status) => statuses.push(status));
    await statuses.next((s) => s === 'SUBSCRIBED');
    await ann.client.from('notes').insert({ body: 'before' }).throwOnError();
    expect(await heard.next()).toMatchObject({ new: { body: 'before' } });

    await node.stop();
    await statuses.next((s) => s === 'CHANNEL_ERROR' || s === 'CLOSED', 10_000);
    node = await startServerProcess(env);
    await statuses.next((s) => s === 'SUBSCRIBED', 30_000);
    await ann.client.from('notes').insert({ body: 'after' }).throwOnError();
    expect(await heard.next()).toMatchObject({ new: { body: 'after' } });
    await ann.client.removeAllChannels();
  }, 90_000);
});
