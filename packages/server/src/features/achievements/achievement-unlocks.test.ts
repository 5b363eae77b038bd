import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Developer, signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { deployFunction } from '../../testing/functions.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Milestones are kept in user_achievements as their actions' events come over the bus, before anyone lists them,
// and stay reached, with the same date, after what reached them is deleted.

describe.each(testDialects)('achievements kept as they happen on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;

  const kept = async (): Promise<Record<string, string>> => {
    const rows = await server.app.basalt.db.kysely
      .selectFrom('user_achievements')
      .select(['achievement_id', 'unlocked_at'])
      .where('account_id', '=', dev.id)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.achievement_id, r.unlocked_at]));
  };
  // The check runs after the action has answered: wait for it, briefly.
  const keptSoon = async (ids: string[]) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const now = await kept();
      if (ids.every((id) => id in now) || Date.now() > deadline) return now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const send = async (method: string, url: string, json?: unknown) => {
    const res = await server.request(method, url, { headers: dev.headers, ...(json === undefined ? {} : { json }) });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body;
  };

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
  }, 60_000);
  afterAll(() => server.close());

  it('keeps each milestone when its event comes, without a listing', async () => {
    const tables: number[] = [];
    for (let i = 1; i <= 5; i++) {
      tables.push((await send('POST', '/api/tables', { name: `kept${i}`, schema: { a: { type: 'text' } } })).id);
    }
    await send('POST', `/api/tables/${tables[0]}/records`, { a: 'one' });
    const key = await send('POST', '/api/keys', { name: 'ci' });
    await send('POST', '/api/checkpoints', { tableId: tables[0], name: 'before' });
    await deployFunction(server, dev, { name: 'hello', code: 'Deno.serve(() => new Response("hi"))' });
    // An end user signing up to the developer's app (auth's app-user.created).
    await signUpEndUser(server, dev, 'first-reader@example.test');
    const ids = [
      'first-table',
      'five-tables',
      'first-record',
      'first-api-key',
      'first-checkpoint',
      'first-function',
      'first-end-user',
    ];
    const before = await keptSoon(ids);
    expect(Object.keys(before).sort()).toEqual([...ids].sort());

    // Deleting what reached them loses nothing, and the date stays the one of the action.
    for (const id of tables) await send('DELETE', `/api/tables/${id}`);
    await send('DELETE', `/api/keys/${key.id}`);
    const res = await server.request('GET', '/api/achievements', { headers: dev.headers });
    const listed = Object.fromEntries(
      (res.body as Array<{ id: string; status: string; completedAt: string }>).map((a) => [a.id, a]),
    );
    for (const id of ids) expect(listed[id]).toMatchObject({ status: 'COMPLETED', completedAt: before[id] });
    expect(listed['five-tables']).toMatchObject({ progress: 5 });
    expect(await kept()).toEqual(before);
  }, 60_000);
});
