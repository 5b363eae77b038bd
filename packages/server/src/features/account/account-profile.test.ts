import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountHolder,
  bearer,
  fieldError,
  signUpAccountHolder,
  userRouteScenarios,
} from '../../testing/account.fixtures.js';
import {
  type ApiScenario,
  keyHeaders,
  runScenario,
  type SignedInTestUser,
  signInUser,
  signTestToken,
  signUpUser,
  startAuthServer,
  users,
} from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// GET and PATCH /api/user/profile without mail configured: a new email takes effect at once. The path through a
// confirmation mail is in user-email-change.test.ts.

const PROFILE = '/api/user/profile';

describe.each(testDialects)('the profile on %s', (dialect) => {
  let server: TestServer;
  let alice: AccountHolder;
  let bob: SignedInTestUser;
  let carol: SignedInTestUser;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpAccountHolder(server, users.alice);
    bob = await signUpUser(server, users.bob);
    carol = await signUpUser(server, users.carol);
  });
  afterAll(() => server.close());

  const asAlice = () => bearer(alice.accessToken);
  const patch = (json: unknown, headers: Record<string, string> = asAlice()) =>
    server.request('PATCH', PROFILE, { headers, json });
  const profileOf = async (user: SignedInTestUser) =>
    (await server.request('GET', PROFILE, { headers: bearer(user.accessToken) })).body;
  const accountRow = (id: string) =>
    server.app.basalt.db.kysely.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('GET /api/user/profile', () => {
    const scenarios: ApiScenario[] = [
      {
        name: 'no credentials',
        method: 'GET',
        url: PROFILE,
        status: 401,
        expected: { code: 'unauthorized', message: 'Authentication required' },
      },
      {
        name: 'an API key',
        method: 'GET',
        url: PROFILE,
        headers: () => alice.keyHeaders,
        status: 403,
        expected: { code: 'api_key_not_allowed' },
      },
      {
        name: 'the anon key',
        method: 'GET',
        url: PROFILE,
        headers: () => keyHeaders(server.anonKey),
        status: 401,
      },
      {
        name: 'a tampered token',
        method: 'GET',
        url: PROFILE,
        headers: () => bearer(`${alice.accessToken.slice(0, -2)}AA`),
        status: 401,
        expected: { code: 'invalid_token' },
      },
      {
        name: 'the signed-in user',
        method: 'GET',
        url: PROFILE,
        headers: asAlice,
        status: 200,
        expected: { username: 'alice', email: users.alice.email, marketingEmails: false, pendingEmail: null },
        expectedHeaders: { 'cache-control': 'no-store' },
      },
      {
        name: 'a cookie session',
        method: 'GET',
        url: PROFILE,
        headers: () => ({ cookie: alice.cookie.cookie }),
        status: 200,
        expected: { username: 'alice' },
      },
    ];
    it.each(scenarios)('$name → $status', async (scenario) => {
      await runScenario(server, scenario);
    });

    it('refuses a token whose session has ended, or a token of no account', async () => {
      const other = await signInUser(server, users.carol);
      await server.request('POST', '/api/auth/logout', { headers: bearer(other.accessToken) });
      const ended = await server.request('GET', PROFILE, { headers: bearer(other.accessToken) });
      expect([ended.status, ended.body.code]).toEqual([401, 'session_not_found']);
      const ghost = await signTestToken(server, { role: 'authenticated', session_id: 'nope' }, { subject: 'ghost' });
      expect((await server.request('GET', PROFILE, { headers: bearer(ghost) })).status).toBe(401);
    });
  });

  describe('PATCH /api/user/profile: refusals change nothing', () => {
    const { credentialRefusals, asHolder: refusal, malformedJson } = userRouteScenarios('PATCH', PROFILE, () => alice);
    const refusals: ApiScenario[] = [
      ...credentialRefusals({ username: 'x_x_x' }),
      refusal(
        'a short username',
        { username: 'ab' },
        400,
        fieldError('username', 'Username must be at least 3 characters'),
      ),
      refusal(
        'a username with spaces',
        { username: 'a b c' },
        400,
        fieldError('username', 'Username can only contain letters, numbers, underscores and hyphens'),
      ),
      refusal(
        'a long username',
        { username: 'a'.repeat(51) },
        400,
        fieldError('username', 'Username cannot exceed 50 characters'),
      ),
      refusal(
        'an invalid email',
        { email: 'not-an-email' },
        400,
        fieldError('email', 'Please enter a valid email address'),
      ),
      refusal(
        'an email that is not text',
        { email: 42 },
        400,
        fieldError('email', 'Please enter a valid email address'),
      ),
      refusal(
        'a marketing switch that is not a boolean',
        { marketingEmails: 'yes' },
        400,
        fieldError('marketingEmails', 'Marketing emails must be true or false'),
      ),
      refusal(
        "another account's username",
        { username: 'bob', marketingEmails: true },
        409,
        fieldError('username', 'This username is already taken', 'username_exists'),
      ),
      refusal(
        "another account's username in other case",
        { username: 'BOB' },
        409,
        fieldError('username', 'This username is already taken', 'username_exists'),
      ),
      refusal(
        "another account's email",
        { email: users.bob.email, marketingEmails: true },
        409,
        fieldError('email', 'An account with this email already exists', 'email_exists'),
      ),
      refusal(
        "another account's email in other case, with spaces",
        { email: `  ${users.bob.email.toUpperCase()} ` },
        409,
        { code: 'email_exists' },
      ),
      malformedJson('{"username":'),
      refusal('a body that is not an object', ['alice2'], 400, { code: 'validation_failed' }),
    ];
    it.each(refusals)('$name → $status', async (scenario) => {
      await runScenario(server, scenario);
      expect(await profileOf(alice)).toEqual({
        id: alice.id,
        username: 'alice',
        email: users.alice.email,
        marketingEmails: false,
        pendingEmail: null,
      });
    });
  });

  describe('PATCH /api/user/profile: changes', () => {
    it('changes only the fields sent, and records the change in the activity feed', async () => {
      const res = await patch({ marketingEmails: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        profile: {
          id: alice.id,
          username: 'alice',
          email: users.alice.email,
          marketingEmails: true,
          pendingEmail: null,
        },
        emailChangePending: false,
      });
      expect((await accountRow(alice.id)).marketing_emails).toBe(1);
      const activity = await server.request('GET', '/api/activity', { headers: asAlice() });
      expect(activity.body.data[0]).toMatchObject({
        action: 'UPDATE',
        resource: 'profile',
        details: { fields: ['marketingEmails'] },
      });
    });

    it('accepts the form as the console sends it, unchanged values included, writing nothing then', async () => {
      const before = (await accountRow(alice.id)).updated_at;
      const res = await patch({ username: 'alice', email: users.alice.email, marketingEmails: true });
      expect(res.status).toBe(200);
      expect(res.body.profile).toMatchObject({ username: 'alice', marketingEmails: true });
      expect((await accountRow(alice.id)).updated_at).toBe(before);
      expect((await patch({})).status).toBe(200);
    });

    it('renames the user everywhere the username is shown, and frees the old name', async () => {
      const res = await patch({ username: 'alice_w', marketingEmails: false });
      expect(res.body.profile).toMatchObject({ username: 'alice_w', marketingEmails: false });
      const me = await server.request('GET', '/api/auth/me', { headers: asAlice() });
      expect(me.body.user.username).toBe('alice_w');
      const gotrue = await server.request('GET', '/auth/v1/user', { headers: alice.headers });
      expect(gotrue.body.user_metadata.username).toBe('alice_w');
      // A case change of one's own name is no clash.
      expect((await patch({ username: 'Alice_W' })).body.profile.username).toBe('Alice_W');
      // The old name is free again.
      const taken = await server.request('PATCH', PROFILE, {
        headers: bearer(carol.accessToken),
        json: { username: 'alice' },
      });
      expect(taken.status).toBe(200);
      expect((await patch({ username: 'alice' })).status).toBe(409);
      await server.request('PATCH', PROFILE, {
        headers: bearer(carol.accessToken),
        json: { username: 'carol' },
      });
      expect((await patch({ username: 'alice' })).body.profile.username).toBe('alice');
    });

    it('changes the email at once when no mail is configured; the new address signs in', async () => {
      const res = await patch({ email: '  Alice.New@Example.com ' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        profile: expect.objectContaining({ email: 'alice.new@example.com', pendingEmail: null }),
        emailChangePending: false,
      });
      const signIn = (email: string) =>
        server.request('POST', '/api/auth/login', { json: { email, password: users.alice.password } });
      expect((await signIn(users.alice.email)).status).toBe(401);
      expect((await signIn('alice.new@example.com')).status).toBe(200);
      // The old address is free for someone else.
      expect((await patch({ email: users.alice.email })).status).toBe(200);
    });

    it('works from a cookie session with the CSRF token, as the console sends it', async () => {
      const res = await patch({ marketingEmails: true }, alice.cookie.headers);
      expect([res.status, res.body.profile.marketingEmails]).toEqual([200, true]);
    });

    it("changes only the caller's account, whatever ids the body names", async () => {
      const res = await patch({ id: bob.id, userId: bob.id, username: 'alice2' });
      expect(res.body.profile).toMatchObject({ id: alice.id, username: 'alice2' });
      expect(await profileOf(bob)).toMatchObject({ id: bob.id, username: 'bob', email: users.bob.email });
      await patch({ username: 'alice' });
    });

    it('lets an account without a stored username take one', async () => {
      const res = await server.request('POST', '/auth/v1/signup', {
        headers: keyHeaders(server.anonKey),
        json: { email: 'nameless@example.com', password: users.dave.password },
      });
      const token = res.body.access_token;
      expect((await server.request('GET', PROFILE, { headers: bearer(token) })).body.username).toBe('nameless');
      const named = await server.request('PATCH', PROFILE, {
        headers: bearer(token),
        json: { username: 'nameless' },
      });
      expect(named.status).toBe(200);
      expect((await accountRow(named.body.profile.id)).username_key).toBe('nameless');
    });
  });
});
