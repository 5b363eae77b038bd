import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { type SignedInTestUser, signUpUser, startAuthServer, tamper, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { examineTables, INSIGHT_LIMITS } from './insights.service.js';

// The insight job on seeded tables (a very wide one, one with a large history, a small one), and the routes that
// list an account's insights and mark one implemented.

interface Insight {
  id: number;
  tableId: number;
  insightType: string;
  impact: string;
  implemented: boolean;
  implementedAt: string | null;
}

describe.each(testDialects)('performance insights on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  const ids: Record<string, number> = {};

  const createTable = async (user: SignedInTestUser, name: string, columns: number) => {
    const schema = Object.fromEntries(Array.from({ length: columns }, (_, i) => [`c${i}`, { type: 'text' }]));
    const res = await server.request('POST', '/api/tables', { headers: user.headers, json: { name, schema } });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const list = async (user: SignedInTestUser): Promise<Insight[]> => {
    const res = await server.request('GET', '/api/insights', { headers: user.headers });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
    ids.wide = await createTable(alice, 'wide_table', INSIGHT_LIMITS.wideColumns + 5);
    ids.busy = await createTable(alice, 'busy_table', 3);
    ids.small = await createTable(alice, 'small_table', INSIGHT_LIMITS.wideColumns);
    // The table's own creation already counted in a shard picked at random (one of 32 on PostgreSQL): add to it.
    await server.app.basalt.db.kysely
      .insertInto('change_history_counts')
      .values({ account_id: alice.id, table_id: ids.busy, shard: 7, change_count: INSIGHT_LIMITS.hugeHistory + 1 })
      .onConflict((oc) =>
        oc.columns(['account_id', 'table_id', 'shard']).doUpdateSet((eb) => ({
          change_count: eb('change_history_counts.change_count', '+', INSIGHT_LIMITS.hugeHistory + 1),
        })),
      )
      .execute();
  }, 60_000);
  afterAll(() => server.close());

  it('finds wide rows and a large history, once, and only for their account', async () => {
    expect(await list(alice)).toEqual([]);
    await examineTables(server.app.basalt.db);
    await examineTables(server.app.basalt.db);
    const found = await list(alice);
    expect(found.map((i) => [i.insightType, i.tableId, i.impact]).sort()).toEqual(
      [
        ['LARGE_HISTORY', ids.busy, 'HIGH'],
        ['WIDE_ROWS', ids.wide, 'MEDIUM'],
      ].sort(),
    );
    expect(found.every((i) => !i.implemented)).toBe(true);
    expect(await list(bob)).toEqual([]);
  });

  it('marks an insight implemented, and a later run does not reopen it', async () => {
    const [first] = await list(alice);
    if (!first) throw new Error('no insight');
    const res = await server.request('POST', `/api/insights/${first.id}/implemented`, { headers: alice.headers });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: first.id, implemented: true });
    expect(Date.parse(res.body.implementedAt)).not.toBeNaN();
    await examineTables(server.app.basalt.db);
    const again = (await list(alice)).find((i) => i.id === first.id);
    expect(again).toMatchObject({ implemented: true, implementedAt: res.body.implementedAt });
  });

  it("refuses another account's insight, unknown and malformed ids, and callers that are not a console account", async () => {
    const [first] = await list(alice);
    if (!first) throw new Error('no insight');
    const mark = (id: string, headers: Record<string, string>) =>
      server.request('POST', `/api/insights/${id}/implemented`, { headers });
    expect((await mark(String(first.id), bob.headers)).status).toBe(404);
    expect((await mark('987654', alice.headers)).status).toBe(404);
    // A malformed id names nothing, as everywhere in the console API.
    for (const bad of ['abc', '-1', '1.5']) expect((await mark(bad, alice.headers)).status).toBe(404);
    // A NUL in the path is refused before any route.
    expect((await mark('%00', alice.headers)).status).toBe(400);
    const developer = await startDeveloper(server, users.carol);
    const endUser = await signUpEndUser(server, developer, 'reader@example.test');
    for (const headers of [endUser.headers, { authorization: `Bearer ${tamper(alice.accessToken)}` }, {}]) {
      const res = await server.request('GET', '/api/insights', { headers });
      expect([401, 403], res.text).toContain(res.status);
    }
  });
});
