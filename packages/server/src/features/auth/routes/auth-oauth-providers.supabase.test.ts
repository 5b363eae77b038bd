import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeveloper } from '../../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { authClient, followRedirects, fragmentOf } from '../../../testing/auth-flows.fixtures.js';
import { type FakeOAuthProvider, startFakeOAuthProvider } from '../../../testing/oidc.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// GitHub and GitLab sign-in through supabase-js, against stand-ins of a GitHub Enterprise and a self-hosted GitLab
// (the providers' `url` setting) on 127.0.0.1: the code exchange with the app's client secret, the user and email
// endpoints, and GoTrue's identity data.

describe.each(testDialects)('GitHub and GitLab sign-in on %s', (dialect) => {
  let server: TestServer;
  let github: FakeOAuthProvider;
  let gitlab: FakeOAuthProvider;
  let appAnon = '';
  let devHeaders: Record<string, string> = {};
  beforeAll(async () => {
    github = await startFakeOAuthProvider('github', { id: 'gh-client', secret: 'gh-secret' });
    gitlab = await startFakeOAuthProvider('gitlab', { id: 'gl-client', secret: 'gl-secret' });
    server = await startAuthServer(dialect);
    const dev = await startDeveloper(server, users.erin);
    appAnon = dev.app.anonKey;
    devHeaders = dev.headers;
    const patched = await server.request('PATCH', '/api/app', {
      headers: dev.headers,
      json: {
        settings: {
          providers: [
            { kind: 'github', clientId: 'gh-client', clientSecret: 'gh-secret', url: github.url },
            { kind: 'gitlab', clientId: 'gl-client', clientSecret: 'gl-secret', url: gitlab.url },
          ],
        },
      },
    });
    expect(patched.status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await github.close();
    await gitlab.close();
  });

  const landed = (url: URL) => url.origin === server.url && !url.pathname.startsWith('/auth/v1/');
  const signIn = async (provider: 'github' | 'gitlab') => {
    const client = authClient(server, appAnon);
    const { data } = await client.auth.signInWithOAuth({
      provider,
      options: { skipBrowserRedirect: true, queryParams: { apikey: appAnon } },
    });
    const fragment = fragmentOf(await followRedirects(data.url ?? '', landed));
    return { client, fragment };
  };

  it('signs in with GitHub: the primary verified address and GoTrue identity data', async () => {
    const { client, fragment } = await signIn('github');
    expect(github.secretsSeen.at(-1)).toBe('gh-secret');
    const { data } = await client.auth.getUser(fragment.access_token);
    expect(data.user).toMatchObject({ email: 'octocat@github.test', app_metadata: { provider: 'github' } });
    expect(data.user?.identities?.[0]).toMatchObject({
      provider: 'github',
      id: '583231',
      identity_data: { user_name: 'octocat', full_name: 'The Octocat', email_verified: true, sub: '583231' },
    });
    const settings = await server.request('GET', '/auth/v1/settings', { headers: { apikey: appAnon } });
    expect(settings.body.external).toMatchObject({ github: true, gitlab: true, google: false });
  });

  it('signs in with GitLab, and signs the same person in again into the same user', async () => {
    const first = await signIn('gitlab');
    const second = await signIn('gitlab');
    const one = await first.client.auth.getUser(first.fragment.access_token);
    const two = await second.client.auth.getUser(second.fragment.access_token);
    expect(one.data.user?.email).toBe('tanuki@gitlab.test');
    expect(two.data.user?.id).toBe(one.data.user?.id);
    expect(one.data.user?.identities?.[0]).toMatchObject({
      provider: 'gitlab',
      identity_data: { user_name: 'tanuki' },
    });
  });

  it('ends in an error redirect, not a 500, when the provider refuses the client secret', async () => {
    await server.request('PATCH', '/api/app', {
      headers: devHeaders,
      json: {
        settings: { providers: [{ kind: 'github', clientId: 'gh-client', clientSecret: 'wrong', url: github.url }] },
      },
    });
    const { fragment } = await signIn('github');
    expect(fragment).toMatchObject({ error_code: 'bad_oauth_callback' });
    expect(fragment.error_description).toContain('401');
  });
});
