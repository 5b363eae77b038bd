import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, registeredHeaders, startCluster } from '../../testing/cluster.fixtures.js';
import { callNode, type ServerProcess } from '../../testing/server-process.js';

// Two `basalt serve` processes on one PostgreSQL database give the same history totals: the count is kept in the
// database with the changes (db/history-counts.ts), so a change made through one node is in the other node's
// total at once, whichever node wrote it and however they wrote at the same time.

describe.skipIf(!process.env.TEST_DATABASE_URL)('history totals on two nodes of one PostgreSQL', () => {
  let cluster: Cluster;
  let nodes: ServerProcess[] = [];
  let headers: Record<string, string>;

  beforeAll(async () => {
    cluster = await startCluster(2);
    nodes = cluster.nodes;
    headers = await registeredHeaders(nodes[0] as ServerProcess, 'twonodes');
  }, 120_000);

  afterAll(() => cluster?.stop());

  it('sees the changes written through both nodes at once in either node’s total', async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const table = await callNode(a.url, 'POST', '/api/tables', headers, {
      name: 'notes',
      schema: { t: { type: 'text' } },
    });
    expect(table.status).toBe(201);
    const path = `/api/tables/${table.body.id}/records`;
    const writes = Array.from({ length: 40 }, (_, i) =>
      callNode(i % 2 === 0 ? a.url : b.url, 'POST', path, headers, { t: `n${i}` }),
    );
    expect((await Promise.all(writes)).map((reply) => reply.status)).toEqual(Array(40).fill(201));
    const latest = await callNode(b.url, 'GET', `/api/history?tableId=${table.body.id}&limit=1`, headers);
    expect((await callNode(a.url, 'POST', `/api/history/${latest.body.data[0].id}/revert`, headers)).status).toBe(200);
    for (const node of [a, b]) {
      const page = await callNode(node.url, 'GET', `/api/history?tableId=${table.body.id}`, headers);
      expect(page.body.pagination.totalItems).toBe(42);
      const all = await callNode(node.url, 'GET', '/api/history', headers);
      expect(all.body.pagination.totalItems).toBe(42);
    }
  }, 120_000);
});
