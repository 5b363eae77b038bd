import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { startServer } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { enforceLogRetention, runLogRetention } from './log-retention.js';
import { insertLogRows, listLogRows, type NewLogRow } from './logs.store.js';

const NOW = new Date('2030-06-15T12:00:00.000Z');
const DAY = 86_400_000;

const row = (message: string, createdAt: Date): NewLogRow => ({
  created_at: createdAt.toISOString(),
  level: 'info',
  source: 'api',
  message,
  path: null,
  account_id: null,
  context: '{}',
});

describe.each(testDialects)('log retention on %s', (dialect) => {
  let server: TestServer;
  const db = () => server.app.basalt.db;
  const remaining = async () =>
    (await listLogRows(db().kysely, {}, { limit: 100_000, offset: 0 })).map((r) => r.message);

  beforeAll(async () => {
    server = await startServer(dialect);
  });
  beforeEach(async () => {
    await server.app.basalt.logs.flush();
    await db().kysely.deleteFrom('system_logs').execute();
  });
  afterAll(() => server.close());

  it('deletes the entries older than the age limit', async () => {
    await insertLogRows(db(), [
      row('20 days old', new Date(NOW.getTime() - 20 * DAY)),
      row('15 days old', new Date(NOW.getTime() - 15 * DAY)),
      row('13 days old', new Date(NOW.getTime() - 13 * DAY)),
      row('today', NOW),
    ]);
    const result = await enforceLogRetention(db(), { maxAgeDays: 14, maxRows: 1000 }, NOW);
    expect(result).toMatchObject({ deletedByAge: 2, deletedByCount: 0, durationMs: expect.any(Number) });
    expect(await remaining()).toEqual(['today', '13 days old']);
  });

  it('keeps only the newest entries beyond the row limit, ties broken by id', async () => {
    const at = (minute: number) => new Date(NOW.getTime() - (30 - minute) * 60_000);
    // Entries 10 and 11 share a timestamp: the limit may fall between them.
    await insertLogRows(
      db(),
      Array.from({ length: 30 }, (_, i) => row(`entry ${i}`, at(i === 11 ? 10 : i))),
    );
    const result = await enforceLogRetention(db(), { maxAgeDays: 14, maxRows: 19 }, NOW);
    expect(result).toMatchObject({ deletedByAge: 0, deletedByCount: 11 });
    expect(await remaining()).toEqual(Array.from({ length: 19 }, (_, i) => `entry ${29 - i}`));
    // Nothing more to do the second time.
    expect(await enforceLogRetention(db(), { maxAgeDays: 14, maxRows: 19 }, NOW)).toMatchObject({
      deletedByAge: 0,
      deletedByCount: 0,
    });
  });

  it('deletes many entries in several rounds', async () => {
    const old = new Date(NOW.getTime() - 30 * DAY);
    await insertLogRows(
      db(),
      Array.from({ length: 12_345 }, (_, i) => row(`old ${i}`, new Date(old.getTime() + i))),
    );
    await insertLogRows(db(), [row('fresh', NOW)]);
    const result = await enforceLogRetention(db(), { maxAgeDays: 14, maxRows: 1_000_000 }, NOW);
    expect(result.deletedByAge).toBe(12_345);
    expect(await remaining()).toEqual(['fresh']);
  });

  it('runs as a job that logs each run', async () => {
    await insertLogRows(db(), [row('ancient', new Date(NOW.getTime() - 100 * DAY)), row('recent', NOW)]);
    const result = await runLogRetention(server.app.basalt, NOW);
    expect(result).toMatchObject({ deletedByAge: 1, deletedByCount: 0 });
    await server.app.basalt.logs.flush();
    const [logged] = await listLogRows(db().kysely, { service: 'jobs' }, { limit: 1, offset: 0 });
    expect(logged).toMatchObject({ level: 'info', source: 'jobs', message: 'Log retention deleted 1 entry' });
    expect(JSON.parse(logged?.context ?? '')).toMatchObject({
      job: 'log-retention',
      deletedByAge: 1,
      deletedByCount: 0,
      maxAgeDays: server.config.logRetentionDays,
      maxRows: server.config.logRetentionMaxRows,
    });
  });
});

describe('the log retention settings', () => {
  it('default to 14 days and 1,000,000 entries', () => {
    expect(loadConfig({})).toMatchObject({ logRetentionDays: 14, logRetentionMaxRows: 1_000_000 });
    expect(loadConfig({ LOG_RETENTION_DAYS: '30', LOG_RETENTION_MAX_ROWS: '5000' })).toMatchObject({
      logRetentionDays: 30,
      logRetentionMaxRows: 5000,
    });
  });

  it.each([
    [{ LOG_RETENTION_DAYS: '0' }, 'LOG_RETENTION_DAYS must be at least 1'],
    [{ LOG_RETENTION_DAYS: 'two weeks' }, 'LOG_RETENTION_DAYS must be a number of days'],
    [{ LOG_RETENTION_DAYS: '1.5' }, 'LOG_RETENTION_DAYS must be a whole number of days'],
    [{ LOG_RETENTION_MAX_ROWS: '10' }, 'LOG_RETENTION_MAX_ROWS must be at least 1000'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
