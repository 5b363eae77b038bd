import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, signedUpHeaders, startCluster } from '../../testing/cluster.fixtures.js';
import { callNode, type NodeReply, type ServerProcess } from '../../testing/server-process.js';

// Two `basalt serve` processes on one PostgreSQL database count alike: a write on one node is in the other node's
// exact counts at once (no waiting for the bus), filtered or not, because every cached count is checked against
// the table's write version in the database before it answers (record-counts.ts).

const totalOf = (reply: NodeReply) => Number(reply.headers.get('content-range')?.split('/')[1]);

describe.skipIf(!process.env.TEST_DATABASE_URL)('exact counts on two nodes of one PostgreSQL', () => {
  let cluster: Cluster;
  let nodes: ServerProcess[] = [];
  let headers: Record<string, string>;

  beforeAll(async () => {
    cluster = await startCluster(2);
    nodes = cluster.nodes;
    headers = await signedUpHeaders(nodes[0] as ServerProcess, 'counts');
  }, 120_000);

  afterAll(() => cluster?.stop());

  it("sees every write of one node in the other node's counts at once", async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const table = await callNode(a.url, 'POST', '/api/tables', headers, {
      name: 'stock',
      schema: { qty: { type: 'number' }, tag: { type: 'text' } },
    });
    expect(table.status).toBe(201);
    const model = new Map<number, number>();
    const expected = () => [...model.values()].filter((qty) => qty > 500).length;
    const counted = async (base: string) => {
      const exact = { ...headers, prefer: 'count=exact' };
      const filtered = await callNode(base, 'GET', '/rest/v1/stock?qty=gt.500&order=id.desc&limit=5', exact);
      const all = await callNode(base, 'HEAD', '/rest/v1/stock', exact);
      const grid = await callNode(base, 'GET', `/api/tables/${table.body.id}/records?limit=5`, headers);
      return { filtered: totalOf(filtered), all: totalOf(all), grid: grid.body.total };
    };

    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let step = 0; step < 40; step++) {
      const [writer, reader] = step % 3 === 0 ? [b, a] : [a, b];
      // Both nodes have counted (and cached) before the write.
      await counted(reader.url);
      const ids = [...model.keys()];
      const roll = next() % 10;
      if (roll < 5 || ids.length === 0) {
        const qty = next() % 1000;
        const res = await callNode(
          writer.url,
          'POST',
          '/rest/v1/stock',
          { ...headers, prefer: 'return=representation' },
          {
            qty,
            tag: 't',
          },
        );
        expect(res.status).toBe(201);
        model.set(res.body[0].id, qty);
      } else if (roll < 8) {
        const id = ids[next() % ids.length] as number;
        const qty = next() % 1000;
        expect((await callNode(writer.url, 'PATCH', `/rest/v1/stock?id=eq.${id}`, headers, { qty })).status).toBe(204);
        model.set(id, qty);
      } else {
        const id = ids[next() % ids.length] as number;
        expect((await callNode(writer.url, 'DELETE', `/rest/v1/stock?id=eq.${id}`, headers)).status).toBe(204);
        model.delete(id);
      }
      // No waiting: the other node answers with the write counted.
      expect(await counted(reader.url)).toEqual({ filtered: expected(), all: model.size, grid: model.size });
      expect(await counted(writer.url)).toEqual({ filtered: expected(), all: model.size, grid: model.size });
    }
  }, 120_000);
});
