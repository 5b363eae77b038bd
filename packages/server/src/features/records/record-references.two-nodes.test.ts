import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, signedUpHeaders, startCluster } from '../../testing/cluster.fixtures.js';
import { callNode, type ServerProcess } from '../../testing/server-process.js';

// Two `basalt serve` processes on one PostgreSQL database keep references alike: which columns refer to which
// table is cached per process (record-references.ts), so a reference added on one node must hold on the other
// at once after its event, for deletes (restrict) and for embedded reads.

describe.skipIf(!process.env.TEST_DATABASE_URL)('reference columns on two nodes of one PostgreSQL', () => {
  let cluster: Cluster;
  let nodes: ServerProcess[] = [];
  let headers: Record<string, string>;

  beforeAll(async () => {
    cluster = await startCluster(2);
    nodes = cluster.nodes;
    headers = await signedUpHeaders(nodes[0] as ServerProcess, 'refs');
  }, 120_000);

  afterAll(() => cluster?.stop());

  it('holds a reference added on one node on the other', async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const json = { ...headers, prefer: 'return=representation' };
    await callNode(a.url, 'POST', '/api/tables', headers, { name: 'authors', schema: { name: { type: 'text' } } });
    const posts = await callNode(a.url, 'POST', '/api/tables', headers, {
      name: 'posts',
      schema: { title: { type: 'text' }, author_id: { type: 'number' } },
    });
    const [first] = (await callNode(b.url, 'POST', '/rest/v1/authors', json, [{ name: 'Ada' }, { name: 'Bo' }])).body;
    // Node b learns that nothing refers to authors: a delete there takes no reference into account.
    const bo = await callNode(b.url, 'DELETE', '/rest/v1/authors?name=eq.Bo', headers);
    expect(bo.status).toBeLessThan(300);
    const changed = await callNode(a.url, 'PATCH', `/api/tables/${posts.body.id}`, headers, {
      schema: { title: { type: 'text' }, author_id: { type: 'number', references: { table: 'authors' } } },
    });
    expect(changed.status).toBe(200);
    await callNode(a.url, 'POST', '/rest/v1/posts', headers, { title: 'Notes', author_id: first.id });
    // Node b now refuses the delete, embeds through the reference, and refuses a value pointing nowhere.
    let refused = 0;
    for (let i = 0; i < 50 && refused !== 409; i++) {
      refused = (await callNode(b.url, 'DELETE', '/rest/v1/authors?name=eq.Ada', headers)).status;
      if (refused !== 409) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(refused).toBe(409);
    const embedded = await callNode(b.url, 'GET', '/rest/v1/posts?select=title,author:authors(name)', headers);
    expect(embedded.body).toEqual([{ title: 'Notes', author: { name: 'Ada' } }]);
    const dangling = await callNode(b.url, 'POST', '/rest/v1/posts', headers, { title: 'x', author_id: 424_242 });
    expect(dangling.status).toBe(409);
    expect(dangling.body.code).toBe('23503');
  });
});
