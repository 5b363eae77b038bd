import { execSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../testing/server-process.js';

// The life of function processes, on a `basalt serve` of its own: one process at most (FUNCTIONS_MAX_PROCESSES=1),
// stopped after a second idle; the least recently used idle one makes room, a busy one does not; and when the
// server dies without closing (SIGKILL), its Deno processes end on their own.

const denoChildren = (pid: number): number[] => {
  try {
    return execSync(`pgrep -P ${pid} deno`).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

async function until(check: () => boolean, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(process.platform !== 'linux')('function processes', () => {
  let server: ServerProcess;
  let auth: Record<string, string>;
  const serverPid = () => server.process.pid ?? -1;
  const call = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      method,
      headers: json === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  const deploy = async (name: string, code: string) => {
    const made = await (await call('POST', '/api/edge-functions', { name, code, verifyJwt: false }, auth)).json();
    expect((await call('POST', `/api/edge-functions/${made.id}/deploy`, undefined, auth)).status).toBe(200);
  };

  beforeAll(async () => {
    server = await startServerProcess({ FUNCTIONS_MAX_PROCESSES: '1', FUNCTIONS_IDLE_MS: '1000' });
    const registered = await (
      await call('POST', '/api/auth/register', { username: 'life', email: 'life@example.com', password: 'Life!pass1' })
    ).json();
    auth = { authorization: `Bearer ${registered.session.access_token}` };
    await deploy('first', 'Deno.serve(() => new Response("first"));');
    await deploy('second', 'Deno.serve(() => new Response("second"));');
    await deploy(
      'sleepy',
      'Deno.serve(async () => { await new Promise((r) => setTimeout(r, 1500)); return new Response("late"); });',
    );
  }, 60_000);
  afterAll(() => server?.stop());

  it('stops an idle process, and lets the least recently used idle one make room', async () => {
    expect(await (await call('GET', '/api/edge/first')).text()).toBe('first');
    expect(denoChildren(serverPid())).toHaveLength(1);
    expect(await (await call('GET', '/api/edge/second')).text()).toBe('second');
    expect(denoChildren(serverPid()).length).toBeLessThanOrEqual(1);
    await until(() => denoChildren(serverPid()).length === 0, 5000);
  });

  it('answers 503 WORKER_LIMIT when every process is busy', async () => {
    const sleeping = call('GET', '/api/edge/sleepy');
    await until(() => denoChildren(serverPid()).length === 1, 5000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await call('GET', '/api/edge/first');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('x-relay-error')).toBe('true');
    expect(await refused.json()).toMatchObject({ code: 'WORKER_LIMIT' });
    expect(await (await sleeping).text()).toBe('late');
    expect(await (await call('GET', '/api/edge/first')).text()).toBe('first');
  });

  it('ends its Deno processes when the server is killed', async () => {
    expect(await (await call('GET', '/api/edge/second')).text()).toBe('second');
    const [deno] = denoChildren(serverPid());
    expect(deno).toBeGreaterThan(0);
    await server.kill();
    await until(() => {
      try {
        process.kill(deno as number, 0);
        return false;
      } catch {
        return true;
      }
    }, 5000);
  });
});
