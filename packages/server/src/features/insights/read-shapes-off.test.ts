import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { flushQueryShapes } from './query-shapes.js';

// REQUEST_METRICS=off (what bench:monitoring's unmonitored servers run with) also stops noting the record reads'
// shapes: filtered, ordered and counted reads leave nothing to flush, while the same reads on a server with the
// switch on are noted (index-insights.test.ts checks the figures).

describe.each(testDialects)('read shapes with REQUEST_METRICS=off on %s', (dialect) => {
  const servers: Record<'on' | 'off', TestServer | null> = { on: null, off: null };
  const accounts: Partial<Record<'on' | 'off', SignedInAccount>> = {};
  const tables: Partial<Record<'on' | 'off', number>> = {};

  beforeAll(async () => {
    for (const side of ['on', 'off'] as const) {
      const server = await startTestServer(dialect, { requestMetrics: side === 'on' });
      servers[side] = server;
      const alice = await signIn(server, 'alice');
      accounts[side] = alice;
      const res = await server.request('POST', '/api/tables', {
        headers: alice.headers,
        json: { name: 'orders', schema: { status: { type: 'text' }, qty: { type: 'number' } } },
      });
      expect(res.status, res.text).toBe(201);
      tables[side] = res.body.id;
      const rows = Array.from({ length: 20 }, (_, i) => ({ status: i % 2 ? 'open' : 'closed', qty: i }));
      const seeded = await server.request('POST', `/api/tables/${res.body.id}/records`, {
        headers: alice.headers,
        json: rows,
      });
      expect(seeded.status, seeded.text).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await servers.on?.close();
    await servers.off?.close();
  });

  // Lists filtered and ordered, with their exact counts, through both record APIs' paths on one server; then what a
  // flush writes.
  const readAndFlush = async (side: 'on' | 'off') => {
    const server = servers[side] as TestServer;
    const alice = accounts[side] as SignedInAccount;
    await flushQueryShapes(server.app.basalt.db);
    for (let i = 0; i < 3; i++) {
      const res = await server.request('GET', `/api/tables/${tables[side]}/records?status=eq.open&orderBy=qty`, {
        headers: alice.headers,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.total).toBe(10);
    }
    return flushQueryShapes(server.app.basalt.db);
  };

  it('notes the reads with the switch on', async () => {
    expect(await readAndFlush('on')).toBeGreaterThan(0);
  });

  it('notes nothing with the switch off', async () => {
    expect(await readAndFlush('off')).toBe(0);
    const kept = await (servers.off as TestServer).app.basalt.db.kysely
      .selectFrom('query_shapes')
      .select('calls')
      .execute();
    expect(kept).toEqual([]);
  });
});
