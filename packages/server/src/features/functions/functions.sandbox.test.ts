import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { type SignedInTestUser, signUpUser, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { deployFunction, expectRelayError, sources } from '../../testing/functions.fixtures.js';
import type { TestServer } from '../../testing/test-server.js';

// A hostile function can end only its own invocation: every escape is refused inside Deno (or at the egress
// gateway, before any connection is made), every limit answers a relay error naming it, and meanwhile the server
// and the other functions keep answering. The runtime does not depend on the database engine: SQLite only.

const limits = {
  ...loadConfig({}).functions,
  cpuMs: 500,
  memoryMb: 64,
  // Long enough that a busy loop reaches its CPU limit first on a loaded machine.
  wallClockMs: 5000,
  requestBytes: 64 * 1024,
  responseBytes: 64 * 1024,
  maxConcurrentCalls: 20,
};

// A function that tries something and reports what happened.
const attempt = (body: string) => `Deno.serve(async () => {
  try {
    const result = await (async () => { ${body} })();
    return Response.json({ ok: true, result: String(result).slice(0, 200) });
  } catch (error) {
    return Response.json({ ok: false, name: error?.name, message: String(error?.message ?? error) });
  }
});`;

describe('functions sandbox', () => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let hello: { route: string };

  beforeAll(async () => {
    server = await startAuthServer('sqlite', { functions: limits });
    alice = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
    await server.request('POST', '/api/secrets', {
      headers: { authorization: `Bearer ${alice.accessToken}` },
      json: { name: 'ALICE_TOKEN', value: 'alice-secret-value' },
    });
    await server.request('POST', '/api/secrets', {
      headers: { authorization: `Bearer ${bob.accessToken}` },
      json: { name: 'BOB_TOKEN', value: 'bob-secret-value' },
    });
    hello = await deployFunction(server, bob, { name: 'hello', code: sources.hello });
    expect((await server.request('POST', hello.route, { json: { name: 'warm' } })).status).toBe(200);
  }, 60_000);
  afterAll(() => server.close());

  const stillServing = async () => {
    const res = await server.request('POST', hello.route, { json: { name: 'still' } });
    expect(res).toMatchObject({ status: 200, body: { message: 'Hello still!' } });
  };

  let counter = 0;
  const tryInside = async (body: string) => {
    const fn = await deployFunction(server, alice, { name: `try${++counter}`, code: attempt(body) });
    const res = await server.request('GET', fn.route);
    expect(res.status, res.text).toBe(200);
    return res.body as { ok: boolean; name?: string; message?: string; result?: string };
  };

  describe('escapes', () => {
    it.each([
      ['/etc/passwd', `return await Deno.readTextFile('/etc/passwd')`],
      ['the master key', `return await Deno.readTextFile(${JSON.stringify('MASTER')})`],
      ['the database file', `return (await Deno.readFile(${JSON.stringify('DB')})).length`],
      ['a directory listing', `for await (const e of Deno.readDir('/')) return e.name`],
      ['a dynamic import of a file', `const target = ['file:///etc', 'passwd'].join('/'); return await import(target)`],
      ['a write', `await Deno.writeTextFile('/tmp/basalt-escape', 'x'); return 'written'`],
    ])('cannot read or write files: %s', async (_what, body) => {
      const code = body
        .replace('MASTER', path.join(server.config.dataDir, 'master.key'))
        .replace('DB', path.join(server.config.dataDir, 'basalt.db'));
      const result = await tryInside(code);
      expect(result.ok, JSON.stringify(result)).toBe(false);
      expect(result.name).toMatch(/NotCapable|PermissionDenied|TypeError/);
      expect(fs.existsSync('/tmp/basalt-escape')).toBe(false);
    });

    it('sees its own secrets and SUPABASE_*, and nothing else of the environment', async () => {
      const own = await tryInside(
        `return JSON.stringify([Deno.env.get('ALICE_TOKEN'), Deno.env.get('SUPABASE_URL'), !!Deno.env.get('SUPABASE_ANON_KEY')])`,
      );
      expect(JSON.parse(own.result ?? '[]')).toEqual(['alice-secret-value', server.config.siteUrl, true]);
      for (const name of ['BOB_TOKEN', 'HOME', 'PATH', 'DATABASE_URL', 'BASALT_MASTER_KEY', 'DENO_DIR']) {
        const result = await tryInside(`return Deno.env.get(${JSON.stringify(name)})`);
        expect({ name, ok: result.ok, error: result.name }).toEqual({ name, ok: false, error: 'NotCapable' });
      }
      const all = await tryInside('return JSON.stringify(Deno.env.toObject())');
      expect(all).toMatchObject({ ok: false, name: 'NotCapable' });
    });

    it.each([
      ['Deno.Command', `return (await new Deno.Command('/bin/sh', { args: ['-c', 'id'] }).output()).code`],
      ['Deno.Command by name', `return (await new Deno.Command('ls').output()).code`],
      ['Deno.run (gone in Deno 2)', `return Deno.run({ cmd: ['/bin/sh'] })`],
      ['FFI', `return Deno.dlopen('/lib/x86_64-linux-gnu/libc.so.6', {})`],
      ['system information', `return Deno.hostname()`],
      ['listening on a port', `return Deno.listen({ port: 0 }).addr.port`],
    ])('cannot run processes or reach the system: %s', async (_what, body) => {
      const result = await tryInside(body);
      expect(result.ok, JSON.stringify(result)).toBe(false);
    });

    it.each([
      ['PostgreSQL on loopback', `return (await fetch('http://127.0.0.1:5432/')).status`],
      ['localhost', `return (await fetch('http://localhost:5432/')).status`],
      ['IPv6 loopback', `return (await fetch('http://[::1]:5432/')).status`],
      ['a private network', `return (await fetch('http://10.0.0.1/')).status`],
      ['the metadata address', `return (await fetch('http://169.254.169.254/latest/meta-data/')).status`],
      ['IPv4 written as IPv6', `return (await fetch('http://[::ffff:127.0.0.1]:5432/')).status`],
      ['a name of this machine', `return (await fetch('http://${os.hostname()}:5432/')).status`],
      ['a non-http scheme', `return (await fetch('ftp://example.com/')).status`],
      [
        'a raw TCP connection',
        `const c = await Deno.connect({ hostname: '127.0.0.1', port: 5432 }); c.close(); return 'connected'`,
      ],
      [
        'a WebSocket to loopback',
        `const ws = new WebSocket('ws://127.0.0.1:5432'); return await new Promise((ok, no) => { ws.onopen = () => ok('open'); ws.onerror = () => no(new Error('refused')); })`,
      ],
    ])('cannot reach private addresses: %s', async (_what, body) => {
      const result = await tryInside(body);
      expect(result.ok, JSON.stringify(result)).toBe(false);
    });

    it('reaches Basalt itself at SUPABASE_URL', async () => {
      const result = await tryInside(
        `const res = await fetch(Deno.env.get('SUPABASE_URL') + '/auth/v1/health', { headers: { apikey: Deno.env.get('SUPABASE_ANON_KEY') } }); return res.status`,
      );
      expect(result).toEqual({ ok: true, result: '200' });
    });

    it("holds its own app's keys, which open its own users and never the instance's", async () => {
      const expose = `Deno.serve(async () => {
        const key = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
        const res = await fetch(Deno.env.get('SUPABASE_URL') + '/auth/v1/admin/users', { headers: { apikey: key, authorization: 'Bearer ' + key } });
        const body = await res.json();
        return Response.json({ key, anon: Deno.env.get('SUPABASE_ANON_KEY'), status: res.status, users: (body.users ?? []).map((u) => u.email) });
      });`;
      for (const owner of [alice, bob]) {
        const app = (await server.request('GET', '/api/app', { headers: owner.headers })).body;
        const fn = await deployFunction(server, owner, { name: `keys-${owner === alice ? 'a' : 'b'}`, code: expose });
        const seen = await server.request('GET', fn.route);
        expect(seen.body).toMatchObject({ key: app.serviceKey, anon: app.anonKey, status: 200 });
        expect(seen.body.key).not.toBe(server.serviceKey);
        // The app's own users only: no console account (alice, bob) is among them.
        expect(seen.body.users).not.toContain(users.alice.email);
        expect(seen.body.users).not.toContain(users.bob.email);
      }
    });

    it("cannot read another account's secrets through the API with the keys it holds", async () => {
      const result = await tryInside(
        `const key = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
         const res = await fetch(Deno.env.get('SUPABASE_URL') + '/api/secrets', { headers: { authorization: 'Bearer ' + key, apikey: key } });
         return res.status + ' ' + (await res.text())`,
      );
      expect(result.ok).toBe(true);
      expect(result.result).not.toContain('bob-secret-value');
      expect(result.result).not.toContain('BOB_TOKEN');
      expect(result.result?.slice(0, 3)).toMatch(/^40[13]$/);
    });
  });

  describe('limits', () => {
    it('a busy loop ends its invocation (546 cpu_time) while the server serves others', async () => {
      const fn = await deployFunction(server, alice, { name: 'spin', code: 'Deno.serve(() => { for (;;) {} });' });
      const spinning = server.request('GET', fn.route);
      await new Promise((resolve) => setTimeout(resolve, 150));
      await stillServing();
      const res = await spinning;
      expectRelayError(res, 546, 'WORKER_RESOURCE_LIMIT', 'cpu_time');
      expect(res.body.message).toBe('CPU time limit exceeded: the request used more than 500 ms of CPU');
      await stillServing();
    });

    it('a heap memory bomb ends its invocation (546 memory)', async () => {
      const fn = await deployFunction(server, alice, {
        name: 'heapbomb',
        code: 'Deno.serve(() => { const keep = []; for (;;) keep.push(new Array(100_000).fill(Math.random())); });',
      });
      const res = await server.request('GET', fn.route);
      expectRelayError(res, 546, 'WORKER_RESOURCE_LIMIT', 'memory');
      await stillServing();
    });

    it('an off-heap memory bomb (ArrayBuffers) ends its invocation (546 memory)', async () => {
      const fn = await deployFunction(server, alice, {
        name: 'bufferbomb',
        code: `Deno.serve(async () => {
          const keep = [];
          for (;;) { keep.push(new Uint8Array(8 * 1024 * 1024).fill(7)); await new Promise((r) => setTimeout(r, 1)); }
        });`,
      });
      const res = await server.request('GET', fn.route);
      expectRelayError(res, 546, 'WORKER_RESOURCE_LIMIT', 'memory');
      await stillServing();
    });

    it('a slow answer ends at the wall clock (504) while the server serves others', async () => {
      const fn = await deployFunction(server, alice, {
        name: 'slow',
        code: 'Deno.serve(async () => { await new Promise((r) => setTimeout(r, 60_000)); return new Response("late"); });',
      });
      const waiting = server.request('GET', fn.route);
      await stillServing();
      const res = await waiting;
      expectRelayError(res, 504, 'IDLE_TIMEOUT', 'wall_clock');
      expect(res.body.message).toBe('Wall-clock limit exceeded: the function did not answer within 5 s');
      // The process was not killed for it: a quick call still works.
      expect((await server.request('POST', hello.route, { json: { name: 'x' } })).status).toBe(200);
    });

    it('a huge request body is refused (413 request_size) before the function runs', async () => {
      const echo = await deployFunction(server, alice, { name: 'echo', code: sources.echo });
      const res = await server.request('POST', echo.route, {
        body: 'x'.repeat(65 * 1024),
        headers: { 'content-type': 'text/plain' },
      });
      expectRelayError(res, 413, 'REQUEST_TOO_LARGE', 'request_size');
      const json = await server.request('POST', echo.route, { json: { big: 'y'.repeat(65 * 1024) } });
      expectRelayError(json, 413, 'REQUEST_TOO_LARGE', 'request_size');
      const fine = await server.request('POST', echo.route, {
        body: 'small',
        headers: { 'content-type': 'text/plain' },
      });
      expect(fine.body.body).toBe('small');
    });

    it('a huge response ends its invocation (546 response_size)', async () => {
      const fn = await deployFunction(server, alice, {
        name: 'huge',
        code: `Deno.serve(() => new Response('z'.repeat(${65 * 1024})));`,
      });
      expectRelayError(await server.request('GET', fn.route), 546, 'WORKER_RESOURCE_LIMIT', 'response_size');
      await stillServing();
    });

    it('a function that fans out to itself is refused at its concurrency limit, and the server keeps serving', async () => {
      const fn = await deployFunction(server, alice, {
        name: 'forkbomb',
        code: `Deno.serve(async (req) => {
          const self = Deno.env.get('SUPABASE_URL') + '/api/edge/forkbomb';
          const answers = await Promise.all([fetch(self), fetch(self)]);
          const statuses = await Promise.all(answers.map(async (a) => { await a.body?.cancel(); return a.status; }));
          return Response.json({ refused: statuses.filter((s) => s === 503).length });
        });`,
      });
      const res = await server.request('GET', fn.route);
      expect(res.status).toBe(200);
      expect(res.body.refused).toBeGreaterThanOrEqual(0);
      await stillServing();
      // Beyond the limit a call is refused at once.
      const burst = await Promise.all(Array.from({ length: 30 }, () => server.request('GET', fn.route)));
      expect(burst.some((r) => r.status === 503 && r.body?.code === 'WORKER_LIMIT')).toBe(true);
      await stillServing();
    });

    it('a crash ends its invocation (502) and the next call starts a new process', async () => {
      const fn = await deployFunction(server, alice, {
        name: 'crash',
        code: `let calls = 0;
          Deno.serve((req) => {
            if (new URL(req.url).searchParams.has('exit')) Deno.exit(3);
            if (new URL(req.url).searchParams.has('throw')) setTimeout(() => { throw new Error('boom later'); });
            return new Response(String(++calls));
          });`,
      });
      const res = await server.request('GET', `${fn.route}?exit`);
      expectRelayError(res, 502, 'WORKER_CRASHED');
      expect(res.body.message).toContain('exit code 3');
      expect((await server.request('GET', fn.route)).text).toBe('1');
      const thrown = await server.request('GET', `${fn.route}?throw`);
      expect(thrown.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await server.request('GET', fn.route)).text).toBe('1');
      await stillServing();
    });

    it('a module that fails to start answers 503 BOOT_ERROR with the reason', async () => {
      const broken = await deployFunction(server, alice, {
        name: 'broken',
        code: `const value = (globalThis as any).missing.property; Deno.serve(() => new Response(value));`,
      });
      const res = await server.request('GET', broken.route);
      expectRelayError(res, 503, 'BOOT_ERROR');
      expect(res.body.message).toMatch(/TypeError/);
      const silent = await deployFunction(server, alice, { name: 'nohandler', code: `console.log('nothing');` });
      const none = await server.request('GET', silent.route);
      expectRelayError(none, 503, 'BOOT_ERROR');
      expect(none.body.message).toContain('neither calls Deno.serve(handler) nor exports default { fetch }');
    });

    it('a handler that throws answers 500 EDGE_FUNCTION_ERROR (not a relay error) and logs the error', async () => {
      const fn = await deployFunction(server, alice, {
        name: 'throws',
        code: `Deno.serve(() => { console.log('before'); throw new Error('handler failed alice-secret-value'); });`,
      });
      const res = await server.request('GET', fn.route);
      expect(res).toMatchObject({ status: 500, body: { code: 'EDGE_FUNCTION_ERROR' } });
      expect(res.headers.get('x-relay-error')).toBeNull();
      const log = await server.request('GET', `/api/edge-functions/${fn.id}/invocations`, { headers: alice.headers });
      expect(log.body[0]).toMatchObject({ status: 500, error: 'EDGE_FUNCTION_ERROR' });
      const text = JSON.stringify(log.body[0].logs);
      expect(text).toContain('before');
      expect(text).toContain('handler failed');
      // A secret's value is masked in what Basalt stores of the function's output.
      expect(text).not.toContain('alice-secret-value');
    });
  });
});
