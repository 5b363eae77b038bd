import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appClient, startDeveloper } from '../../testing/apps.fixtures.js';
import { keyHeaders, type SignedInTestUser, signUpUser, users } from '../../testing/auth.fixtures.js';
import { createTestDatabase, startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The instance's settings an administrator changes: closing console sign-ups (every way an account is made by
// itself: the console's form, GoTrue's /signup, magic links) and the terms URL the registration form links to.

describe.each(testDialects)('instance settings on %s', (dialect) => {
  let server: TestServer;
  let admin: SignedInTestUser;
  let bob: SignedInTestUser;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
  });
  afterAll(() => server.close());

  const patch = (headers: Record<string, string>, json: unknown) =>
    server.request('PATCH', '/api/admin/instance', { headers, json });
  const config = async () => (await server.request('GET', '/api/config')).body;

  it('opens sign-ups and has no terms by default, as /api/config tells the console', async () => {
    expect(await config()).toMatchObject({ signupsAllowed: true, termsUrl: null });
    const res = await server.request('GET', '/api/admin/instance', { headers: admin.headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signupsAllowed: true, termsUrl: null });
  });

  it('lets only an administrator see or change them', async () => {
    expect((await server.request('GET', '/api/admin/instance', { headers: bob.headers })).status).toBe(403);
    const refused = await patch(bob.headers, { signupsAllowed: false });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('not_admin');
    expect((await server.request('PATCH', '/api/admin/instance', { json: { signupsAllowed: false } })).status).toBe(
      401,
    );
    expect((await patch(keyHeaders(server.anonKey), { signupsAllowed: false })).status).toBe(401);
    // An app's end user is nobody here.
    const dev = await startDeveloper(server, users.carol);
    const endUser = await appClient(server, dev.app.anonKey).auth.signUp({
      email: 'eu@example.com',
      password: 'end user',
    });
    const asEndUser = await patch(
      { apikey: dev.app.anonKey, authorization: `Bearer ${endUser.data.session?.access_token}` },
      { signupsAllowed: false },
    );
    expect(asEndUser.status).toBeGreaterThanOrEqual(401);
    expect(asEndUser.status).toBeLessThan(404);
    expect(await config()).toMatchObject({ signupsAllowed: true });
  });

  it('refuses bad input with the field and changes nothing', async () => {
    for (const body of [
      { signupsAllowed: 'no' },
      { signupsAllowed: null },
      { termsUrl: 'javascript:alert(1)' },
      { termsUrl: '../../etc/passwd' },
      { termsUrl: `https://example.com/${'x'.repeat(2100)}` },
      { termsUrl: 'https://example.com/a\u0000b' },
      { termsUrl: 42 },
      { termsUrl: { nested: { deeper: 'https://example.com' } } },
      { unknown: true },
      [],
      'signupsAllowed=false',
    ]) {
      const res = await patch(admin.headers, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect(await config()).toMatchObject({ signupsAllowed: true, termsUrl: null });
  });

  it('closes console sign-ups every way, while apps keep their own and the administrator still adds accounts', async () => {
    const closed = await patch(admin.headers, { signupsAllowed: false, termsUrl: ' https://example.com/terms ' });
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({ signupsAllowed: false, termsUrl: 'https://example.com/terms' });
    expect(await config()).toMatchObject({ signupsAllowed: false, termsUrl: 'https://example.com/terms' });

    const viaGoTrue = await appClient(server, server.anonKey).auth.signUp({
      email: 'newcomer@example.com',
      password: 'Newcomer-Passw0rd!',
    });
    expect(viaGoTrue.error).toMatchObject({ status: 422, code: 'signup_disabled' });
    const viaConsole = await server.request('POST', '/api/auth/register', {
      json: { username: 'newcomer', email: 'newcomer@example.com', password: 'Newcomer-Passw0rd!' },
    });
    expect(viaConsole.status).toBe(403);
    expect(viaConsole.body.code).toBe('signup_disabled');
    const settings = await server.request('GET', '/auth/v1/settings', { headers: keyHeaders(server.anonKey) });
    expect(settings.body.disable_signup).toBe(true);
    // A magic link for an unknown address creates nobody.
    await appClient(server, server.anonKey).auth.signInWithOtp({ email: 'magic@example.com' });
    const admins = await server.request('GET', '/auth/v1/admin/users', { headers: keyHeaders(server.serviceKey) });
    expect(admins.body.users.map((u: { email: string }) => u.email)).not.toContain('magic@example.com');

    // Existing accounts still sign in; the administrator adds accounts; apps decide for themselves.
    expect((await appClient(server, server.anonKey).auth.signInWithPassword(users.bob)).error).toBeNull();
    const added = await server.request('POST', '/auth/v1/admin/users', {
      headers: keyHeaders(server.serviceKey),
      json: { email: 'added@example.com', password: 'Added-Passw0rd!', email_confirm: true },
    });
    expect(added.status).toBe(200);
    const dev = await startDeveloperOrExisting();
    const appSignUp = await appClient(server, dev).auth.signUp({
      email: 'app-user@example.com',
      password: 'app user pw',
    });
    expect(appSignUp.error).toBeNull();

    const reopened = await patch(admin.headers, { signupsAllowed: true, termsUrl: '' });
    expect(reopened.body).toEqual({ signupsAllowed: true, termsUrl: null });
    const again = await appClient(server, server.anonKey).auth.signUp({
      email: 'newcomer@example.com',
      password: 'Newcomer-Passw0rd!',
    });
    expect(again.error).toBeNull();
  });

  async function startDeveloperOrExisting(): Promise<string> {
    const app = await server.request('GET', '/api/app', { headers: bob.headers });
    return app.body.anonKey;
  }
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('instance settings on two nodes of one PostgreSQL', () => {
  it('closes sign-ups on every node at once', async () => {
    const database = await createTestDatabase();
    const first = await startTestServer('postgres', { databaseUrl: database.url });
    const second = await startTestServer('postgres', { databaseUrl: database.url });
    try {
      const admin = await signUpUser(first, users.alice);
      // The second node has read (and cached) the open setting.
      expect((await second.request('GET', '/api/config')).body.signupsAllowed).toBe(true);
      const res = await first.request('PATCH', '/api/admin/instance', {
        headers: admin.headers,
        json: { signupsAllowed: false },
      });
      expect(res.status).toBe(200);
      let seen = true;
      for (let i = 0; i < 100 && seen; i++) {
        seen = (await second.request('GET', '/api/config')).body.signupsAllowed;
        if (seen) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(seen).toBe(false);
      const refused = await appClient(second, second.anonKey).auth.signUp({
        email: 'late@example.com',
        password: 'Late-Passw0rd!1',
      });
      expect(refused.error).toMatchObject({ code: 'signup_disabled' });
    } finally {
      await second.close();
      await first.close();
      await database.drop();
    }
  });
});
