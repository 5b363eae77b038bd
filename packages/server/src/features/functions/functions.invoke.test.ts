import { FunctionsHttpError, FunctionsRelayError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { appClient } from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { deployFunction, expectRelayError, sources } from '../../testing/functions.fixtures.js';
import { type RestUser, restClient, seedTodos, signUpRestUser, startRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Calling functions: at their route and through supabase-js's functions.invoke, who may call, CORS, a function that
// reads the app's table with supabase-js, concurrency, redeploys and secrets changing under running processes.

describe.each(testDialects)('calling edge functions on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let bob: RestUser;

  beforeAll(async () => {
    server = await startRestServer(dialect);
    server.app.basalt.config.functions.cpuMs = 500;
    alice = await signUpRestUser(server, users.alice);
    bob = await signUpRestUser(server, users.bob);
    await seedTodos(alice, 'todos');
    await deployFunction(server, alice, { name: 'hello', code: sources.hello });
    await deployFunction(server, alice, { name: 'echo', code: sources.echo });
  }, 60_000);
  afterAll(() => server.close());

  it('answers at its route and at /functions/v1/<name>, passing method, path, query, body and headers', async () => {
    const atRoute = await server.request('POST', '/api/edge/hello', { json: { name: 'route' } });
    expect(atRoute).toMatchObject({ status: 200, body: { message: 'Hello route!' } });
    expect(atRoute.headers.get('content-type')).toBe('application/json');
    const sub = await server.request('PUT', '/api/edge/echo/a/b?x=1', {
      body: '<xml/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(sub.body).toMatchObject({ method: 'PUT', path: '/api/edge/echo/a/b', search: '?x=1', body: '<xml/>' });
    const byName = await server.request('DELETE', '/functions/v1/echo/z?y=2');
    expect(byName.body).toMatchObject({ method: 'DELETE', path: '/echo/z', search: '?y=2' });
  });

  it('works with supabase-js functions.invoke: success, a function error, a relay error', async () => {
    const client = restClient(server);
    const ok = await client.functions.invoke('hello', { body: { name: 'supabase-js' } });
    expect(ok).toMatchObject({ data: { message: 'Hello supabase-js!' }, error: null });
    await deployFunction(server, alice, {
      name: 'teapot',
      code: `Deno.serve(() => Response.json({ error: 'short and stout' }, { status: 418 }));`,
    });
    const failed = await client.functions.invoke('teapot');
    expect(failed.error).toBeInstanceOf(FunctionsHttpError);
    expect(await (failed.error as FunctionsHttpError).context.json()).toEqual({ error: 'short and stout' });
    await deployFunction(server, alice, { name: 'spin', code: 'Deno.serve(() => { for (;;) {} });' });
    const relay = await client.functions.invoke('spin');
    expect(relay.error).toBeInstanceOf(FunctionsRelayError);
    expect(await (relay.error as FunctionsRelayError).context.json()).toMatchObject({ limit: 'cpu_time' });
  });

  it("reads the app's table with supabase-js inside the function, as the app's signed-in user", async () => {
    const app = (await server.request('GET', '/api/app', { headers: alice.headers })).body;
    const created = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: {
        name: 'notes',
        schema: { text: { type: 'text', required: true }, owner: { type: 'text' } },
        access: { select: 'own', insert: 'own', update: 'nobody', delete: 'nobody', ownerColumn: 'owner' },
      },
    });
    expect(created.status).toBe(201);
    const signUp = async (email: string) => {
      const client = appClient(server, app.anonKey);
      const { error } = await client.auth.signUp({ email, password: 'End-User-Passw0rd!' });
      if (error) throw error;
      return client;
    };
    const ann = await signUp('ann@app.example');
    const ben = await signUp('ben@app.example');
    expect((await ann.from('notes').insert({ text: "ann's note" })).error).toBeNull();
    expect((await ben.from('notes').insert({ text: "ben's note" })).error).toBeNull();
    await deployFunction(server, alice, {
      name: 'read-notes',
      verifyJwt: true,
      code: `import { createClient } from 'npm:@supabase/supabase-js@2';
Deno.serve(async (req) => {
  const supabase = createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_ANON_KEY')!, {
    global: { headers: { Authorization: req.headers.get('Authorization')! } },
  });
  const { data, error } = await supabase.from('notes').select('text').order('id');
  if (error) return Response.json({ error }, { status: 500 });
  return Response.json({ texts: data.map((row) => row.text) });
});`,
    });
    // supabase-js sends the app's anon key and the user's token: the function reads what the rules show them.
    const { data, error } = await ann.functions.invoke('read-notes');
    expect(error).toBeNull();
    expect(data).toEqual({ texts: ["ann's note"] });
    // Signed out, supabase-js sends the app's anon key alone: a JWT of the project, so the function runs (as
    // Supabase's verify_jwt lets it), and the rules show the anonymous caller nothing.
    const signedOut = await appClient(server, app.anonKey).functions.invoke('read-notes');
    expect(signedOut).toMatchObject({ data: { texts: [] }, error: null });
  });

  it('requires a JWT of its project when verifyJwt is on (the default), and hides it from other accounts', async () => {
    await deployFunction(server, alice, { name: 'private', code: sources.hello, verifyJwt: true });
    const anonymous = await server.request('POST', '/functions/v1/private', {
      headers: { apikey: server.anonKey, authorization: `Bearer ${server.anonKey}` },
    });
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    const forged = await server.request('POST', '/api/edge/private', { headers: { authorization: 'Bearer x.y.z' } });
    expect(forged).toMatchObject({ status: 401, body: { code: 'INVALID_JWT' } });
    // Bob's token names bob's account, which has no such function: a 404 that tells nothing of alice's.
    for (const url of ['/api/edge/private', '/functions/v1/private']) {
      const otherAccount = await server.request('POST', url, { headers: bob.headers });
      expect(otherAccount).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: 'Function not found' } });
    }
    const appKey = (await server.request('GET', '/api/app', { headers: alice.headers })).body.anonKey;
    const withAppAnonKey = await server.request('POST', '/api/edge/private', {
      headers: { apikey: appKey, authorization: `Bearer ${appKey}` },
      json: { name: 'anon' },
    });
    expect(withAppAnonKey).toMatchObject({ status: 200, body: { message: 'Hello anon!' } });
    const own = await server.request('POST', '/api/edge/private', { headers: alice.headers, json: { name: 'me' } });
    expect(own).toMatchObject({ status: 200, body: { message: 'Hello me!' } });
    const key = await server.request('POST', '/api/keys', { headers: alice.headers, json: { name: 'fn' } });
    const withKey = await server.request('POST', '/api/edge/private', {
      headers: { authorization: `Bearer ${key.body.key}` },
    });
    expect(withKey.status).toBe(200);
  });

  it('finds a function by name in the caller’s account first, and 404s what is inactive, undeployed or unknown', async () => {
    await deployFunction(server, bob, {
      name: 'hello',
      code: 'Deno.serve(() => new Response("bob"));',
      route: '/api/edge/bob-hello',
    });
    const asBob = await server.request('GET', '/functions/v1/hello', { headers: bob.headers });
    expect(asBob.text).toBe('bob');
    const ambiguous = await server.request('GET', '/functions/v1/hello');
    expect(ambiguous).toMatchObject({ status: 404, body: { code: 'function_ambiguous' } });
    const created = await server.request('POST', '/api/edge-functions', {
      headers: alice.headers,
      json: { name: 'undeployed', code: sources.hello, verifyJwt: false },
    });
    expect((await server.request('GET', '/api/edge/undeployed')).status).toBe(404);
    await server.request('POST', `/api/edge-functions/${created.body.id}/deploy`, { headers: alice.headers });
    expect((await server.request('POST', '/api/edge/undeployed')).status).toBe(200);
    await server.request('PATCH', `/api/edge-functions/${created.body.id}`, {
      headers: alice.headers,
      json: { isActive: false },
    });
    const inactive = await server.request('POST', '/api/edge/undeployed');
    expect(inactive).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: 'Function not found' } });
    expect(inactive.headers.get('x-relay-error')).toBeNull();
    for (const url of ['/api/edge/nothing', '/functions/v1/nothing', '/functions/v1/bad%20name', '/api/edge/']) {
      expect((await server.request('GET', url)).status).toBe(404);
    }
  });

  it('answers CORS preflights with the headers asked for, and exposes the relay headers', async () => {
    const preflight = await fetch(`${server.url}/functions/v1/hello`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, x-client-info, apikey, content-type, x-custom',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-custom');
    const call = await fetch(`${server.url}/api/edge/hello`, {
      method: 'POST',
      headers: { origin: 'https://app.example' },
    });
    expect(call.headers.get('access-control-allow-origin')).toBe('*');
    expect(call.headers.get('access-control-expose-headers')).toContain('x-relay-error');
  });

  it("keeps the console's cookies from functions, and sandboxes what they serve on the console's origin", async () => {
    await deployFunction(server, alice, {
      name: 'origin',
      code: `Deno.serve((req) => {
        const headers = new Headers({ 'Content-Type': 'text/html' });
        headers.append('Set-Cookie', 'basalt_session=stolen; Path=/');
        headers.append('Set-Cookie', 'theme=dark; Path=/');
        headers.append('Set-Cookie', 'lang=en; Path=/');
        return new Response('<script>steal(localStorage)</script>' + (req.headers.get('cookie') ?? ''), { headers });
      });`,
    });
    const res = await fetch(`${server.url}/api/edge/origin`, {
      headers: { cookie: 'basalt_session=secret-session; theme=light; basalt_csrf=secret-csrf' },
    });
    expect(await res.text()).toBe('<script>steal(localStorage)</script>theme=light');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.getSetCookie()).toEqual(['theme=dark; Path=/', 'lang=en; Path=/']);
  });

  it('serves 100 concurrent invocations from one process', async () => {
    const calls = await Promise.all(
      Array.from({ length: 100 }, (_, i) => server.request('POST', '/api/edge/hello', { json: { name: `n${i}` } })),
    );
    expect(calls.map((c) => c.status)).toEqual(Array(100).fill(200));
    expect(new Set(calls.map((c) => c.body.message)).size).toBe(100);
  });

  it('runs the new version after a redeploy and the previous one after a rollback', async () => {
    const fn = await deployFunction(server, alice, { name: 'flip', code: 'Deno.serve(() => new Response("one"));' });
    expect((await server.request('GET', fn.route)).text).toBe('one');
    await server.request('PATCH', `/api/edge-functions/${fn.id}`, {
      headers: alice.headers,
      json: { code: 'Deno.serve(() => new Response("two"));' },
    });
    expect((await server.request('GET', fn.route)).text).toBe('one');
    await server.request('POST', `/api/edge-functions/${fn.id}/deploy`, { headers: alice.headers });
    expect((await server.request('GET', fn.route)).text).toBe('two');
    await server.request('POST', `/api/edge-functions/${fn.id}/rollback`, {
      headers: alice.headers,
      json: { version: 1 },
    });
    expect((await server.request('GET', fn.route)).text).toBe('one');
  });

  it('reads a new secret on the next call, without a redeploy', async () => {
    const fn = await deployFunction(server, alice, {
      name: 'greeting',
      code: `Deno.serve(() => { try { return new Response(Deno.env.get('GREETING') ?? 'unset'); } catch { return new Response('denied'); } });`,
    });
    expect((await server.request('GET', fn.route)).text).toBe('denied');
    await server.request('POST', '/api/secrets', {
      headers: alice.headers,
      json: { name: 'GREETING', value: 'hi there' },
    });
    expect((await server.request('GET', fn.route)).text).toBe('hi there');
  });

  it('logs each invocation (system log and the function log) and counts it per hour', async () => {
    const fn = await deployFunction(server, alice, {
      name: 'chatty',
      code: `Deno.serve((req) => { console.log('got', req.method); console.error('careful'); return new Response('ok'); });`,
    });
    await server.request('GET', fn.route);
    await server.request('POST', fn.route);
    const invocations = await server.request('GET', `/api/edge-functions/${fn.id}/invocations`, {
      headers: alice.headers,
    });
    expect(invocations.body).toHaveLength(2);
    expect(invocations.body[0]).toMatchObject({
      method: 'POST',
      status: 200,
      error: null,
      logs: [
        { level: 'info', message: 'got POST' },
        { level: 'error', message: 'careful' },
      ],
      durationMs: expect.any(Number),
      cpuMs: expect.any(Number),
      memoryMb: expect.any(Number),
    });
    const stats = await server.request('GET', `/api/edge-functions/${fn.id}/stats?hours=3`, { headers: alice.headers });
    expect(stats.body.hours).toHaveLength(3);
    expect(stats.body.hours[2]).toMatchObject({ invocations: 2, errors: 0 });
    await server.app.basalt.logs.flush();
    const logged = await server.app.basalt.db.kysely
      .selectFrom('system_logs')
      .selectAll()
      .where('source', '=', 'functions')
      .where('path', '=', fn.route)
      .execute();
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ account_id: alice.accountId, level: 'info' });
    expect(JSON.parse(logged[0]?.context ?? '{}')).toMatchObject({ functionId: fn.id, status: 200 });
  });

  it('tests the deployed version from the console with method, headers and body', async () => {
    const echo = await server.request('GET', '/api/edge-functions', { headers: alice.headers });
    const id = echo.body.find((f: { name: string }) => f.name === 'echo').id;
    const res = await server.request('POST', `/api/edge-functions/${id}/test`, {
      headers: alice.headers,
      json: { method: 'PATCH', headers: { 'Content-Type': 'text/plain', 'X-Trace': '1' }, body: 'from the panel' },
    });
    expect(res).toMatchObject({
      status: 200,
      body: { status: 200, error: null, logs: [{ level: 'info', message: 'echo PATCH /api/edge/echo' }] },
    });
    expect(JSON.parse(res.body.body)).toMatchObject({
      method: 'PATCH',
      body: 'from the panel',
      contentType: 'text/plain',
    });
    const undeployed = await server.request('POST', '/api/edge-functions', {
      headers: alice.headers,
      json: { name: 'not-yet', code: sources.hello },
    });
    const refused = await server.request('POST', `/api/edge-functions/${undeployed.body.id}/test`, {
      headers: alice.headers,
      json: {},
    });
    expect(refused).toMatchObject({ status: 409, body: { message: 'Deploy the function before testing it' } });
    const bad = await server.request('POST', `/api/edge-functions/${id}/test`, {
      headers: alice.headers,
      json: { method: 'TRACE', headers: { 'bad header': 'x' } },
    });
    expect(bad.status).toBe(400);
  });

  it('stops answering once its account is deleted, with its functions, secrets and data key', async () => {
    const carol = await signUpRestUser(server, users.carol);
    await server.request('POST', '/api/secrets', { headers: carol.headers, json: { name: 'CAROL', value: 'c-value' } });
    const fn = await deployFunction(server, carol, { name: 'carols', code: sources.hello });
    expect((await server.request('POST', fn.route, { json: { name: 'c' } })).status).toBe(200);
    const deleted = await server.request('DELETE', '/api/user', {
      headers: carol.headers,
      json: { confirm: 'carol' },
    });
    expect(deleted.status).toBe(200);
    expect((await server.request('POST', fn.route, { json: { name: 'c' } })).status).toBe(404);
    const db = server.app.basalt.db.kysely;
    const left = await Promise.all([
      db.selectFrom('edge_functions').selectAll().where('account_id', '=', carol.accountId).execute(),
      db.selectFrom('secrets').selectAll().where('account_id', '=', carol.accountId).execute(),
      db.selectFrom('account_data_keys').selectAll().where('account_id', '=', carol.accountId).execute(),
    ]);
    expect(left).toEqual([[], [], []]);
  });

  it('refuses a relay-limit request body with JSON, even for a content type Basalt does not parse', async () => {
    const big = Buffer.alloc(loadConfig({}).functions.requestBytes + 1, 1);
    const res = await fetch(`${server.url}/api/edge/echo`, {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expectRelayError(
      { status: res.status, headers: res.headers, text: '', body: await res.json() },
      413,
      'REQUEST_TOO_LARGE',
      'request_size',
    );
  });
});
