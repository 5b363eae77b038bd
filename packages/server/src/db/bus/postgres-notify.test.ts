import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrateBusDatabase, queryOnce, startBusNode, type TestBusNode, waitFor } from '../../testing/bus-nodes.js';
import { createTestDatabase } from '../../testing/test-server.js';
import { deleteOldOutboxRows } from './event-outbox.store.js';
import { DEFAULT_CHANNEL } from './postgres-notify.js';

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!hasPostgres)('event bus across nodes on PostgreSQL (needs TEST_DATABASE_URL)', () => {
  let database: { url: string; drop(): Promise<void> };
  let nodes: TestBusNode[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateBusDatabase(database.url);
  });
  afterAll(async () => {
    await database?.drop();
  });
  afterEach(async () => {
    await Promise.all(nodes.map((node) => node.bus.close()));
    nodes = [];
  });

  /** twoNodes starts A and B on the database and waits until both hear the other. */
  async function twoNodes(): Promise<[TestBusNode, TestBusNode]> {
    const a = startBusNode(database.url);
    const b = startBusNode(database.url);
    nodes.push(a, b);
    await waitFor(() => a.bus.reliable && b.bus.reliable);
    return [a, b];
  }

  const backendsNamed = async (name: string) =>
    queryOnce<{ pid: number }>(
      database.url,
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [name],
    );

  it('delivers an event of A on B as not local, and on A only once, as local', async () => {
    const [a, b] = await twoNodes();
    expect(a.resets).toEqual([true]);
    a.bus.publish('bus-test.ping', { n: 1 });
    b.bus.publish('bus-test.ping', { n: 2 });
    await waitFor(() => expect(b.pings).toHaveLength(2));
    await waitFor(() => expect(a.pings).toHaveLength(2));
    // Time for a stray copy of A's own notification to come back, had it not been ignored.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(a.pings).toEqual([
      { n: 1, local: true },
      { n: 2, local: false },
    ]);
    expect(b.pings).toEqual([
      { n: 2, local: true },
      { n: 1, local: false },
    ]);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('keeps the order of 1,000 events published over several turns of the event loop', async () => {
    const [a, b] = await twoNodes();
    for (let n = 0; n < 1000; n++) {
      a.bus.publish('bus-test.ping', { n });
      if (n % 97 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await waitFor(() => expect(b.pings).toHaveLength(1000));
    expect(b.pings.map((p) => p.n)).toEqual(Array.from({ length: 1000 }, (_, n) => n));
    expect(b.pings.every((p) => !p.local)).toBe(true);
  });

  it('carries a 100 KB payload through an outbox row, in order with the small events around it', async () => {
    const [a, b] = await twoNodes();
    const before = await queryOnce<{ n: number }>(database.url, 'SELECT count(*)::int AS n FROM event_outbox');
    const large = `${'€'.repeat(20_000)}${'x'.repeat(40_000)}`; // 100,000 bytes
    a.bus.publish('bus-test.text', { text: 'first' });
    a.bus.publish('bus-test.text', { text: large });
    a.bus.publish('bus-test.text', { text: 'last' });
    await waitFor(() => expect(b.texts).toHaveLength(3));
    expect(b.texts[0]).toBe('first');
    expect(b.texts[1]).toBe(large);
    expect(b.texts[2]).toBe('last');
    const after = await queryOnce<{ n: number }>(database.url, 'SELECT count(*)::int AS n FROM event_outbox');
    expect((after[0]?.n ?? 0) - (before[0]?.n ?? 0)).toBe(1);
  });

  it('resets B when its LISTEN connection is killed, and hears A again once it is back', async () => {
    const [a, b] = await twoNodes();
    const [listener] = await backendsNamed(b.transport.applicationName);
    expect(listener).toBeDefined();
    await queryOnce(database.url, 'SELECT pg_terminate_backend($1)', [listener?.pid]);
    await waitFor(() => expect(b.resets).toEqual([true, false]));
    expect(b.bus.reliable).toBe(false);
    await waitFor(() => expect(b.resets).toEqual([true, false, true]), 3000);
    expect(b.bus.reliable).toBe(true);
    a.bus.publish('bus-test.ping', { n: 5 });
    await waitFor(() => expect(b.pings).toEqual([{ n: 5, local: false }]));
    // A new connection, not the killed one.
    const [again] = await backendsNamed(b.transport.applicationName);
    expect(again?.pid).not.toBe(listener?.pid);
    expect(a.resets).toEqual([true]);
  });

  it("sends A's events again after its sending connections are killed", async () => {
    const [a, b] = await twoNodes();
    a.bus.publish('bus-test.ping', { n: 1 });
    await waitFor(() => expect(b.pings).toHaveLength(1));
    const senders = await backendsNamed(`${a.transport.applicationName}-send`);
    expect(senders.length).toBeGreaterThan(0);
    await queryOnce(database.url, 'SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [
      senders.map((s) => s.pid),
    ]);
    for (let n = 2; n <= 5; n++) a.bus.publish('bus-test.ping', { n });
    await waitFor(() => expect(b.pings.map((p) => p.n)).toEqual([1, 2, 3, 4, 5]));
  });

  it("drops a repeated notification, resets on a gap in a sender's numbering, and ignores a foreign one", async () => {
    const [, b] = await twoNodes();
    const notify = (payload: string) => queryOnce(database.url, 'SELECT pg_notify($1, $2)', [DEFAULT_CHANNEL, payload]);
    const forged = (seq: number, n: number) =>
      JSON.stringify({ node: 'forged', seq, events: [{ topic: 'bus-test.ping', payload: { n } }] });
    await notify(forged(1, 10));
    await notify(forged(1, 10)); // a retried send that had gone through
    await notify(forged(2, 20));
    await notify('not a Basalt event');
    await notify(forged(4, 40)); // 3 never came
    await waitFor(() => expect(b.pings.map((p) => p.n)).toEqual([10, 20, 40]));
    expect(b.resets).toEqual([true, true]);
    expect(b.errors.map(String)).toEqual([expect.stringContaining('not a Basalt event')]);
  });

  it('keeps channels apart: a node on another channel hears nothing', async () => {
    const [a, b] = await twoNodes();
    const c = startBusNode(database.url, { channel: 'basalt_other' });
    nodes.push(c);
    await waitFor(() => c.bus.reliable);
    a.bus.publish('bus-test.ping', { n: 1 });
    await waitFor(() => expect(b.pings).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(c.pings).toEqual([]);
  });

  it('sends what was published just before close', async () => {
    const [a, b] = await twoNodes();
    for (let n = 0; n < 50; n++) a.bus.publish('bus-test.ping', { n });
    a.bus.publish('bus-test.text', { text: 'z'.repeat(20_000) });
    await a.bus.close();
    await waitFor(() => expect(b.texts).toHaveLength(1));
    expect(b.pings.map((p) => p.n)).toEqual(Array.from({ length: 50 }, (_, n) => n));
  });

  it('deletes outbox rows older than the given time, a bounded number at a time', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      await pool.query('DELETE FROM event_outbox');
      await pool.query(
        `INSERT INTO event_outbox (payload, created_at)
         SELECT '[]', CASE WHEN i <= 5 THEN '2030-01-01T00:00:00.000Z' ELSE '2030-01-01T00:10:00.000Z' END
         FROM generate_series(1, 8) AS i`,
      );
      expect(await deleteOldOutboxRows(pool, '2030-01-01T00:05:00.000Z', 3)).toBe(3);
      expect(await deleteOldOutboxRows(pool, '2030-01-01T00:05:00.000Z', 3)).toBe(2);
      expect(await deleteOldOutboxRows(pool, '2030-01-01T00:05:00.000Z', 3)).toBe(0);
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM event_outbox');
      expect(rows[0]?.n).toBe(3);
    } finally {
      await pool.end();
    }
  });

  it('closes every connection it opened', async () => {
    const [a, b] = await twoNodes();
    a.bus.publish('bus-test.text', { text: 'x'.repeat(10_000) });
    await waitFor(() => expect(b.texts).toHaveLength(1));
    const names = [a, b].flatMap((node) => [node.transport.applicationName, `${node.transport.applicationName}-send`]);
    const count = async () =>
      (
        await queryOnce<{ n: number }>(
          database.url,
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ANY($1)',
          [names],
        )
      )[0]?.n;
    expect(await count()).toBeGreaterThanOrEqual(3);
    await a.bus.close();
    await b.bus.close();
    nodes = [];
    await waitFor(async () => expect(await count()).toBe(0));
  });
});
