import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  keyHeaders,
  runScenario,
  type SignedInTestUser,
  signUpUser,
  startAuthServer,
  tamper,
  users,
} from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// GET /api/logs on a server whose log was written by real requests: sign-ups, a refused sign-in, table listings
// and bad requests. The first account of an instance is its administrator. The writer also stores on its own
// every second, so the suite's own reads of /api/logs (info entries of source api) may appear at any moment:
// assertions that count use filters those reads do not match.

// Bad requests alice makes: 400s, logged as warnings.
const BAD_REQUESTS = 25;

interface ViewerEntry {
  id: number;
  level: string;
  message: string;
  source: string;
  path: string | null;
  context: Record<string, unknown>;
  timestamp: string;
}

describe.each(testDialects)('GET /api/logs on %s', (dialect) => {
  let server: TestServer;
  let admin: SignedInTestUser;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let apiKey: string;

  const get = async (user: SignedInTestUser, query: string) => {
    const res = await server.request('GET', `/api/logs${query}`, { headers: user.headers });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    admin = await signUpUser(server, users.carol);
    alice = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
    // A refused sign-in: its password must never reach the log.
    await server.request('POST', '/auth/v1/token?grant_type=password', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.alice.email, password: 'Wr0ng-Password-Typed!' },
    });
    await server.request('GET', '/api/tables?apikey=query-secret-123&select=*', { headers: alice.headers });
    for (let i = 0; i < BAD_REQUESTS; i++) {
      await server.request('GET', '/api/activity?page=0', { headers: alice.headers });
    }
    await server.request('GET', '/api/tables', { headers: bob.headers });
    const key = await server.request('POST', '/api/keys', { headers: alice.headers, json: { name: 'logs test' } });
    apiKey = key.body.key;
    await server.app.basalt.logs.flush();
  });
  afterAll(() => server.close());

  const scenarios: ApiScenario[] = [
    { name: 'no credentials', method: 'GET', url: '/api/logs', status: 401 },
    { name: 'no credentials, paged', method: 'GET', url: '/api/logs?page=1&limit=20', status: 401 },
    {
      name: 'a tampered token',
      method: 'GET',
      url: '/api/logs',
      headers: () => ({ authorization: `Bearer ${tamper(alice.accessToken)}` }),
      status: 401,
    },
    {
      name: 'an API key instead of a user',
      method: 'GET',
      url: '/api/logs',
      headers: () => ({ authorization: `Bearer ${apiKey}` }),
      status: 403,
    },
    {
      name: 'page 0',
      method: 'GET',
      url: '/api/logs?page=0',
      headers: () => alice.headers,
      status: 400,
      expected: { validationErrors: { page: ['page must be a whole number of 1 or more'] } },
    },
    { name: 'an empty page', method: 'GET', url: '/api/logs?page=', headers: () => alice.headers, status: 400 },
    { name: 'page 1.5', method: 'GET', url: '/api/logs?page=1.5', headers: () => alice.headers, status: 400 },
    { name: 'page abc', method: 'GET', url: '/api/logs?page=abc', headers: () => alice.headers, status: 400 },
    {
      name: 'a page limit above 100',
      method: 'GET',
      url: '/api/logs?page=1&limit=101',
      headers: () => alice.headers,
      status: 400,
      expected: { validationErrors: { limit: ['limit must be a whole number from 1 to 100'] } },
    },
    {
      name: 'a viewer limit above 500',
      method: 'GET',
      url: '/api/logs?limit=501',
      headers: () => alice.headers,
      status: 400,
      expected: { validationErrors: { limit: ['limit must be a whole number from 1 to 500'] } },
    },
    { name: 'limit 0', method: 'GET', url: '/api/logs?page=1&limit=0', headers: () => alice.headers, status: 400 },
    {
      name: 'an unknown level',
      method: 'GET',
      url: '/api/logs?level=verbose',
      headers: () => alice.headers,
      status: 400,
      expected: { validationErrors: { level: ['level must be one of all, debug, info, warn, error'] } },
    },
    {
      name: 'two levels',
      method: 'GET',
      url: '/api/logs?level=info&level=error',
      headers: () => alice.headers,
      status: 400,
    },
    {
      name: 'an unknown service',
      method: 'GET',
      url: '/api/logs?page=1&service=database',
      headers: () => alice.headers,
      status: 400,
      expected: { validationErrors: { service: ['service must be one of api, auth, jobs, functions'] } },
    },
    {
      name: 'a search over 200 characters',
      method: 'GET',
      url: `/api/logs?search=${'x'.repeat(201)}`,
      headers: () => alice.headers,
      status: 400,
      expected: { validationErrors: { search: ['search must be at most 200 characters'] } },
    },
  ];
  it.each(scenarios)('refuses $name', (scenario) => runScenario(server, scenario).then(() => undefined));

  it('answers the settings viewer with an array of the caller’s own entries, newest first', async () => {
    const entries: ViewerEntry[] = await get(alice, '');
    expect(Array.isArray(entries)).toBe(true);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['context', 'id', 'level', 'message', 'path', 'source', 'timestamp']);
    }
    const stamps = entries.map((e) => e.timestamp);
    expect(stamps).toEqual([...stamps].sort().reverse());
    const listing = entries.find((e) => e.message === 'GET /api/tables 200');
    expect(listing).toMatchObject({
      level: 'info',
      source: 'api',
      path: '/api/tables',
      context: { method: 'GET', status: 200, durationMs: expect.any(Number), requestId: expect.any(String) },
    });
    expect(entries.find((e) => e.message === 'GET /api/activity 400')).toMatchObject({ level: 'warn' });
    expect(entries.find((e) => e.source === 'auth')).toMatchObject({
      level: 'info',
      message: `Signed up: ${users.alice.email}`,
      path: null,
      context: { event: 'signed_up', email: users.alice.email },
    });
    // Not bob's requests, not the refused sign-in (administrators only), not the anonymous sign-ups.
    expect(entries.some((e) => e.message.includes(users.bob.email))).toBe(false);
    expect(entries.filter((e) => e.message === 'GET /api/tables 200')).toHaveLength(1);
    expect(entries.some((e) => e.source === 'auth' && e.level === 'warn')).toBe(false);
    expect(entries.some((e) => e.path === '/auth/v1/signup')).toBe(false);
  });

  it('answers the logs page with data and pagination, 20 per page by default', async () => {
    // Alice's bad requests (the suite's refused requests are warnings too, of /api/logs).
    const total = BAD_REQUESTS;
    const filter = 'level=warning&search=%2Fapi%2Factivity';
    const first = await get(admin, `?page=1&${filter}`);
    expect(Object.keys(first).sort()).toEqual(['data', 'pagination']);
    expect(first.data).toHaveLength(20);
    for (const row of first.data) {
      expect(Object.keys(row).sort()).toEqual(['createdAt', 'id', 'level', 'message', 'service']);
    }
    expect(first.pagination).toEqual({
      totalItems: total,
      totalPages: 2,
      currentPage: 1,
      hasNext: true,
      hasPrevious: false,
    });
    const all = await get(admin, `?page=1&${filter}&limit=100`);
    expect(all.data).toHaveLength(total);
    for (const row of all.data) {
      expect(row).toMatchObject({ level: 'warning', service: 'api', message: 'GET /api/activity 400' });
    }
    // Paging by 3 gives the same entries as one page, in the same order (the older half is read backwards).
    const pages = Math.ceil(total / 3);
    const paged = [];
    for (let page = 1; page <= pages; page++) {
      paged.push(...(await get(admin, `?page=${page}&limit=3&${filter}`)).data);
    }
    expect(paged.map((r) => r.id)).toEqual(all.data.map((r: { id: number }) => r.id));
    const past = await get(admin, `?page=${pages + 1}&limit=3&${filter}`);
    expect(past).toEqual({
      data: [],
      pagination: { totalItems: total, totalPages: pages, currentPage: pages + 1, hasNext: false, hasPrevious: true },
    });
  });

  it('shows an administrator every account’s entries, the refused sign-in and no secret', async () => {
    const entries: ViewerEntry[] = await get(admin, '');
    const byAccountListing = entries.filter((e) => e.message === 'GET /api/tables 200');
    expect(byAccountListing).toHaveLength(2);
    const refused = entries.find((e) => e.source === 'auth' && e.level === 'warn');
    expect(refused).toMatchObject({
      message: `Sign-in refused (invalid_credentials): ${users.alice.email}`,
      context: { reason: 'invalid_credentials', email: users.alice.email, ip: expect.any(String) },
    });
    const everything = JSON.stringify(entries);
    expect(everything).not.toContain('Wr0ng-Password-Typed!');
    expect(everything).not.toContain('query-secret-123');
    expect(everything).not.toContain(alice.accessToken);
    expect(everything).not.toContain(apiKey);
    expect(await get(admin, '?search=query-secret')).toEqual([]);
  });

  it('filters by level, service and a case-insensitive search, on both answers', async () => {
    const warnings: ViewerEntry[] = await get(admin, '?level=warn');
    expect(warnings.length).toBeGreaterThan(BAD_REQUESTS);
    expect(warnings.every((e) => e.level === 'warn')).toBe(true);
    const stable = 'level=warning&search=activity';
    expect((await get(admin, `?page=1&${stable}`)).pagination.totalItems).toBe((await get(admin, `?${stable}`)).length);
    expect(await get(admin, '?level=all&service=auth')).toEqual(await get(admin, '?service=auth'));
    expect(await get(admin, '?level=error')).toEqual([]);

    const auth = await get(admin, '?page=1&service=auth&limit=100');
    expect(auth.data.every((r: { service: string }) => r.service === 'auth')).toBe(true);
    // Three sign-ups and one refused sign-in.
    expect(auth.pagination.totalItems).toBe(4);

    const search: ViewerEntry[] = await get(admin, '?search=GET%20/API/TABLES');
    expect(search.map((e) => e.message).sort()).toEqual(['GET /api/tables 200', 'GET /api/tables 200']);
    // The search reads the context too: a request id finds its request.
    const requestId = search[0]?.context.requestId as string;
    expect((await get(admin, `?search=${requestId}`)).map((e: ViewerEntry) => e.id)).toEqual([search[0]?.id]);
    // LIKE wildcards are plain characters.
    expect(await get(admin, '?search=%25%25%25')).toEqual([]);
    expect((await get(admin, '?search=_')).length).toBeGreaterThan(0);
    // Combined, and limited to the caller's entries.
    const mine = await get(alice, '?page=1&service=api&level=warning&search=activity');
    expect(mine.pagination.totalItems).toBe(BAD_REQUESTS);
    expect(mine.data.every((r: { message: string }) => r.message === 'GET /api/activity 400')).toBe(true);
    expect((await get(bob, '?search=activity')).length).toBe(0);
  });

  it('bounds the settings viewer by limit, keeping the newest', async () => {
    const all: ViewerEntry[] = await get(admin, '?level=warn&search=activity');
    const two: ViewerEntry[] = await get(admin, '?level=warn&search=activity&limit=2');
    expect(two.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
  });

  it('logs the log reads themselves, after the next flush', async () => {
    await server.app.basalt.logs.flush();
    const before = (await get(bob, '?page=1')).pagination.totalItems;
    await server.app.basalt.logs.flush();
    const after = await get(bob, '?page=1');
    expect(after.pagination.totalItems).toBe(before + 1);
    expect(after.data[0]).toMatchObject({ message: 'GET /api/logs 200', service: 'api', level: 'info' });
  });
});
