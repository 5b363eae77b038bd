import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';
import { listLogsPage, listRecentLogs } from './logs.service.js';
import { insertLogRows, type NewLogRow } from './logs.store.js';

// Filters and paging over a large log, on SQLite: 200,000 generated entries of 10 accounts. Every answer is
// checked against what the generator made, and timed (the times are printed; the bound is loose because the
// machines running the suite are shared). bench/logs.mjs measures the search at 1,000,000 entries.

const ROWS = 200_000;
const ACCOUNTS = 10;
const BASE = Date.parse('2030-01-01T00:00:00.000Z');
// Generous: a page or a search takes a few milliseconds here, a search of a common term some tens.
const PAGE_MS = 1000;
const SEARCH_MS = 3000;

function generated(i: number): NewLogRow {
  const level = i % 100 === 0 ? 'error' : i % 10 === 0 ? 'warn' : 'info';
  const source = i % 1000 === 1 ? 'jobs' : i % 50 === 1 ? 'auth' : 'api';
  return {
    created_at: new Date(BASE + i * 100).toISOString(),
    level,
    source,
    message: `GET /api/items/${i} ${level === 'error' ? 500 : level === 'warn' ? 404 : 200}`,
    path: `/api/items/${i}`,
    account_id: `acct-${i % ACCOUNTS}`,
    context: JSON.stringify({ method: 'GET', requestId: `req-${i}` }),
  };
}

