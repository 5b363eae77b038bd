import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  runScenario,
  type SignedInTestUser,
  signInUser,
  signUpUser,
  startAuthServer,
  tamper,
  users,
} from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

describe.each(testDialects)('GET /api/activity on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
    // Eleven more entries for alice: 12 in all, so the feed has two pages of 10.
    for (let i = 0; i < 11; i++) alice = await signInUser(server, users.alice);
  });
  afterAll(() => server.close());

  const scenarios: ApiScenario[] = [
    {
      name: 'no credentials',
      method: 'GET',
      url: '/api/activity',
      status: 401,
      expected: { message: 'Authentication required' },
    },
    {
      name: 'a tampered token',
      method: 'GET',
      url: '/api/activity',
      headers: () => ({ authorization: `Bearer ${tamper(alice.accessToken)}` }),
      status: 401,
    },
    {
      name: 'the anon key instead of a user',
      method: 'GET',
      url: '/api/activity',
      headers: () => ({ authorization: `Bearer ${server.anonKey}` }),
      status: 401,
    },
    {
      name: 'page 0',
      method: 'GET',
      url: '/api/activity?page=0',
      headers: () => alice.headers,
      status: 400,
      expected: { validationErrors: { page: [expect.any(String)] } },
    },
    {
      name: 'a limit that is not a number',
      method: 'GET',
      url: '/api/activity?limit=ten',
      headers: () => alice.headers,
      status: 400,
      expected: { validationErrors: { limit: ['limit must be a whole number from 1 to 100'] } },
    },
    {
      name: 'a limit above 100',
      method: 'GET',
      url: '/api/activity?limit=101',
      headers: () => alice.headers,
      status: 400,
    },
  ];
  it.each(scenarios)('refuses $name', (scenario) => runScenario(server, scenario).then(() => undefined));

  it('pages the caller’s own feed, newest first, 10 per page by default', async () => {
    const first = await server.request('GET', '/api/activity?page=1', { headers: alice.headers });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(10);
    expect(first.body.pagination).toEqual({
      totalItems: 12,
      totalPages: 2,
      currentPage: 1,
      hasNext: true,
      hasPrevious: false,
    });
    expect(first.body.data[0]).toMatchObject({ action: 'LOGIN', resource: 'auth' });
    const ids = first.body.data.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const second = await server.request('GET', '/api/activity?page=2&limit=10', { headers: alice.headers });
    expect(second.body.data).toHaveLength(2);
    expect(second.body.pagination).toMatchObject({ currentPage: 2, hasNext: false, hasPrevious: true });
    expect(second.body.data.at(-1)).toMatchObject({ action: 'REGISTER', details: { username: users.alice.username } });
  });

  it('never shows another account’s entries', async () => {
    const res = await server.request('GET', '/api/activity', { headers: bob.headers });
    expect(res.body.pagination.totalItems).toBe(1);
    expect(res.body.data[0]).toMatchObject({ action: 'REGISTER', details: { username: users.bob.username } });
  });
});
