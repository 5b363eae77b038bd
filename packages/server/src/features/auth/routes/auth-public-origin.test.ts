import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localOriginOf } from '../../../http/public-origin.js';
import { keyHeaders, startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { startMailbox, type TestMailbox } from '../../../testing/auth-mail.fixtures.js';
import type { TestServer } from '../../../testing/test-server.js';

// Without SITE_URL, the mail links and the OAuth callback follow the address a person reached the server at
// (issue 35: they named the server's own default URL, localhost:<port>, while the console was open at
// 127.0.0.1:<port>): "one app URL everywhere", as the console shows it. Only a Host naming this machine is
// taken; any other Host falls back to the default, so nobody can have a reset link point at their own site.

const GITHUB = {
  kind: 'github',
  id: 'github',
  name: 'GitHub',
  clientId: 'id',
  clientSecret: 'secret',
  url: null,
} as const;

/** call sends a request with a Host header of our choosing (fetch does not let a caller set Host). */
function call(server: TestServer, method: string, path: string, host: string, body?: unknown) {
  const { port } = new URL(server.url);
  return new Promise<{ status: number; location: string | undefined; text: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host, 'content-type': 'application/json', ...keyHeaders(server.anonKey) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }));
      },
    );
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('the public URL without SITE_URL', () => {
  let mailbox: TestMailbox;
  let server: TestServer;
  let port = '';
  beforeAll(async () => {
    mailbox = await startMailbox();
    // The server's default URL (what it said before): not the address the test reaches it at.
    server = await startAuthServer('sqlite', {
      smtpUrl: mailbox.url,
      siteUrl: 'http://localhost:1',
      siteUrlConfigured: false,
      oauthProviders: [GITHUB],
    });
    port = new URL(server.url).port;
    const signUp = await server.request('POST', '/auth/v1/signup', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.alice.email, password: users.alice.password },
    });
    expect(signUp.status, signUp.text).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await mailbox.close();
  });

  it('gives mail links the address the request came to, and lets the console`s reset page be their target', async () => {
    const origin = `http://127.0.0.1:${port}`;
    const sent = await call(
      server,
      'POST',
      `/auth/v1/recover?redirect_to=${origin}/reset-password`,
      `127.0.0.1:${port}`,
      {
        email: users.alice.email,
      },
    );
    expect(sent.status, sent.text).toBe(200);
    const mail = await mailbox.latest(users.alice.email);
    expect(mail.link.startsWith(`${origin}/auth/v1/verify?`)).toBe(true);
    expect(new URL(mail.link).searchParams.get('redirect_to')).toBe(`${origin}/reset-password`);
  });

  it('answers the OAuth callback at the address the request came to', async () => {
    const started = await call(server, 'GET', '/auth/v1/authorize?provider=github', `localhost:${port}`);
    expect(started.status, started.text).toBe(302);
    const redirectUri = new URL(started.location ?? '').searchParams.get('redirect_uri');
    expect(redirectUri).toBe(`http://localhost:${port}/auth/v1/callback`);
  });

  it('never takes a Host that does not name this machine', async () => {
    const started = await call(server, 'GET', '/auth/v1/authorize?provider=github', 'evil.example');
    expect(new URL(started.location ?? '').searchParams.get('redirect_uri')).toBe(
      'http://localhost:1/auth/v1/callback',
    );
    expect(localOriginOf({ host: 'evil.example:8787' })).toBeNull();
    expect(localOriginOf({ host: '127.0.0.1:8787' })).toBe('http://127.0.0.1:8787');
    expect(localOriginOf({ host: 'LOCALHOST' })).toBe('http://localhost');
    expect(localOriginOf({ host: '[::1]:80' })).toBe('http://[::1]:80');
    expect(localOriginOf({ host: '127.0.0.1:8787/x' })).toBeNull();
    expect(localOriginOf({})).toBeNull();
  });
});

describe('the public URL with SITE_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer('sqlite', {
      siteUrl: 'https://api.example.com',
      siteUrlConfigured: true,
      oauthProviders: [GITHUB],
    });
  });
  afterAll(() => server.close());

  it('is SITE_URL whatever address the request came to', async () => {
    const { port } = new URL(server.url);
    const started = await call(server, 'GET', '/auth/v1/authorize?provider=github', `127.0.0.1:${port}`);
    expect(new URL(started.location ?? '').searchParams.get('redirect_uri')).toBe(
      'https://api.example.com/auth/v1/callback',
    );
  });
});