describe('the system log with 200,000 entries on sqlite', () => {
  let server: TestServer;
  let adminId: string;
  const timings: Record<string, number> = {};

  const timed = async <T>(name: string, run: () => Promise<T>, boundMs = PAGE_MS): Promise<T> => {
    const started = performance.now();
    const result = await run();
    timings[name] = Math.round(performance.now() - started);
    expect(timings[name], name).toBeLessThan(boundMs);
    return result;
  };

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    const { db } = server.app.basalt;
    adminId = await insertAccount(db, 'admin@example.test');
    await db.kysely.updateTable('accounts').set({ is_admin: 1 }).where('id', '=', adminId).execute();
    const t0 = performance.now();
    for (let start = 0; start < ROWS; start += 5000) {
      await insertLogRows(
        db,
        Array.from({ length: 5000 }, (_, k) => generated(start + k)),
      );
    }
    timings.insert = Math.round(performance.now() - t0);
  }, 60_000);
  afterAll(async () => {
    console.info('system log, 200k entries, ms:', timings);
    await server.close();
  });

  const db = () => server.app.basalt.db;
  const messageOf = (i: number) => generated(i).message;

  it('pages an administrator’s whole log from both ends', async () => {
    const first = await timed('first page', () =>
      listLogsPage(db(), { accountId: adminId, admin: true }, { page: 1, limit: 20 }),
    );
    expect(first.pagination).toEqual({
      totalItems: ROWS,
      totalPages: ROWS / 20,
      currentPage: 1,
      hasNext: true,
      hasPrevious: false,
    });
    expect(first.data.map((r) => r.message)).toEqual(Array.from({ length: 20 }, (_, k) => messageOf(ROWS - 1 - k)));
    const last = await timed('last page', () =>
      listLogsPage(db(), { accountId: adminId, admin: true }, { page: ROWS / 20, limit: 20 }),
    );
    expect(last.data.map((r) => r.message)).toEqual(Array.from({ length: 20 }, (_, k) => messageOf(19 - k)));
    const middle = await timed('middle page', () =>
      listLogsPage(db(), { accountId: adminId, admin: true }, { page: 5001, limit: 20 }),
    );
    expect(middle.data[0]?.message).toBe(messageOf(ROWS - 1 - 100_000));
  });

  it('filters by level and service with the indexes', async () => {
    const errors = await timed('level=error', () =>
      listLogsPage(db(), { accountId: adminId, admin: true }, { page: 1, limit: 20, level: 'error' }),
    );
    expect(errors.pagination.totalItems).toBe(ROWS / 100);
    expect(errors.data[0]).toMatchObject({ level: 'error', message: messageOf(199_900) });
    const lastErrors = await timed('level=error, last page', () =>
      listLogsPage(db(), { accountId: adminId, admin: true }, { page: 100, limit: 20, level: 'error' }),
    );
    expect(lastErrors.data.at(-1)?.message).toBe(messageOf(0));
    const jobs = await timed('service=jobs', () =>
      listLogsPage(db(), { accountId: adminId, admin: true }, { page: 1, limit: 20, service: 'jobs' }),
    );
    expect(jobs.pagination.totalItems).toBe(ROWS / 1000);
    expect(jobs.data[0]?.service).toBe('jobs');
  });

  it('limits an account to its own entries with the account index', async () => {
    const mine = await timed('account page', () => listLogsPage(db(), { accountId: 'acct-3' }, { page: 1, limit: 20 }));
    expect(mine.pagination.totalItems).toBe(ROWS / ACCOUNTS);
    expect(mine.data[0]?.message).toBe(messageOf(199_993));
    const myErrors = await timed('account + level=warn', () =>
      listLogsPage(db(), { accountId: 'acct-3' }, { page: 1, limit: 20, level: 'warn' }),
    );
    expect(myErrors.pagination.totalItems).toBe(0);
    const viewer = await timed('account viewer, 500 newest', () =>
      listRecentLogs(db(), { accountId: 'acct-7' }, { limit: 500 }),
    );
    expect(viewer).toHaveLength(500);
    expect(
      viewer.every((e) => e.message.endsWith(' 200') || e.message.endsWith(' 404') || e.message.endsWith(' 500')),
    ).toBe(true);
    expect(viewer[0]).toMatchObject({ message: messageOf(199_997), path: '/api/items/199997' });
  });

  it('searches message, path and context case-insensitively, through the search index', async () => {
    const byContext = await timed(
      'search (admin, 1 match)',
      () => listLogsPage(db(), { accountId: adminId, admin: true }, { page: 1, limit: 20, search: 'REQ-123457' }),
      SEARCH_MS,
    );
    expect(byContext.data.map((r) => r.message)).toEqual([messageOf(123_457)]);
    const byPath = await timed(
      'search (account, many matches)',
      () => listLogsPage(db(), { accountId: 'acct-5' }, { page: 1, limit: 20, search: '/api/items/1999' }),
      SEARCH_MS,
    );
    // Of 1999, 19990–19999 and 199900–199999, those of acct-5: 19995 and ten of the last hundred.
    expect(byPath.pagination.totalItems).toBe(1 + 10);
    const viewer = await timed(
      'viewer search (admin)',
      () => listRecentLogs(db(), { accountId: adminId, admin: true }, { limit: 500, search: 'items/4242' }),
      SEARCH_MS,
    );
    // 4242, 42420–42429.
    expect(viewer).toHaveLength(11);
  });

  it('counts a common term up to the limit and still pages it newest first', async () => {
    const common = await timed(
      'search (admin, every entry matches)',
      () => listLogsPage(db(), { accountId: adminId, admin: true }, { page: 1, limit: 20, search: 'get /API' }),
      SEARCH_MS,
    );
    expect(common.pagination).toEqual({
      totalItems: 10_000,
      totalPages: 501,
      currentPage: 1,
      hasNext: true,
      hasPrevious: false,
      totalItemsCapped: true,
    });
    expect(common.data.map((r) => r.message)).toEqual(Array.from({ length: 20 }, (_, k) => messageOf(ROWS - 1 - k)));
    const deep = await timed(
      'search (admin, every entry matches), page 600',
      () => listLogsPage(db(), { accountId: adminId, admin: true }, { page: 600, limit: 20, search: 'get /API' }),
      SEARCH_MS,
    );
    expect(deep.data[0]?.message).toBe(messageOf(ROWS - 1 - 599 * 20));
    expect(deep.pagination).toMatchObject({ totalItems: 10_000, totalPages: 601, hasNext: true });
    // Two characters: no trigram, the entries are read in order.
    const short = await timed(
      'search (admin, 2 characters)',
      () => listLogsPage(db(), { accountId: adminId, admin: true }, { page: 1, limit: 20, search: '/a' }),
      SEARCH_MS,
    );
    expect(short.pagination.totalItemsCapped).toBe(true);
    expect(short.data).toHaveLength(20);
  });
});
