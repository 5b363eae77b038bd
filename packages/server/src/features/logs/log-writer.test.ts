import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../db/database.js';
import { startServer } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { createLogWriter, type LogInput } from './log-writer.js';
import { countLogRows, listLogRows } from './logs.store.js';

const entry = (i: number, at?: number): LogInput => ({
  level: 'info',
  source: 'api',
  message: `entry ${i}`,
  path: `/api/things/${i}`,
  context: { i },
  ...(at === undefined ? {} : { at }),
});

const waitUntil = async (check: () => Promise<boolean>, ms = 5000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.each(testDialects)('the log writer on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  // Each test writes messages with its own prefix and reads back only those.
  const messages = async (prefix: string) =>
    (await listLogRows(db.kysely, { search: prefix }, { limit: 10_000, offset: 0, fromOldest: true })).map(
      (row) => row.message,
    );

  beforeAll(async () => {
    server = await startServer(dialect);
    db = server.app.basalt.db;
  });
  afterAll(() => server.close());

  it('stores nothing until a flush, then every entry in order, in chunks of any size', async () => {
    const writer = createLogWriter(db, { flushEveryMs: 60_000, batchSize: 1000 });
    const base = Date.parse('2030-01-01T00:00:00.000Z');
    for (let i = 0; i < 777; i++) writer.write({ ...entry(i, base + i), message: `chunks ${i}` });
    expect(writer.stats()).toEqual({ queued: 777, written: 0, dropped: 0 });
    expect(await messages('chunks ')).toEqual([]);
    await writer.flush();
    expect(writer.stats()).toEqual({ queued: 0, written: 777, dropped: 0 });
    expect(await messages('chunks ')).toEqual(Array.from({ length: 777 }, (_, i) => `chunks ${i}`));
    const [first] = await listLogRows(db.kysely, { search: 'chunks 0' }, { limit: 1, offset: 0, fromOldest: true });
    expect(first).toMatchObject({
      created_at: '2030-01-01T00:00:00.000Z',
      level: 'info',
      source: 'api',
      path: '/api/things/0',
      account_id: null,
    });
    expect(JSON.parse(first?.context ?? '')).toEqual({ i: 0 });
    await writer.close();
  });

  it('keeps a request summary open across the batches stored meanwhile, until its window ends', async () => {
    const writer = createLogWriter(db, { flushEveryMs: 20, batchSize: 1, summaryEveryMs: 60_000 });
    const sample = (at: number) => ({
      method: 'GET',
      routeKey: '/api/windowed/:id',
      route: () => '/api/windowed/:id',
      status: 200,
      accountId: null,
      durationMs: 1,
      early: false,
      at,
      entry: () => ({ ...entry(at), message: 'windowed alone' }),
    });
    writer.countRequest(sample(1));
    writer.countRequest(sample(2));
    // A refusal is stored on its own at once (a full batch), and the timer runs: neither ends the window.
    writer.write({ ...entry(3), message: 'windowed refusal' });
    await waitUntil(async () => (await messages('windowed ')).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await messages('windowed ')).toEqual(['windowed refusal']);
    writer.countRequest(sample(4));
    await writer.flush();
    expect(await messages('/api/windowed/')).toEqual([
      expect.stringMatching(/^GET \/api\/windowed\/:id 200 × 3 requests /),
    ]);
    await writer.close();
  });

  it('stores a full batch at once, without waiting for the timer', async () => {
    const writer = createLogWriter(db, { flushEveryMs: 60_000, batchSize: 50 });
    for (let i = 0; i < 50; i++) writer.write({ ...entry(i), message: `batch ${i}` });
    await waitUntil(async () => (await messages('batch ')).length === 50);
    await writer.close();
  });

  it('stores on its timer', async () => {
    const writer = createLogWriter(db, { flushEveryMs: 20 });
    writer.write({ ...entry(1), message: 'timer 1' });
    await waitUntil(async () => (await messages('timer ')).length === 1);
    await writer.close();
  });

  it('drops the oldest entries beyond its bound and says how many it dropped', async () => {
    const writer = createLogWriter(db, { flushEveryMs: 60_000, batchSize: 1000, maxQueue: 100 });
    for (let i = 0; i < 150; i++) writer.write({ ...entry(i), message: `bounded ${i}` });
    expect(writer.stats()).toEqual({ queued: 100, written: 0, dropped: 50 });
    await writer.flush();
    expect(await messages('bounded ')).toEqual(Array.from({ length: 100 }, (_, i) => `bounded ${i + 50}`));
    const [notice] = await listLogRows(db.kysely, { search: 'Dropped 50 log entries' }, { limit: 5, offset: 0 });
    expect(notice).toMatchObject({ level: 'warn', source: 'jobs' });
    await writer.close();
  });

  it('stores what is queued when it closes, and ignores writes after', async () => {
    const writer = createLogWriter(db, { flushEveryMs: 60_000 });
    for (let i = 0; i < 3; i++) writer.write({ ...entry(i), message: `closing ${i}` });
    await writer.close();
    writer.write({ ...entry(3), message: 'closing 3' });
    expect(await messages('closing ')).toEqual(['closing 0', 'closing 1', 'closing 2']);
    expect(writer.stats().queued).toBe(0);
  });

  it('masks secrets and bounds sizes before storing', async () => {
    const writer = createLogWriter(db, { flushEveryMs: 60_000 });
    writer.write({
      level: 'error',
      source: 'api',
      message: `masking: password=hunter2 Bearer abc.def.ghi bsk_live_123 ${'x'.repeat(3000)}`,
      context: {
        authorization: 'Bearer abc',
        nested: { apikey: 'k', cookie: 'c', fine: 'password: p4ss' },
        nul: 'a\u0000b',
      },
    });
    await writer.close();
    const [row] = await listLogRows(db.kysely, { search: 'masking:' }, { limit: 1, offset: 0 });
    expect(row?.message).toMatch(/^masking: password=\[redacted\] Bearer \[redacted\] bsk_\[redacted\] x+…$/);
    // Cut at 1,000 characters, then masked (a mask may be longer than what it hides).
    expect(row?.message.length).toBeLessThanOrEqual(1020);
    expect(JSON.parse(row?.context ?? '')).toEqual({
      authorization: '[redacted]',
      nested: { apikey: '[redacted]', cookie: '[redacted]', fine: 'password: [redacted]' },
      nul: 'ab',
    });
  });

  it('keeps a batch the database refused and tells its listener', async () => {
    // A database that cannot answer: a closed SQLite file, a PostgreSQL database that does not exist.
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-writer-'));
    const missing = server.config.databaseUrl?.replace(/\/[^/]*$/, '/basalt_no_such_database') ?? null;
    const closed = openDatabase({ databaseUrl: missing, dataDir });
    if (!missing) await closed.close();
    const errors: unknown[] = [];
    const writer = createLogWriter(closed, { flushEveryMs: 60_000, onError: (error) => errors.push(error) });
    writer.write(entry(1));
    await writer.flush();
    expect(errors).toHaveLength(1);
    expect(writer.stats()).toEqual({ queued: 1, written: 0, dropped: 0 });
    await writer.close();
    if (missing) await closed.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('counts entries per account', async () => {
    const writer = createLogWriter(db, { flushEveryMs: 60_000 });
    writer.write({ ...entry(1), accountId: 'acct-writer' });
    writer.write({ ...entry(2), accountId: 'acct-writer' });
    await writer.close();
    expect(await countLogRows(db.kysely, { accountId: 'acct-writer' })).toBe(2);
  });
});

describe('a migrated database', () => {
  it('has system_logs after migrating', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-writer-'));
    const db = openDatabase({ databaseUrl: null, dataDir });
    expect(await migrateToLatest(db)).toContain('0005_logs');
    expect(await countLogRows(db.kysely, {})).toBe(0);
    await db.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
});
