import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Developer, signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { signUpUser, startAuthServer, tamper, users } from '../../testing/auth.fixtures.js';
import { deployFunction } from '../../testing/functions.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// GET /api/achievements on a real server: each milestone is reached by its own action, and only for the
// account that did it.

interface Row {
  id: string;
  status: string;
  progress: number;
  target: number;
  completedAt: string | null;
}

describe.each(testDialects)('achievements on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;

  const mine = async (headers = dev.headers): Promise<Record<string, Row>> => {
    const res = await server.request('GET', '/api/achievements', { headers });
    expect(res.status, res.text).toBe(200);
    return Object.fromEntries((res.body as Row[]).map((a) => [a.id, a]));
  };
  const post = async (url: string, json: unknown) => {
    const res = await server.request('POST', url, { headers: dev.headers, json });
    expect(res.status, res.text).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
  }, 60_000);
  afterAll(() => server.close());

  it('starts with every milestone locked', async () => {
    const all = await mine();
    expect(Object.keys(all)).toEqual([
      'first-table',
      'first-record',
      'first-api-key',
      'first-end-user',
      'first-function',
      'first-checkpoint',
      'five-tables',
    ]);
    for (const a of Object.values(all)) expect(a).toMatchObject({ status: 'LOCKED', progress: 0, completedAt: null });
  });

  it('unlocks each milestone after its action, with progress toward five tables', async () => {
    const table = await post('/api/tables', { name: 'items', schema: { title: { type: 'text' } } });
    let all = await mine();
    expect(all['first-table']).toMatchObject({ status: 'COMPLETED', progress: 1 });
    expect(Date.parse(all['first-table']?.completedAt ?? '')).not.toBeNaN();
    expect(all['five-tables']).toMatchObject({ status: 'IN_PROGRESS', progress: 1, target: 5 });
    expect(all['first-record']?.status).toBe('LOCKED');

    await post(`/api/tables/${table.id}/records`, { title: 'one' });
    expect((await mine())['first-record']?.status).toBe('COMPLETED');

    await post('/api/keys', { name: 'ci' });
    expect((await mine())['first-api-key']?.status).toBe('COMPLETED');

    await signUpEndUser(server, dev, 'reader@example.test');
    expect((await mine())['first-end-user']?.status).toBe('COMPLETED');

    await deployFunction(server, dev, { name: 'hello', code: 'Deno.serve(() => new Response("hi"))' });
    expect((await mine())['first-function']?.status).toBe('COMPLETED');

    await post('/api/checkpoints', { tableId: table.id, name: 'before' });
    expect((await mine())['first-checkpoint']?.status).toBe('COMPLETED');

    for (let i = 2; i <= 5; i++) await post('/api/tables', { name: `table${i}`, schema: { a: { type: 'text' } } });
    all = await mine();
    expect(all['five-tables']).toMatchObject({ status: 'COMPLETED', progress: 5 });
  }, 60_000);

  it("does not show one account's milestones to another", async () => {
    const bob = await signUpUser(server, users.bob);
    for (const a of Object.values(await mine(bob.headers))) expect(a.status).toBe('LOCKED');
  });

  it("refuses an end user's token, an API key, a tampered token and no token", async () => {
    const endUser = await signUpEndUser(server, dev, 'other@example.test');
    const key = await post('/api/keys', { name: 'script' });
    for (const headers of [
      endUser.headers,
      { authorization: `Bearer ${key.key}` },
      { authorization: `Bearer ${tamper(dev.accessToken)}` },
      {},
    ]) {
      const res = await server.request('GET', '/api/achievements', { headers });
      expect([401, 403], res.text).toContain(res.status);
    }
  });
});
