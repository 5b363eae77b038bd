import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnIndexName } from '../../db/column-indexes.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import type { IndexInsightLimits } from './index-insights.js';
import { examineTables } from './insights.service.js';
import { flushQueryShapes } from './query-shapes.js';

// The read shapes behind the index insights, on a seeded table: the grid's filtered and ordered reads are noted in
// memory and flushed exactly, the insight job suggests an index on the unindexed filter and order (never on a
// unique column) and flags the counts, "Apply" adds the index through the schema change path (history, the real
// index, the plan uses it) and marks it implemented; bad ids, other accounts and insights Basalt cannot apply
// are refused.

// Every read counts as slow here: the seeded table is small, and what is tested is the path, not the timing.
const EAGER: IndexInsightLimits = { minReads: 5, slowReadMs: 0, frequentReads: 1e9, slowCountMs: 0 };

interface Insight {
  id: number;
  tableId: number;
  insightType: string;
  details: { column?: string; calls: number };
  canApply: boolean;
  implemented: boolean;
}

describe.each(testDialects)('index insights on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  let tableId: number;

  const db = () => server.app.basalt.db;
  const list = async (who: SignedInAccount): Promise<Insight[]> =>
    (await server.request('GET', '/api/insights', { headers: who.headers })).body;
  const find = async (type: string) => (await list(alice)).find((i) => i.insightType === type);
  const apply = (id: number | string, headers: Record<string, string>) =>
    server.request('POST', `/api/insights/${id}/apply`, { headers });
  const shapes = async () =>
    (
      await db()
        .kysely.selectFrom('query_shapes')
        .select(['kind', 'column_name', 'calls'])
        .where('table_id', '=', tableId)
        .execute()
    )
      .map((r) => [r.kind, r.column_name, Number(r.calls)])
      .sort();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signIn(server, 'alice');
    bob = await signIn(server, 'bob');
    const res = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: {
        name: 'shop_orders',
        schema: { status: { type: 'text' }, qty: { type: 'number' }, code: { type: 'text', unique: true } },
      },
    });
    tableId = res.body.id;
    const rows = Array.from({ length: 300 }, (_, i) => ({
      status: i % 3 ? 'open' : 'closed',
      qty: i % 17,
      code: `c${i}`,
    }));
    const seeded = await server.request('POST', `/api/tables/${tableId}/records`, {
      headers: alice.headers,
      json: rows,
    });
    expect(seeded.status, seeded.text).toBe(201);
  }, 60_000);
  afterAll(() => server.close());

  it('notes filtered, ordered and counted reads exactly, and point reads not at all', async () => {
    await flushQueryShapes(db());
    for (let i = 0; i < 3; i++) {
      const res = await server.request('GET', `/api/tables/${tableId}/records?status=eq.open&code=neq.x&orderBy=qty`, {
        headers: alice.headers,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.total).toBe(200);
      await server.request('GET', `/api/tables/${tableId}/records/1`, { headers: alice.headers });
    }
    await flushQueryShapes(db());
    for (let i = 0; i < 3; i++) {
      await server.request('GET', `/api/tables/${tableId}/records?status=eq.open&code=neq.x&orderBy=qty`, {
        headers: alice.headers,
      });
    }
    await flushQueryShapes(db());
    expect(await shapes()).toEqual(
      [
        ['count', '', 6],
        ['filter', 'code', 6],
        ['filter', 'status', 6],
        ['order', 'qty', 6],
      ].sort(),
    );
  });

  it('suggests an index on the unindexed filter and order, not on the unique column, and flags the counts', async () => {
    await examineTables(db(), new Date(), EAGER);
    const found = await list(alice);
    const mine = found.filter((i) => i.tableId === tableId);
    expect(mine.map((i) => [i.insightType, i.details.column ?? null, i.canApply]).sort()).toEqual(
      [
        ['SLOW_COUNT', null, false],
        ['UNINDEXED_FILTER', 'status', true],
        ['UNINDEXED_ORDER', 'qty', true],
      ].sort(),
    );
    expect(await list(bob)).toEqual([]);
  });

  it('applies the index through the schema change path and marks the insight implemented', async () => {
    const insight = await find('UNINDEXED_FILTER');
    if (!insight) throw new Error('no insight');
    expect((await apply(insight.id, bob.headers)).status).toBe(404);
    const res = await apply(insight.id, alice.headers);
    expect(res.status, res.text).toBe(200);
    expect(res.body.insight).toMatchObject({ id: insight.id, implemented: true });
    expect(res.body.table.schema.status).toMatchObject({ type: 'text', indexed: true });
    const history = await server.request('GET', `/api/history?tableId=${tableId}`, { headers: alice.headers });
    expect(history.body.data[0].changeType).toBe('SCHEMA_UPDATE');
    expect(history.body.data[0].newState.schema.status.indexed).toBe(true);
    if (db().dialect.name === 'sqlite') {
      const plan = await sql<{
        detail: string;
      }>`EXPLAIN QUERY PLAN SELECT * FROM ${sql.table(`t_${tableId}`)} WHERE status = 'open'`.execute(db().kysely);
      expect(plan.rows.map((r) => r.detail).join(' ')).toContain(columnIndexName(tableId, 'status'));
    } else {
      // PostgreSQL's planner has the column's statistics at once (the test server runs without autovacuum).
      const stats = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stats
        WHERE tablename = ${`t_${tableId}`} AND attname = 'status'`.execute(db().kysely);
      expect(stats.rows[0]?.n).toBe(1);
    }
    // Applied once: again is a conflict, and a later run leaves it implemented.
    const again = await apply(insight.id, alice.headers);
    expect([again.status, again.body.code]).toEqual([409, 'insight_implemented']);
    await examineTables(db(), new Date(), EAGER);
    expect(await find('UNINDEXED_FILTER')).toMatchObject({ id: insight.id, implemented: true });
  });

  it('refuses what it cannot apply, and withdraws an insight that no longer holds', async () => {
    const count = await find('SLOW_COUNT');
    if (!count) throw new Error('no insight');
    const refused = await apply(count.id, alice.headers);
    expect([refused.status, refused.body.code]).toEqual([409, 'insight_not_applicable']);
    const order = await find('UNINDEXED_ORDER');
    if (!order) throw new Error('no insight');
    const dropped = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: alice.headers,
      json: { schema: { status: { type: 'text', indexed: true }, code: { type: 'text', unique: true } } },
    });
    expect(dropped.status, dropped.text).toBe(200);
    const outdated = await apply(order.id, alice.headers);
    expect([outdated.status, outdated.body.code]).toEqual([409, 'insight_outdated']);
    await examineTables(db(), new Date(), EAGER);
    expect(await find('UNINDEXED_ORDER')).toBeUndefined();
  });

  it('refuses malformed and unknown ids and callers that are not a console account', async () => {
    for (const bad of ['abc', '-1', '1.5', '987654']) expect((await apply(bad, alice.headers)).status).toBe(404);
    expect((await apply('%00', alice.headers)).status).toBe(400);
    expect((await apply('1', {})).status).toBe(401);
    expect((await apply('1', { authorization: 'Bearer nonsense' })).status).toBe(401);
  });
});
