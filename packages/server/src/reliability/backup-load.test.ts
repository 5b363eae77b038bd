import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { users } from '../testing/auth.fixtures.js';
import {
  downloadArchive,
  restoreAndWatch,
  takeBackup,
  uploadArchive,
  waitForBackup,
} from '../testing/backups.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../testing/public-api.fixtures.js';
import { freePort, type ServerProcess, startServerProcess } from '../testing/server-process.js';
import { createTestDatabase, startTestServer, type TestServer, testDialects } from '../testing/test-server.js';

// Backups under load. A backup taken while 16 clients write holds a consistent point: every write acknowledged
// before the backup started, each row with its history entry and the table's kept count equal to its rows. And on
// PostgreSQL, a restore started on one node while another serves writes: that node refuses writes (503 and
// Retry-After) while it runs, and serves the restored data afterwards.

const WRITERS = 16;

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies.
type Json = any;

function startWriters(url: string, headers: Record<string, string>) {
  const acknowledged: Array<{ title: string; at: number }> = [];
  const refused: Array<{ status: number; retryAfter: string | null }> = [];
  let stopped = false;
  const writer = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const title = `w${w}-${i}`;
      try {
        const res = await fetch(`${url}/api/table/load`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ title }),
        });
        if (res.status === 201) acknowledged.push({ title, at: Date.now() });
        else refused.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
        await res.arrayBuffer();
      } catch {
        // A connection cut by a stopping server acknowledged nothing.
      }
    }
  };
  const all = Array.from({ length: WRITERS }, (_, w) => writer(w));
  return {
    acknowledged,
    refused,
    async stop() {
      stopped = true;
      await Promise.all(all);
    },
  };
}

describe.each(testDialects)('backups under load on %s', (dialect) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('a backup taken under a 16-client write load restores to a consistent point', async () => {
    const source = await startTestServer(dialect, { authRateLimit: 10_000 });
    servers.push(source);
    const alice: KeyedUser = await signUpWithKey(source, users.alice);
    await createTable(source, alice, 'load', { title: { type: 'text', required: true } });
    const load = startWriters(source.url, alice.keyHeaders);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = new Set(load.acknowledged.map((a) => a.title));
    const backup = await takeBackup(source, alice.tokenHeaders, { name: 'under load' });
    await load.stop();
    expect(backup.status).toBe('COMPLETED');
    expect(before.size).toBeGreaterThan(0);

    const target = await startTestServer(dialect, { authRateLimit: 10_000 });
    servers.push(target);
    const admin = await signUpWithKey(target, users.bob);
    const uploaded = await uploadArchive(
      target,
      admin.tokenHeaders,
      await downloadArchive(source, alice.tokenHeaders, backup.id),
    );
    expect((await restoreAndWatch(target, admin.tokenHeaders, uploaded.body.id)).restore_status).toBe('COMPLETED');

    const db = target.app.basalt.db.kysely;
    const table = await db.selectFrom('user_tables').select('id').where('name', '=', 'load').executeTakeFirstOrThrow();
    const { rows } = await sql<{
      title: string;
      id: number;
    }>`SELECT id, title FROM ${sql.table(`t_${table.id}`)}`.execute(db);
    const restored = new Set(rows.map((r) => r.title));
    for (const title of before) expect(restored.has(title), title).toBe(true);
    const created = await db
      .selectFrom('change_history')
      .select('record_id')
      .where('table_id', '=', Number(table.id))
      .where('change_type', '=', 'RECORD_CREATE')
      .execute();
    expect(new Set(created.map((c) => Number(c.record_id)))).toEqual(new Set(rows.map((r) => Number(r.id))));
    const counted = await db
      .selectFrom('table_row_counts')
      .select((eb) => eb.fn.sum<number>('row_count').as('n'))
      .where('table_id', '=', Number(table.id))
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(rows.length);
  }, 120_000);
});

describe.runIf(testDialects.includes('postgres'))('a restore on one node while another serves writes', () => {
  let processes: ServerProcess[] = [];
  let database: { url: string; drop(): Promise<void> } | null = null;
  const dirs: string[] = [];
  afterEach(async () => {
    for (const p of processes) await p.kill();
    processes = [];
    await database?.drop();
    for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });

  it('the other node refuses writes with 503 while it runs, then serves the restored data', async () => {
    database = await createTestDatabase();
    // Both nodes share the backups folder, as a cluster's nodes should.
    const shared = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-nodes-'));
    dirs.push(shared);
    const node = async () =>
      startServerProcess({
        PORT: String(await freePort()),
        BASALT_DATA_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-node-')),
        DATABASE_URL: database?.url ?? '',
        // Both nodes issue tokens as the instance's stored URL, whatever their ports.
        SITE_URL: '',
        LOG_LEVEL: 'warn',
        BACKUP_DIR: shared,
      });
    const a = await node();
    const b = await node();
    processes.push(a, b);
    const anonKey = ((await (await fetch(`${a.url}/api/config`)).json()) as { anonKey: string }).anonKey;
    const asServer = (url: string) => ({ url, anonKey, request: requester(url) }) as unknown as TestServer;
    const alice = await signUpWithKey(asServer(a.url), users.alice);
    await createTable(asServer(a.url), alice, 'load', { title: { type: 'text', required: true } });
    const backup = await takeBackup(asServer(a.url), alice.tokenHeaders, { name: 'empty load table' });
    const writes = startWriters(b.url, alice.keyHeaders);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = await asServer(a.url).request('POST', `/api/backups/${backup.id}/restore`, {
      headers: alice.tokenHeaders,
    });
    expect(started.status).toBe(202);
    const signInAgain = async () => {
      const res = await asServer(a.url).request('POST', '/auth/v1/token?grant_type=password', {
        headers: { apikey: anonKey },
        json: { email: users.alice.email, password: users.alice.password },
      });
      return { authorization: `Bearer ${res.body.access_token}` };
    };
    const done: Json = await waitForBackup(asServer(a.url), alice.tokenHeaders, backup.id, signInAgain);
    await writes.stop();
    expect(done.restore.status).toBe('COMPLETED');
    // B refused writes while the restore ran, each with Retry-After.
    expect(writes.refused.length).toBeGreaterThan(0);
    expect(writes.refused.every((r) => r.status === 503 && r.retryAfter === '10')).toBe(true);
    // B serves the restored table: the writes it took before the restore are gone, those after it are there.
    const finished = Date.parse(done.restore.finishedAt);
    const read = await fetch(`${b.url}/api/table/load?limit=1000`, { headers: alice.keyHeaders });
    const titles = new Set(((await read.json()) as Array<{ title: string }>).map((r) => r.title));
    for (const ack of writes.acknowledged) {
      if (ack.at > finished + 50) expect(titles.has(ack.title), ack.title).toBe(true);
    }
    const accepted = writes.acknowledged.filter((ack) => titles.has(ack.title));
    expect(accepted.every((ack) => ack.at >= finished - 50)).toBe(true);
  }, 120_000);
});

// A TestServer-shaped requester for a server in another process.
function requester(url: string) {
  return async (
    method: string,
    pathAndQuery: string,
    init: { headers?: Record<string, string>; json?: unknown } = {},
  ) => {
    const res = await fetch(url + pathAndQuery, {
      method,
      headers: { ...init.headers, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: res.status, headers: res.headers, text, body };
  };
}
