import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appClient, appKeyHeaders, type Developer, signUpEndUser } from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { startMailbox, type TestMailbox } from '../../testing/auth-mail.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// /auth/v1 with an app's key serves that app's end users with the whole GoTrue subset Basalt speaks (the very
// services console accounts use): sign-up, password sign-in, refresh rotation with reuse detection, the user,
// updates, sign-out, recovery and verification by mail, the admin API with the app's service key, and the app's
// settings (sign-ups, confirmation, token lifetime, redirect URLs). Mail goes to a real SMTP server here.

describe.each(testDialects)("an app's end users on /auth/v1 on %s", (dialect) => {
  let server: TestServer;
  let mailbox: TestMailbox;
  let dev: Developer;

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startAuthServer(dialect, { smtpUrl: mailbox.url });
    // With mail delivered, console sign-ups need confirming too: the developer is confirmed by the admin CLI way.
    const admin = await server.request('POST', '/auth/v1/admin/users', {
      headers: appKeyHeaders(server.serviceKey),
      json: {
        email: users.alice.email,
        password: users.alice.password,
        email_confirm: true,
        user_metadata: { username: 'alice' },
      },
    });
    expect(admin.status).toBe(200);
    dev = await startDeveloperSignedIn();
  });
  afterAll(async () => {
    await server.close();
    await mailbox.close();
  });

  async function startDeveloperSignedIn(): Promise<Developer> {
    const res = await server.request('POST', '/auth/v1/token?grant_type=password', {
      headers: appKeyHeaders(server.anonKey),
      json: { email: users.alice.email, password: users.alice.password },
    });
    const headers = { apikey: server.anonKey, authorization: `Bearer ${res.body.access_token}` };
    const app = await server.request('GET', '/api/app', { headers });
    return {
      id: res.body.user.id,
      accessToken: res.body.access_token,
      headers,
      client: appClient(server, server.anonKey),
      app: app.body,
    };
  }

  const patchApp = (settings: Record<string, unknown>) =>
    server.request('PATCH', '/api/app', { headers: dev.headers, json: { settings } });

  it("reflects the app's settings in GET /auth/v1/settings, and confirms sign-ups by mail when asked", async () => {
    expect(dev.app.settings).toEqual({
      signupsAllowed: true,
      emailConfirmation: true,
      siteUrl: null,
      redirectUrls: [],
      accessTokenLifetime: 3600,
      anonymousSignIns: false,
      mfaEnabled: true,
      passwordReauthentication: false,
      passwordMinLength: 6,
      passwordRequiredCharacters: 'none',
      providers: [],
    });
    const settings = await server.request('GET', '/auth/v1/settings', { headers: appKeyHeaders(dev.app.anonKey) });
    expect(settings.body).toMatchObject({ disable_signup: false, mailer_autoconfirm: false });

    const client = appClient(server, dev.app.anonKey);
    const signedUp = await client.auth.signUp({ email: 'mia@example.com', password: 'Mia-Passw0rd!' });
    expect(signedUp.data.session).toBeNull();
    expect(signedUp.data.user?.email).toBe('mia@example.com');
    const early = await client.auth.signInWithPassword({ email: 'mia@example.com', password: 'Mia-Passw0rd!' });
    expect(early.error?.code).toBe('email_not_confirmed');
    const mail = await mailbox.latest('mia@example.com');
    expect(mail.link).toContain(`ref=${dev.app.ref}`);
    const verified = await client.auth.verifyOtp({ email: 'mia@example.com', token: mail.code, type: 'signup' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe('mia@example.com');
    // The console pool never heard of her.
    const consoleSignIn = await appClient(server, server.anonKey).auth.signInWithPassword({
      email: 'mia@example.com',
      password: 'Mia-Passw0rd!',
    });
    expect(consoleSignIn.error?.code).toBe('invalid_credentials');
  });

  it('follows a confirmation link without any key: the link names the app', async () => {
    await appClient(server, dev.app.anonKey).auth.signUp({ email: 'lee@example.com', password: 'Lee-Passw0rd!' });
    const mail = await mailbox.latest('lee@example.com');
    const res = await fetch(mail.link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('#access_token=');
    const signedIn = await appClient(server, dev.app.anonKey).auth.signInWithPassword({
      email: 'lee@example.com',
      password: 'Lee-Passw0rd!',
    });
    expect(signedIn.error).toBeNull();
  });

  it('turns sign-ups off, and confirmation off, as the settings say', async () => {
    expect((await patchApp({ signupsAllowed: false })).status).toBe(200);
    const refused = await appClient(server, dev.app.anonKey).auth.signUp({
      email: 'no@example.com',
      password: 'No-Passw0rd!1',
    });
    expect(refused.error?.code).toBe('signup_disabled');
    const settings = await server.request('GET', '/auth/v1/settings', { headers: appKeyHeaders(dev.app.anonKey) });
    expect(settings.body.disable_signup).toBe(true);
    expect((await patchApp({ signupsAllowed: true, emailConfirmation: false, accessTokenLifetime: 600 })).status).toBe(
      200,
    );
    const user = await signUpEndUser(server, dev, 'kim@example.com');
    const { data } = await user.client.auth.getSession();
    expect(data.session?.expires_in).toBe(600);
  });

  it('signs in, refreshes with rotation and reuse detection, updates, and signs out', async () => {
    const user = await signUpEndUser(server, dev, 'rob@example.com', 'Rob-Passw0rd!');
    const first = await user.client.auth.signInWithPassword({ email: 'rob@example.com', password: 'Rob-Passw0rd!' });
    const refreshToken = first.data.session?.refresh_token ?? '';
    const rotate = (token: string) =>
      server.request('POST', '/auth/v1/token?grant_type=refresh_token', {
        headers: appKeyHeaders(dev.app.anonKey),
        json: { refresh_token: token },
      });
    const next = await rotate(refreshToken);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(refreshToken);
    expect(next.body.user.id).toBe(user.id);
    const updated = await user.client.auth.updateUser({ data: { theme: 'dark' } });
    expect(updated.data.user?.user_metadata).toMatchObject({ theme: 'dark' });
    const me = await server.request('GET', '/auth/v1/user', { headers: user.headers });
    expect(me.body.user_metadata).toMatchObject({ theme: 'dark' });
    expect((await user.client.auth.signOut()).error).toBeNull();
    expect((await server.request('GET', '/auth/v1/user', { headers: user.headers })).status).toBe(403);
    expect((await server.request('GET', '/rest/v1/anything', { headers: user.headers })).status).toBe(401);
  });

  it('recovers a password by mail, and administers users with the app service key', async () => {
    const client = appClient(server, dev.app.anonKey);
    await signUpEndUser(server, dev, 'zoe@example.com', 'Zoe-Passw0rd!');
    expect((await client.auth.resetPasswordForEmail('zoe@example.com')).error).toBeNull();
    const mail = await mailbox.latest('zoe@example.com');
    expect(mail.subject).toBe('Reset your password');
    const recovered = await client.auth.verifyOtp({ email: 'zoe@example.com', token: mail.code, type: 'recovery' });
    expect(recovered.error).toBeNull();
    expect((await client.auth.updateUser({ password: 'Zoe-New-Passw0rd!' })).error).toBeNull();

    const admin = appClient(server, dev.app.serviceKey).auth.admin;
    const listed = await admin.listUsers({ page: 1, perPage: 100 });
    const emails = listed.data.users.map((u) => u.email).sort();
    expect(emails).toContain('zoe@example.com');
    expect(emails).not.toContain(users.alice.email);
    const duplicate = await admin.createUser({ email: 'ZOE@example.com', password: 'Zoe-Other-Passw0rd!' });
    expect(duplicate.error).toMatchObject({ status: 422, code: 'email_exists' });
    const again = await client.auth.signUp({ email: 'zoe@example.com', password: 'Zoe-Other-Passw0rd!' });
    expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' });
    const badBody = await server.request('POST', '/auth/v1/signup', {
      headers: { ...appKeyHeaders(dev.app.anonKey), 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error_code).toBe('bad_json');
    const created = await admin.createUser({
      email: 'ops@example.com',
      password: 'Ops-Passw0rd!',
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const banned = await admin.updateUserById(created.data.user?.id ?? '', { ban_duration: '24h' });
    expect(banned.data.user?.banned_until).toBeTruthy();
    const refused = await client.auth.signInWithPassword({ email: 'ops@example.com', password: 'Ops-Passw0rd!' });
    expect(refused.error?.code).toBe('user_banned');
    expect((await admin.deleteUser(created.data.user?.id ?? '')).error).toBeNull();
    // The instance's service key administers console accounts, not the app's users.
    const consoleAdmin = await server.request('GET', '/auth/v1/admin/users', {
      headers: appKeyHeaders(server.serviceKey),
    });
    expect(consoleAdmin.body.users.map((u: { email: string }) => u.email)).not.toContain('zoe@example.com');
  });

  it('refuses bad settings with the field named, and never answers 500', async () => {
    const cases: Array<[unknown, string]> = [
      [{ settings: { accessTokenLifetime: 10 } }, 'settings.accessTokenLifetime'],
      [{ settings: { siteUrl: 'not a url' } }, 'settings.siteUrl'],
      [{ settings: { redirectUrls: 'https://x.example' } }, 'settings.redirectUrls'],
      [{ settings: { signupsAllowed: 'yes' } }, 'settings.signupsAllowed'],
      [{ settings: { colour: 'red' } }, 'settings'],
      [{}, 'settings'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('PATCH', '/api/app', { headers: dev.headers, json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.validationErrors ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect((await server.request('PATCH', '/api/app', { headers: dev.headers, body: 'nope' })).status).toBe(400);
  });
});
