import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Developer, signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { type ApiScenario, runScenario, signUpUser, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// The Users page's API: the end users of
// the caller's app, searched and paged on the server, with bad input, unknown and foreign ids, and the
// administrator's console-accounts view.

describe.each(testDialects)('/api/users on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let other: Developer;
  let mine: string;
  let theirs: string;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    other = await startDeveloper(server, users.bob);
    mine = (await signUpEndUser(server, dev, 'ann@example.com')).id;
    theirs = (await signUpEndUser(server, other, 'zed@example.com')).id;
  });
  afterAll(() => server.close());

  const as = (who: () => Developer) => () => who().headers;
  const scenarios: ApiScenario[] = [
    { name: 'no token', method: 'GET', url: '/api/users', status: 401 },
    {
      name: 'creates a user',
      method: 'POST',
      url: '/api/users',
      headers: as(() => dev),
      json: { username: 'bea', email: 'Bea@Example.com', password: 'abcdefgh' },
      status: 201,
      expected: { username: 'bea', email: 'bea@example.com', confirmed: true, lastSignInAt: null, bannedUntil: null },
    },
    {
      name: 'a duplicate email in the app',
      method: 'POST',
      url: '/api/users',
      headers: as(() => dev),
      json: { username: 'ann2', email: 'ann@example.com', password: 'abcdefgh' },
      status: 409,
      expected: {
        code: 'email_exists',
        validationErrors: { email: ['A user with this email address already exists'] },
      },
    },
    {
      name: 'a duplicate username in the app, ignoring case',
      method: 'POST',
      url: '/api/users',
      headers: as(() => dev),
      json: { username: 'BEA', email: 'other@example.com', password: 'abcdefgh' },
      status: 409,
      expected: { code: 'username_exists' },
    },
    {
      name: 'the same email in another app is fine',
      method: 'POST',
      url: '/api/users',
      headers: as(() => other),
      json: { username: 'ann', email: 'ann@example.com', password: 'abcdefgh' },
      status: 201,
    },
    {
      name: 'a short password, a bad email, a short username',
      method: 'POST',
      url: '/api/users',
      headers: as(() => dev),
      json: { username: 'ab', email: 'nope', password: 'short' },
      status: 400,
      expected: {
        validationErrors: {
          username: ['Username must be at least 3 characters'],
          email: ['Invalid email address'],
          password: ['Password must be at least 6 characters'],
        },
      },
    },
    {
      name: 'missing fields',
      method: 'POST',
      url: '/api/users',
      headers: as(() => dev),
      json: {},
      status: 400,
    },
    {
      name: "another account's user is unknown",
      method: 'PATCH',
      url: () => `/api/users/${theirs}`,
      headers: as(() => dev),
      json: { username: 'hacked' },
      status: 404,
      expected: { code: 'user_not_found' },
    },
    {
      name: 'an id that is no UUID',
      method: 'DELETE',
      url: '/api/users/42',
      headers: as(() => dev),
      status: 404,
    },
    {
      name: 'edits a user',
      method: 'PATCH',
      url: () => `/api/users/${mine}`,
      headers: as(() => dev),
      json: { username: 'annie', email: 'annie@example.com' },
      status: 200,
      expected: { username: 'annie', email: 'annie@example.com' },
    },
    {
      name: 'an invalid edit',
      method: 'PATCH',
      url: () => `/api/users/${mine}`,
      headers: as(() => dev),
      json: { email: 'x' },
      status: 400,
      expected: { validationErrors: { email: ['Invalid email address'] } },
    },
    {
      name: 'an edit of an unknown field',
      method: 'PATCH',
      url: () => `/api/users/${mine}`,
      headers: as(() => dev),
      json: { password: 'abcdefgh' },
      status: 400,
    },
    {
      name: 'a bad page',
      method: 'GET',
      url: '/api/users?page=0&limit=1000',
      headers: as(() => dev),
      status: 400,
    },
    {
      name: "a ban of someone else's user",
      method: 'POST',
      url: () => `/api/users/${theirs}/ban`,
      headers: as(() => dev),
      json: { banned: true },
      status: 404,
    },
    {
      name: 'a ban without a flag',
      method: 'POST',
      url: () => `/api/users/${mine}/ban`,
      headers: as(() => dev),
      json: {},
      status: 400,
    },
  ];

  for (const scenario of scenarios) it(scenario.name, () => runScenario(server, scenario).then(() => undefined));

  it('searches by email or username, ignoring case, on the server, and pages', async () => {
    for (let i = 0; i < 25; i++) {
      const res = await server.request('POST', '/api/users', {
        headers: dev.headers,
        json: { username: `member_${i}`, email: `m${i}@club.example`, password: 'abcdefgh' },
      });
      expect(res.status).toBe(201);
    }
    const page = await server.request('GET', '/api/users?search=CLUB.EX&limit=10&page=3', { headers: dev.headers });
    expect(page.body.pagination).toEqual({
      totalItems: 25,
      totalPages: 3,
      currentPage: 3,
      hasNext: false,
      hasPrevious: true,
    });
    expect(page.body.data).toHaveLength(5);
    const byName = await server.request('GET', '/api/users?search=Member_1', { headers: dev.headers });
    expect(byName.body.data.map((u: { username: string }) => u.username).sort()).toEqual([
      'member_1',
      'member_10',
      'member_11',
      'member_12',
      'member_13',
      'member_14',
      'member_15',
      'member_16',
      'member_17',
      'member_18',
      'member_19',
    ]);
    // LIKE's wildcards are plain characters in a search.
    expect((await server.request('GET', '/api/users?search=%25', { headers: dev.headers })).body.data).toEqual([]);
    const none = await server.request('GET', '/api/users?search=nobody-here', { headers: dev.headers });
    expect(none.body).toEqual({
      data: [],
      pagination: { totalItems: 0, totalPages: 1, currentPage: 1, hasNext: false, hasPrevious: false },
    });
  });

  it('bans a user (their token stops at once), lifts the ban, sends a reset mail, deletes', async () => {
    const user = await signUpEndUser(server, dev, 'cam@example.com', 'Cam-Passw0rd!');
    expect((await server.request('GET', '/auth/v1/user', { headers: user.headers })).status).toBe(200);
    const banned = await server.request('POST', `/api/users/${user.id}/ban`, {
      headers: dev.headers,
      json: { banned: true },
    });
    expect(banned.status).toBe(200);
    expect(banned.body.bannedUntil).toBeTruthy();
    expect((await server.request('GET', '/rest/v1/x', { headers: user.headers })).status).toBe(401);
    const signIn = await user.client.auth.signInWithPassword({ email: 'cam@example.com', password: 'Cam-Passw0rd!' });
    expect(signIn.error?.code).toBe('user_banned');
    const lifted = await server.request('POST', `/api/users/${user.id}/ban`, {
      headers: dev.headers,
      json: { banned: false },
    });
    expect(lifted.body.bannedUntil).toBeNull();
    const again = await user.client.auth.signInWithPassword({ email: 'cam@example.com', password: 'Cam-Passw0rd!' });
    expect(again.error).toBeNull();
    const listed = await server.request('GET', '/api/users?search=cam@', { headers: dev.headers });
    expect(listed.body.data[0]).toMatchObject({ email: 'cam@example.com', lastSignInAt: expect.any(String) });

    const reset = await server.request('POST', `/api/users/${user.id}/reset-password`, { headers: dev.headers });
    expect(reset.body).toEqual({ success: true, message: 'Password reset mail sent' });
    const tooSoon = await server.request('POST', `/api/users/${user.id}/reset-password`, { headers: dev.headers });
    expect(tooSoon.status).toBe(429);

    const deleted = await server.request('DELETE', `/api/users/${user.id}`, { headers: dev.headers });
    expect(deleted.body).toMatchObject({ success: true, message: 'User deleted' });
    expect((await server.request('GET', '/auth/v1/user', { headers: user.headers })).status).toBe(403);
    expect((await server.request('DELETE', `/api/users/${user.id}`, { headers: dev.headers })).status).toBe(404);
  });
});

