import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callNode, type ServerProcess, startServerProcess } from '../../testing/server-process.js';
import { createTestDatabase } from '../../testing/test-server.js';

// Two `basalt serve` processes on one PostgreSQL: an account's actions spread over both nodes, at the same time,
// reach each milestone exactly once (one row, kept by the node whose action reached it; end users signing up on
// both nodes too), five tables made across the two nodes count as five, and both nodes list the same dates, which deleting the tables does not change.

describe.skipIf(!process.env.TEST_DATABASE_URL)('achievements on two nodes of one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let nodes: ServerProcess[] = [];
  let headers: Record<string, string>;
  let accountId: string;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    nodes = await Promise.all(
      [0, 1].map(() =>
        // A node's start (tsx, migrations) takes long on a loaded machine.
        startServerProcess(
          { DATABASE_URL: database.url, AUTH_RATE_LIMIT: '1000', SITE_URL: 'http://basalt.cluster.test' },
          90_000,
        ),
      ),
    );
    const [a] = nodes as [ServerProcess];
    const anonKey = (await callNode(a.url, 'GET', '/api/config', {})).body.anonKey;
    const signUp = await callNode(
      a.url,
      'POST',
      '/auth/v1/signup',
      { apikey: anonKey },
      { email: `milestones-${Date.now()}@example.test`, password: 'Sturdy-Passw0rd!' },
    );
    expect(signUp.status).toBe(200);
    headers = { authorization: `Bearer ${signUp.body.access_token}` };
    accountId = signUp.body.user.id;
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 200_000);

  afterAll(async () => {
    await client?.end();
    await Promise.all(nodes.map((node) => node.stop()));
    await database?.drop();
  });

  const kept = async () =>
    (
      await client.query<{ achievement_id: string; unlocked_at: string }>(
        'SELECT achievement_id, unlocked_at FROM user_achievements WHERE account_id = $1 ORDER BY achievement_id',
        [accountId],
      )
    ).rows;

  it('keeps each milestone once, whichever node reached it', async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    // Six tables at once, three on each node: the fifth and sixth may commit together on different nodes.
    const made = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) =>
        callNode(i % 2 ? b.url : a.url, 'POST', '/api/tables', headers, {
          name: `spread${i}`,
          schema: { n: { type: 'number' } },
        }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const ids = made.map((r) => r.body.id as number);
    // A record on each node at once, a key, and an end user signing up to the account's app on each node.
    const app = await callNode(a.url, 'GET', '/api/app', headers);
    expect(app.status).toBe(200);
    const endUser = (node: ServerProcess, i: number) =>
      callNode(
        node.url,
        'POST',
        '/auth/v1/signup',
        { apikey: app.body.anonKey },
        { email: `reader${i}-${Date.now()}@example.test`, password: 'End-User-Passw0rd!' },
      );
    const done = await Promise.all([
      callNode(a.url, 'POST', `/api/tables/${ids[0]}/records`, headers, { n: 1 }),
      callNode(b.url, 'POST', `/api/tables/${ids[1]}/records`, headers, { n: 2 }),
      callNode(b.url, 'POST', '/api/keys', headers, { name: 'ci' }),
      endUser(a, 1),
      endUser(b, 2),
    ]);
    expect(done.map((r) => r.status)).toEqual([201, 201, 201, 200, 200]);
    const wanted = ['first-api-key', 'first-end-user', 'first-record', 'first-table', 'five-tables'];
    const deadline = Date.now() + 15_000;
    let rows = await kept();
    while (rows.length < wanted.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await kept();
    }
    expect(rows.map((r) => r.achievement_id)).toEqual(wanted);

    for (const id of ids) expect((await callNode(a.url, 'DELETE', `/api/tables/${id}`, headers)).status).toBe(200);
    const listed = await Promise.all(nodes.map((node) => callNode(node.url, 'GET', '/api/achievements', headers)));
    for (const reply of listed) {
      const completed = (reply.body as Array<{ id: string; status: string; completedAt: string | null }>)
        .filter((x) => x.status === 'COMPLETED')
        .map((x) => [x.id, x.completedAt])
        .sort();
      expect(completed).toEqual(rows.map((r) => [r.achievement_id, r.unlocked_at]));
    }
    expect(await kept()).toEqual(rows);
  }, 90_000);
});
