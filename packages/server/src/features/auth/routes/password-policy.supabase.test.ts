import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appClient, type Developer, startDeveloper } from '../../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// Each app's own password policy for its end users (Supabase's minimum length and required characters), with
// Supabase's default of at least 6 characters of any kind, through the unmodified supabase-js. Console accounts
// keep their stricter rules.

describe.each(testDialects)("an app's password policy on %s", (dialect) => {
  let server: TestServer;
  let dev: Developer;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
  });
  afterAll(() => server.close());

  const patchApp = (settings: unknown) =>
    server.request('PATCH', '/api/app', { headers: dev.headers, json: { settings } });
  const signUp = (email: string, password: string) =>
    appClient(server, dev.app.anonKey).auth.signUp({ email, password });

  it("accepts the README's quick-start password by default, and refuses what is shorter than 6", async () => {
    expect(dev.app.settings).toMatchObject({ passwordMinLength: 6, passwordRequiredCharacters: 'none' });
    const quickStart = await signUp('reader@example.com', 'a long passphrase');
    expect(quickStart.error).toBeNull();
    expect(quickStart.data.session).not.toBeNull();
    expect((await signUp('six@example.com', 'sixsix')).error).toBeNull();
    const short = await signUp('five@example.com', 'fivee');
    expect(short.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
    expect(short.error?.message).toBe('Password should be at least 6 characters.');
  });

  it('follows the minimum length and required characters the developer sets, on sign-up and password change', async () => {
    const patched = await patchApp({ passwordMinLength: 10, passwordRequiredCharacters: 'lower_upper_digits' });
    expect(patched.status).toBe(200);
    expect(patched.body.settings).toMatchObject({
      passwordMinLength: 10,
      passwordRequiredCharacters: 'lower_upper_digits',
    });
    const refused = await signUp('weak@example.com', 'all lowercase words');
    expect(refused.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['characters'] });
    expect(refused.error?.message).toBe(
      'Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.',
    );
    const both = await signUp('weak2@example.com', 'ab1');
    expect(both.error).toMatchObject({ code: 'weak_password', reasons: ['length', 'characters'] });
    const ok = await signUp('strong@example.com', 'Correct Horse 9');
    expect(ok.error).toBeNull();
    if (!ok.data.session) throw new Error('no session');
    const change = appClient(server, dev.app.anonKey);
    await change.auth.setSession(ok.data.session);
    const weakChange = await change.auth.updateUser({ password: 'nouppercase1' });
    expect(weakChange.error).toMatchObject({ status: 422, code: 'weak_password' });
    expect((await change.auth.updateUser({ password: 'Battery Staple 7' })).error).toBeNull();

    // The Users page's Add User follows the same policy.
    const added = await server.request('POST', '/api/users', {
      headers: dev.headers,
      json: { username: 'added', email: 'added@example.com', password: 'lowercase only' },
    });
    expect(added.status).toBe(400);
    expect(added.body).toMatchObject({
      code: 'weak_password',
      validationErrors: { password: [expect.stringMatching(/at least one character of each/)] },
    });

    // Console accounts keep their own rules whatever the app asks.
    const consoleSignUp = await appClient(server, server.anonKey).auth.signUp({
      email: 'console@example.com',
      password: 'a long passphrase',
    });
    expect(consoleSignUp.error).toMatchObject({ status: 422, code: 'weak_password' });
    await patchApp({ passwordMinLength: 6, passwordRequiredCharacters: 'none' });
  });

  it('refuses a policy it cannot apply, and changes nothing', async () => {
    for (const settings of [
      { passwordMinLength: 5 },
      { passwordMinLength: 101 },
      { passwordMinLength: 7.5 },
      { passwordMinLength: '8' },
      { passwordMinLength: null },
      { passwordRequiredCharacters: 'emoji' },
      { passwordRequiredCharacters: 'none\u0000' },
      { passwordRequiredCharacters: ['none'] },
    ]) {
      const res = await patchApp(settings);
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const app = await server.request('GET', '/api/app', { headers: dev.headers });
    expect(app.body.settings).toMatchObject({ passwordMinLength: 6, passwordRequiredCharacters: 'none' });
    // An end user's token is not the developer's.
    const user = await signUp('enduser@example.com', 'end user pass');
    const asEndUser = await server.request('PATCH', '/api/app', {
      headers: { apikey: dev.app.anonKey, authorization: `Bearer ${user.data.session?.access_token}` },
      json: { settings: { passwordMinLength: 50 } },
    });
    expect(asEndUser.status).toBeGreaterThanOrEqual(400);
    expect(asEndUser.status).toBeLessThan(500);
    const after = await server.request('GET', '/api/app', { headers: dev.headers });
    expect(after.body.settings.passwordMinLength).toBe(6);
  });
});