describe.each(testDialects)('/api/admin/accounts on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
  });
  afterAll(() => server.close());

  it('lists, searches, promotes and deletes console accounts, for administrators only', async () => {
    const admin = await signUpUser(server, users.alice);
    const bob = await signUpUser(server, users.bob);
    await signUpEndUser(server, await startDeveloper(server, users.carol), 'enduser@example.com');

    expect((await server.request('GET', '/api/admin/accounts', { headers: bob.headers })).status).toBe(403);
    const list = await server.request('GET', '/api/admin/accounts?search=BOB', { headers: admin.headers });
    expect(list.body.data).toEqual([expect.objectContaining({ id: bob.id, username: 'bob', isAdmin: false })]);
    const all = await server.request('GET', '/api/admin/accounts', { headers: admin.headers });
    expect(all.body.data.map((a: { email: string }) => a.email)).not.toContain('enduser@example.com');

    const promoted = await server.request('PATCH', `/api/admin/accounts/${bob.id}`, {
      headers: admin.headers,
      json: { isAdmin: true },
    });
    expect(promoted.body.isAdmin).toBe(true);
    expect((await server.request('GET', '/api/admin/accounts', { headers: bob.headers })).status).toBe(200);
    const self = await server.request('PATCH', `/api/admin/accounts/${admin.id}`, {
      headers: admin.headers,
      json: { isAdmin: false },
    });
    expect(self.status).toBe(400);
    expect(
      (
        await server.request('PATCH', `/api/admin/accounts/${bob.id}`, {
          headers: admin.headers,
          json: { isAdmin: 'y' },
        })
      ).status,
    ).toBe(400);
    expect((await server.request('DELETE', '/api/admin/accounts/not-a-uuid', { headers: admin.headers })).status).toBe(
      404,
    );

    const deleted = await server.request('DELETE', `/api/admin/accounts/${bob.id}`, { headers: admin.headers });
    expect(deleted.body).toMatchObject({ success: true, message: 'Account deleted' });
    expect((await server.request('GET', '/api/tables', { headers: bob.headers })).status).toBe(401);
  });
});
