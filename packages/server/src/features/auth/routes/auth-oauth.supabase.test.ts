import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeveloper } from '../../../testing/apps.fixtures.js';
import { keyHeaders, startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { authClient, followRedirects, fragmentOf } from '../../../testing/auth-flows.fixtures.js';
import { type FakeIssuer, type OidcIssuer, startFakeIssuer, startOidcIssuer } from '../../../testing/oidc.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// "Sign in with …" through the unmodified supabase-js against a real OpenID Connect provider run by the test
// (oidc-provider: discovery, JWKS, signed ID tokens), over real HTTP: the implicit flow and PKCE
// (signInWithOAuth, exchangeCodeForSession), account linking, linkIdentity / unlinkIdentity, for console accounts
// (a provider from the environment) and an app's users (a provider in the app's settings). A fake issuer shows
// that a forged state, a wrong verifier and an ID token with a foreign signature, audience or nonce are refused.

const ACME = { sub: 'acme-ada', email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace' };

describe.each(testDialects)('OAuth / OpenID Connect sign-in on %s', (dialect) => {
  let issuer: OidcIssuer;
  let fake: FakeIssuer;
  let server: TestServer;
  let appAnon = '';
  beforeAll(async () => {
    issuer = await startOidcIssuer();
    fake = await startFakeIssuer('fake-client');
    server = await startAuthServer(dialect, {
      oauthProviders: [
        {
          kind: 'oidc',
          id: 'custom:acme',
          name: 'Acme',
          clientId: 'basalt-console',
          clientSecret: 'console-secret',
          url: issuer.issuer,
        },
      ],
    });
    const callback = `${server.url}/auth/v1/callback`;
    issuer.register([
      { clientId: 'basalt-console', clientSecret: 'console-secret', redirectUri: callback },
      { clientId: 'basalt-app', clientSecret: 'app-secret', redirectUri: callback },
    ]);
    const dev = await startDeveloper(server, users.erin);
    appAnon = dev.app.anonKey;
    const patched = await server.request('PATCH', '/api/app', {
      headers: dev.headers,
      json: {
        settings: {
          redirectUrls: ['http://app.test/'],
          providers: [
            { kind: 'oidc', name: 'Acme', clientId: 'basalt-app', clientSecret: 'app-secret', url: issuer.issuer },
            { kind: 'oidc', name: 'Fake', clientId: 'fake-client', clientSecret: 'fake-secret', url: fake.issuer },
          ],
        },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.settings.providers).toEqual([
      expect.objectContaining({ id: 'custom:acme', hasClientSecret: true }),
      expect.objectContaining({ id: 'custom:fake', hasClientSecret: true }),
    ]);
    expect(JSON.stringify(patched.body)).not.toContain('app-secret');
  });
  afterAll(async () => {
    await server.close();
    await issuer.close();
    await fake.close();
  });

  // Where the browser lands: a page of the app (not Basalt's /auth/v1, not the provider).
  const landed = (url: URL) =>
    !url.pathname.startsWith('/auth/v1/') && url.origin !== issuer.issuer && url.origin !== fake.issuer;

  const pools = () => [
    {
      name: 'console accounts',
      key: server.anonKey,
      query: {} as Record<string, string>,
      landing: `${server.url}/welcome`,
    },
    { name: 'app users', key: appAnon, query: { apikey: appAnon }, landing: 'http://app.test/welcome' },
  ];

  it('reports the configured providers in /settings, per pool', async () => {
    const consoleSettings = await server.request('GET', '/auth/v1/settings', { headers: keyHeaders(server.anonKey) });
    expect(consoleSettings.body.providers).toEqual([{ id: 'custom:acme', name: 'Acme' }]);
    const appSettings = await server.request('GET', '/auth/v1/settings', { headers: keyHeaders(appAnon) });
    expect(appSettings.body.providers.map((p: { id: string }) => p.id)).toEqual(['custom:acme', 'custom:fake']);
    expect(appSettings.body.external.github).toBe(false);
  });

  it.each([0, 1])('signs in with the implicit flow (pool %i): the session in the fragment', async (index) => {
    const pool = pools()[index] ?? pools()[0];
    if (!pool) throw new Error('no pool');
    issuer.signInAs({ ...ACME, sub: `implicit-${index}`, email: `implicit${index}@acme.test` });
    const client = authClient(server, pool.key);
    const { data, error } = await client.auth.signInWithOAuth({
      provider: 'custom:acme' as 'github',
      options: { redirectTo: pool.landing, skipBrowserRedirect: true, queryParams: pool.query },
    });
    expect(error).toBeNull();
    const url = await followRedirects(data.url ?? '', landed);
    expect(`${url.origin}${url.pathname}`).toBe(pool.landing);
    const fragment = fragmentOf(url);
    expect(fragment).toMatchObject({ token_type: 'bearer', provider_token: expect.any(String) });
    const user = await client.auth.getUser(fragment.access_token);
    expect(user.data.user).toMatchObject({
      email: `implicit${index}@acme.test`,
      app_metadata: { provider: 'custom:acme', providers: ['custom:acme'] },
      user_metadata: { name: 'Ada Lovelace', email_verified: true },
    });
    expect(user.data.user?.identities?.map((i) => [i.provider, i.id])).toEqual([['custom:acme', `implicit-${index}`]]);
  });

  it.each([0, 1])('signs in with PKCE (pool %i): ?code= traded by exchangeCodeForSession', async (index) => {
    const pool = pools()[index];
    if (!pool) throw new Error('no pool');
    issuer.signInAs({ ...ACME, sub: `pkce-${index}`, email: `pkce${index}@acme.test` });
    const client = authClient(server, pool.key, { pkce: true });
    const { data } = await client.auth.signInWithOAuth({
      provider: 'custom:acme' as 'github',
      options: { redirectTo: pool.landing, skipBrowserRedirect: true, queryParams: pool.query },
    });
    const seen: string[] = [];
    const url = await followRedirects(data.url ?? '', landed, seen);
    const code = url.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    // The provider's callback replayed: the state was used.
    const callback = seen.find((s) => s.includes('/auth/v1/callback')) ?? '';
    const replayed = await followRedirects(callback, landed);
    expect(Object.fromEntries(replayed.searchParams)).toMatchObject({ error_code: 'flow_state_already_used' });

    const exchanged = await client.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(`pkce${index}@acme.test`);
    expect(exchanged.data.session?.provider_token).toEqual(expect.any(String));
  });

  it('signs in when the provider posts the callback as a form (response_mode=form_post)', async () => {
    const pool = pools()[1];
    if (!pool) throw new Error('no pool');
    issuer.signInAs({ ...ACME, sub: 'form-post', email: 'formpost@acme.test' });
    const client = authClient(server, pool.key);
    const { data } = await client.auth.signInWithOAuth({
      provider: 'custom:acme' as 'github',
      options: { redirectTo: pool.landing, skipBrowserRedirect: true, queryParams: pool.query },
    });
    const atCallback = await followRedirects(data.url ?? '', (url) => url.pathname === '/auth/v1/callback');
    const posted = await fetch(`${server.url}/auth/v1/callback`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: atCallback.searchParams.toString(),
    });
    expect(posted.status).toBe(302);
    const landing = new URL(posted.headers.get('location') ?? '');
    expect(`${landing.origin}${landing.pathname}`).toBe(pool.landing);
    expect(fragmentOf(landing)).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
    const refused = await fetch(`${server.url}/auth/v1/callback`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: atCallback.searchParams.toString(),
    });
    // The implicit flow's state is spent: posted again, it is unknown.
    expect(fragmentOf(new URL(refused.headers.get('location') ?? ''))).toMatchObject({ error_code: 'bad_oauth_state' });
  });

  it('links an identity to the user of the same verified address', async () => {
    const client = authClient(server, appAnon);
    await client.auth.signUp({ email: 'linked@acme.test', password: users.alice.password });
    issuer.signInAs({ ...ACME, sub: 'linked', email: 'linked@acme.test' });
    const { data } = await authClient(server, appAnon).auth.signInWithOAuth({
      provider: 'custom:acme' as 'github',
      options: { redirectTo: 'http://app.test/', skipBrowserRedirect: true, queryParams: { apikey: appAnon } },
    });
    const fragment = fragmentOf(await followRedirects(data.url ?? '', landed));
    const user = await client.auth.getUser(fragment.access_token);
    expect(user.data.user?.identities?.map((i) => i.provider)).toEqual(['email', 'custom:acme']);
    expect(user.data.user?.app_metadata.providers).toEqual(['email', 'custom:acme']);
  });

  it('links and unlinks an identity with linkIdentity and unlinkIdentity; never the last one', async () => {
    const client = authClient(server, appAnon, { pkce: false });
    const session = await client.auth.signUp({ email: 'linker@example.com', password: users.alice.password });
    await client.auth.setSession({
      access_token: session.data.session?.access_token ?? '',
      refresh_token: session.data.session?.refresh_token ?? '',
    });
    issuer.signInAs({ ...ACME, sub: 'linker-acme', email: 'linker@acme.test' });
    const linked = await client.auth.linkIdentity({
      provider: 'custom:acme' as 'github',
      options: { redirectTo: 'http://app.test/linked', skipBrowserRedirect: true },
    });
    expect(linked.error).toBeNull();
    const landing = await followRedirects(linked.data.url ?? '', landed);
    expect(landing.hash).toContain('access_token=');
    const identities = await client.auth.getUserIdentities();
    expect(identities.data?.identities.map((i) => i.provider)).toEqual(['email', 'custom:acme']);

    const again = await client.auth.linkIdentity({
      provider: 'custom:acme' as 'github',
      options: { redirectTo: 'http://app.test/linked', skipBrowserRedirect: true },
    });
    const refused = await followRedirects(again.data.url ?? '', landed);
    expect(fragmentOf(refused)).toMatchObject({ error_code: 'identity_already_exists' });

    const acme = identities.data?.identities.find((i) => i.provider === 'custom:acme');
    expect((await client.auth.unlinkIdentity(acme as NonNullable<typeof acme>)).error).toBeNull();
    const left = (await client.auth.getUserIdentities()).data?.identities ?? [];
    expect(left.map((i) => i.provider)).toEqual(['email']);
    const last = await client.auth.unlinkIdentity(left[0] as NonNullable<(typeof left)[0]>);
    expect(last.error).toMatchObject({ status: 422, code: 'single_identity_not_deletable' });
  });

  it('refuses a forged or missing state, an unknown provider and a mismatched verifier, never with a 500', async () => {
    const forged = await fetch(`${server.url}/auth/v1/callback?state=${crypto.randomUUID()}&code=abc`, {
      redirect: 'manual',
    });
    expect(forged.status).toBe(302);
    expect(fragmentOf(new URL(forged.headers.get('location') ?? ''))).toMatchObject({ error_code: 'bad_oauth_state' });
    const missing = await fetch(`${server.url}/auth/v1/callback?code=abc`, { redirect: 'manual' });
    expect(fragmentOf(new URL(missing.headers.get('location') ?? ''))).toMatchObject({
      error_code: 'bad_oauth_callback',
    });
    const unknown = await server.request('GET', '/auth/v1/authorize?provider=myspace');
    expect(unknown.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
    const badKey = await server.request('GET', '/auth/v1/authorize?provider=custom:acme&apikey=nope');
    expect(badKey.status).toBe(401);

    issuer.signInAs({ ...ACME, sub: 'verifier', email: 'verifier@acme.test' });
    const client = authClient(server, appAnon, { pkce: true });
    const { data } = await client.auth.signInWithOAuth({
      provider: 'custom:acme' as 'github',
      options: { redirectTo: 'http://app.test/', skipBrowserRedirect: true, queryParams: { apikey: appAnon } },
    });
    const code = (await followRedirects(data.url ?? '', landed)).searchParams.get('code');
    const wrong = await server.request('POST', '/auth/v1/token?grant_type=pkce', {
      headers: keyHeaders(appAnon),
      json: { auth_code: code, code_verifier: 'z'.repeat(43) },
    });
    expect(wrong.body).toMatchObject({ code: 400, error_code: 'bad_code_verifier' });
    // The console accounts' pool does not know an app's code.
    const elsewhere = await server.request('POST', '/auth/v1/token?grant_type=pkce', {
      headers: keyHeaders(server.anonKey),
      json: { auth_code: code, code_verifier: 'z'.repeat(43) },
    });
    expect(elsewhere.body).toMatchObject({ code: 404, error_code: 'flow_state_not_found' });
  });

  it.each([
    ['foreign-key', 'signature'],
    ['other-audience', 'aud'],
    ['other-nonce', 'nonce'],
  ] as const)('refuses an ID token with a %s (%s)', async (mode, word) => {
    fake.mode = mode;
    const { data } = await authClient(server, appAnon).auth.signInWithOAuth({
      provider: 'custom:fake' as 'github',
      options: { redirectTo: 'http://app.test/', skipBrowserRedirect: true, queryParams: { apikey: appAnon } },
    });
    const url = await followRedirects(data.url ?? '', landed);
    const fragment = fragmentOf(url);
    expect(fragment).toMatchObject({ error_code: 'bad_oauth_callback' });
    expect(fragment.error_description).toContain(word);
    expect(fragment.access_token).toBeUndefined();
  });

  it('signs in with the fake issuer once its ID token is right', async () => {
    fake.mode = 'good';
    const { data } = await authClient(server, appAnon).auth.signInWithOAuth({
      provider: 'custom:fake' as 'github',
      options: { redirectTo: 'http://app.test/', skipBrowserRedirect: true, queryParams: { apikey: appAnon } },
    });
    const fragment = fragmentOf(await followRedirects(data.url ?? '', landed));
    expect(fragment.access_token).toEqual(expect.any(String));
  });
});
