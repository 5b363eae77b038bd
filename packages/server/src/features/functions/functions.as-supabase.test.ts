import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { deployFunction } from '../../testing/functions.fixtures.js';
import { type RestUser, signUpRestUser, startRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// A function runs as Supabase's runtime runs it: it sees the URL its caller used (not the Unix socket Basalt
// reaches it on), and its errors name its own file, never where the server keeps its data.

const urlEcho = `Deno.serve((req) => {
  const url = new URL(req.url);
  return Response.json({ url: req.url, origin: url.origin, cloned: req.clone().url });
});`;

describe.each(testDialects)('functions as Supabase runs them on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server, users.alice);
    await deployFunction(server, alice, { name: 'url-echo', code: urlEcho });
  }, 60_000);
  afterAll(() => server.close());

  it('gives the function the URL its caller used, at its route and at /functions/v1/<name>', async () => {
    const atRoute = await server.request('POST', '/api/edge/url-echo/a/b?x=1', { headers: alice.headers });
    expect(atRoute.body).toEqual({
      url: `${server.url}/api/edge/url-echo/a/b?x=1`,
      origin: server.url,
      cloned: `${server.url}/api/edge/url-echo/a/b?x=1`,
    });
    const byName = await server.request('GET', '/functions/v1/url-echo/z?y=2', { headers: alice.headers });
    expect(byName.body).toMatchObject({ url: `${server.url}/url-echo/z?y=2`, origin: server.url });
    // The console's test panel calls it at its route too.
    const list = await server.request('GET', '/api/edge-functions', { headers: alice.headers });
    const id = list.body.find((f: { name: string }) => f.name === 'url-echo').id;
    const tested = await server.request('POST', `/api/edge-functions/${id}/test`, {
      headers: alice.headers,
      json: { method: 'GET', headers: { 'X-Forwarded-Host': 'spoofed.example' } },
    });
    expect(JSON.parse(tested.body.body)).toMatchObject({ url: `${server.url}/api/edge/url-echo`, origin: server.url });
  });

  it('shows paths relative to the function in its error log, never the data directory', async () => {
    const fn = await deployFunction(server, alice, {
      name: 'thrower',
      code: `function fail() { throw new Error('boom'); }
Deno.serve(() => { console.error(new Error('logged').stack); fail(); return new Response('never'); });`,
    });
    const call = await server.request('GET', fn.route, { headers: alice.headers });
    expect(call.status).toBe(500);
    const log = await server.request('GET', `/api/edge-functions/${fn.id}/invocations`, { headers: alice.headers });
    const text = JSON.stringify(log.body[0].logs);
    expect(text).toContain('Uncaught Error: boom');
    expect(text).toMatch(/at fail \(index\.ts:\d+:\d+\)/);
    expect(text).toMatch(/logged\\n\s+at .*index\.ts:\d+:\d+/);
    for (const hidden of [server.config.dataDir, 'file://', '/functions/versions/']) expect(text).not.toContain(hidden);

    const atBoot = await deployFunction(server, alice, {
      name: 'boot-thrower',
      code: `throw new Error('no config');\nDeno.serve(() => new Response('never'));`,
    });
    const boot = await server.request('GET', atBoot.route, { headers: alice.headers });
    expect(boot.body.message).toContain('no config');
    expect(boot.text).not.toContain(server.config.dataDir);
  });
});
