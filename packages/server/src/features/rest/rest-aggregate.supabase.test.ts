import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAppTable,
  type Developer,
  type EndUserClient,
  OWN_ROWS,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Top-level aggregates (PostgREST 12: `count()`, `col.sum()`, avg, min, max, grouped by the other selected
// columns) and CSV (`.csv()`), through the unmodified supabase-js on both engines, under an end user's rules.

// [category, amount, note, owner: 0 ann, 1 bob]
const ORDERS: Array<[string, number | null, string, number]> = [
  ['books', 10, 'first, "quoted"', 0],
  ['books', 30, 'second', 0],
  ['games', 5, '', 1],
  ['games', null, 'no amount', 0],
  ['toys', 2.5, 'a\\b (x)', 1],
];

describe.each(testDialects)('/rest/v1 aggregates and CSV with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let ann: EndUserClient;
  let bob: EndUserClient;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    ann = await signUpEndUser(server, dev, 'ann@example.com');
    bob = await signUpEndUser(server, dev, 'bob@example.com');
    await createAppTable(server, dev, {
      name: 'orders',
      schema: {
        category: { type: 'text' },
        amount: { type: 'number' },
        note: { type: 'text' },
        paid: { type: 'boolean' },
        owner: { type: 'text' },
      },
      access: OWN_ROWS,
    });
    const rows = ORDERS.map(([category, amount, note, owner]) => ({
      category,
      amount,
      note,
      paid: amount !== null,
      owner: owner === 0 ? ann.id : bob.id,
    }));
    const { error } = await dev.client.from('orders').insert(rows);
    if (error) throw new Error(error.message);
  });
  afterAll(() => server.close());

  it.each<[string, string, unknown]>([
    ['count()', 'count()', [{ count: 5 }]],
    ['a column count skips NULLs', 'amount.count()', [{ count: 4 }]],
    [
      'sum, avg, min, max',
      'amount.sum(), amount.avg(), amount.min(), amount.max()',
      [{ sum: 47.5, avg: 11.875, min: 2.5, max: 30 }],
    ],
    ['renamed and cast', 'total:amount.sum(), amount.avg()::int', [{ total: 47.5, avg: 12 }]],
    ['min and max of text', 'note.min(), category.max()', [{ min: '', max: 'toys' }]],
    [
      'grouped by the other columns, in their order',
      'category, count(), amount.sum()',
      [
        { category: 'books', count: 2, sum: 40 },
        { category: 'games', count: 2, sum: 5 },
        { category: 'toys', count: 1, sum: 2.5 },
      ],
    ],
    [
      'grouped by two columns',
      'paid, category, n:count()',
      [
        { paid: false, category: 'games', n: 1 },
        { paid: true, category: 'books', n: 2 },
        { paid: true, category: 'games', n: 1 },
        { paid: true, category: 'toys', n: 1 },
      ],
    ],
  ])('%s', async (_name, select, expected) => {
    const { data, error } = await dev.client.from('orders').select(select);
    expect(error).toBeNull();
    expect(data).toEqual(expected);
  });

  it('filters, orders and pages groups, and counts them', async () => {
    const { data, error, count } = await dev.client
      .from('orders')
      .select('category, amount.max()', { count: 'exact' })
      .gt('amount', 1)
      .order('category', { ascending: false })
      .range(0, 1);
    expect(error).toBeNull();
    expect(data).toEqual([
      { category: 'toys', max: 2.5 },
      { category: 'games', max: 5 },
    ]);
    expect(count).toBe(3);
  });

  it('aggregates only the rows an end user may read', async () => {
    expect((await ann.client.from('orders').select('count(), amount.sum()')).data).toEqual([{ count: 3, sum: 40 }]);
    expect((await bob.client.from('orders').select('category, count()')).data).toEqual([
      { category: 'games', count: 1 },
      { category: 'toys', count: 1 },
    ]);
  });

  it.each<[string, string, string, string]>([
    ['sum of text', 'note.sum()', '42883', 'function sum(text) does not exist'],
    ['avg of a boolean', 'paid.avg()', '42883', 'function avg(boolean) does not exist'],
    ['an unknown column', 'nope.sum()', '42703', 'column orders.nope does not exist'],
    ['* beside an aggregate', '*, count()', 'PGRST100', 'Aggregates cannot be grouped by *'],
    ['a cast before an aggregate', 'amount::int.sum()', 'PGRST123', 'Use of aggregate functions is not allowed'],
    [
      'an aggregate over a JSON path inside an embed',
      'category, orders(note->a.sum())',
      'PGRST123',
      'Use of aggregate functions is not allowed',
    ],
  ])('refuses %s', async (_name, select, code, message) => {
    const { error, status } = await dev.client.from('orders').select(select);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code, message });
  });

  it('refuses ordering by a column that is not grouped', async () => {
    const { error, status } = await dev.client.from('orders').select('category, count()').order('amount');
    expect(status).toBe(400);
    expect(error?.code).toBe('42803');
  });

  it('answers CSV as PostgREST writes it', async () => {
    const { data, error } = await dev.client.from('orders').select('category, amount, note, paid').order('id').csv();
    expect(error).toBeNull();
    expect(data).toBe(
      [
        'category,amount,note,paid',
        'books,10,"first, ""quoted""",t',
        'books,30,second,t',
        'games,5,"",t',
        'games,,"no amount",f',
        'toys,2.5,"a\\\\b (x)",t',
      ].join('\n'),
    );
    const grouped = await dev.client.from('orders').select('category, count()').csv();
    expect(grouped.data).toBe('category,count\nbooks,2\ngames,2\ntoys,1');
    const none = await dev.client.from('orders').select('category').eq('category', 'none').csv();
    expect(none.data).toBe('\n');
    const response = await fetch(`${server.url}/rest/v1/orders?select=category&limit=1`, {
      headers: { ...dev.headers, accept: 'text/csv' },
    });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await response.text()).toBe('category\nbooks');
  });
});
