import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnIndexName } from '../../db/column-indexes.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// A column's `indexed` flag on both engines: the real index follows the schema through creates, renames, the
// SQLite rebuild of a required change, retypes and drops, a change is in history and its revert takes the index
// away again; json and array columns, and bad flags, are refused.

describe.each(testDialects)('column indexes on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInAccount;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signIn(server, 'alice');
  }, 60_000);
  afterAll(() => server.close());

  const indexesOf = async (tableId: number): Promise<string[]> => {
    const db = server.app.basalt.db;
    const table = `t_${tableId}`;
    const query =
      db.dialect.name === 'sqlite'
        ? sql<{
            name: string;
          }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table} AND sql IS NOT NULL`
        : sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${table}`;
    const { rows } = await query.execute(db.kysely);
    return rows.map((r) => r.name).filter((n) => n.endsWith('_idx'));
  };
  const create = async (name: string, schema: Record<string, unknown>) => {
    const res = await server.request('POST', '/api/tables', { headers: alice.headers, json: { name, schema } });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; schema: Record<string, { indexed?: boolean }> };
  };
  const change = (id: number, json: Record<string, unknown>) =>
    server.request('PATCH', `/api/tables/${id}`, { headers: alice.headers, json });

  it('creates, renames, keeps through a rebuild and a retype, and drops a column index', async () => {
    const table = await create('indexed_orders', { qty: { type: 'number', indexed: true }, note: { type: 'text' } });
    expect(table.schema.qty?.indexed).toBe(true);
    expect(await indexesOf(table.id)).toEqual([columnIndexName(table.id, 'qty')]);
    await server.request('POST', `/api/tables/${table.id}/records`, { headers: alice.headers, json: { qty: 3 } });

    let res = await change(table.id, {
      schema: { amount: { type: 'number', indexed: true }, note: { type: 'text', indexed: true } },
      renames: { qty: 'amount' },
    });
    expect(res.status, res.text).toBe(200);
    expect((await indexesOf(table.id)).sort()).toEqual(
      [columnIndexName(table.id, 'amount'), columnIndexName(table.id, 'note')].sort(),
    );
    // Required rebuilds the table on SQLite; a retype re-creates the column: both keep the index.
    res = await change(table.id, {
      schema: { amount: { type: 'text', required: true, indexed: true }, note: { type: 'text', indexed: true } },
    });
    expect(res.status, res.text).toBe(200);
    expect((await indexesOf(table.id)).length).toBe(2);
    res = await change(table.id, { schema: { amount: { type: 'text', required: true }, note: { type: 'text' } } });
    expect(res.status, res.text).toBe(200);
    expect(await indexesOf(table.id)).toEqual([]);
    // A dropped column takes its index along (SQLite cannot drop an indexed column).
    res = await change(table.id, { schema: { note: { type: 'text', indexed: true } } });
    expect(res.status, res.text).toBe(200);
    res = await change(table.id, { schema: { other: { type: 'text' } } });
    expect(res.status, res.text).toBe(200);
    expect(await indexesOf(table.id)).toEqual([]);
  });

  it('records the index in history, and its revert drops it', async () => {
    const table = await create('indexed_history', { qty: { type: 'number' } });
    const res = await change(table.id, { schema: { qty: { type: 'number', indexed: true } } });
    expect(res.status, res.text).toBe(200);
    const history = await server.request('GET', `/api/history?tableId=${table.id}`, { headers: alice.headers });
    const entry = history.body.data[0];
    expect(entry.changeType).toBe('SCHEMA_UPDATE');
    expect(await indexesOf(table.id)).toEqual([columnIndexName(table.id, 'qty')]);
    const revert = await server.request('POST', `/api/history/${entry.id}/revert`, { headers: alice.headers });
    expect(revert.status, revert.text).toBe(200);
    expect(await indexesOf(table.id)).toEqual([]);
    const after = await server.request('GET', `/api/tables/${table.id}`, { headers: alice.headers });
    expect(after.body.schema.qty.indexed ?? false).toBe(false);
  });

  it('gives a unique column no second index', async () => {
    const table = await create('indexed_unique', { code: { type: 'text', unique: true, indexed: true } });
    expect(await indexesOf(table.id)).toEqual([]);
    const res = await change(table.id, { schema: { code: { type: 'text', indexed: true } } });
    expect(res.status, res.text).toBe(200);
    expect(await indexesOf(table.id)).toEqual([columnIndexName(table.id, 'code')]);
  });

  it.each([
    ['a json column', { doc: { type: 'json', indexed: true } }, 'A json or array column cannot be indexed'],
    ['an array column', { tags: { type: 'array', indexed: true } }, 'A json or array column cannot be indexed'],
    ['a string flag', { qty: { type: 'number', indexed: 'yes' } }, 'Indexed must be true or false'],
    ['a null flag', { qty: { type: 'number', indexed: null } }, 'Indexed must be true or false'],
  ])('refuses %s', async (_name, schema, message) => {
    const res = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: `refused_${Math.random().toString(36).slice(2, 8)}`, schema },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain(message);
  });
});
