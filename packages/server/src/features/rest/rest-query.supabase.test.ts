import { createClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { parseRestQuery } from './rest-query.parse.js';
import type { Filter, RestQuery } from './rest-query.types.js';

// The parser against what @supabase/supabase-js itself sends: a fetch stub captures each request (no
// network), and the captured query string and headers go through parseRestQuery as the server will see them.

interface Captured {
  method: string;
  search: string;
  headers: Record<string, string>;
}

const seen: Captured[] = [];
const client = createClient('http://localhost:8787', 'anon-key', {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  global: {
    fetch: async (input, init) => {
      const request = new Request(input, init);
      seen.push({
        method: request.method,
        search: new URL(request.url).search,
        headers: Object.fromEntries(request.headers),
      });
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  },
});
type Client = typeof client;

async function capture(call: (c: Client) => PromiseLike<unknown>): Promise<Captured> {
  seen.length = 0;
  await call(client);
  const [request] = seen;
  if (!request) throw new Error('supabase-js sent nothing');
  return request;
}

async function parsed(call: (c: Client) => PromiseLike<unknown>): Promise<RestQuery> {
  const request = await capture(call);
  return parseRestQuery(request.search, request.headers, { method: request.method });
}

const column = (name: string) => ({ column: name, jsonPath: [] });
const filter = (name: string, operation: Filter['operation'], negated = false): Filter => ({
  field: column(name),
  negated,
  operation,
});

describe('requests of supabase-js', () => {
  it('select, eq, order, range', async () => {
    const request = await capture((c) => c.from('todos').select('id, title').eq('done', false).order('id').range(0, 9));
    expect(request.search).toBe('?select=id%2Ctitle&done=eq.false&order=id.asc&offset=0&limit=10');
    const q = parseRestQuery(request.search, request.headers, { method: request.method });
    expect(q.select).toEqual([
      { kind: 'field', field: column('id'), alias: null, cast: null },
      { kind: 'field', field: column('title'), alias: null, cast: null },
    ]);
    expect(q.filters).toEqual([filter('done', { kind: 'compare', op: 'eq', value: 'false' })]);
    expect(q.order).toEqual([{ field: column('id'), direction: 'asc', nulls: 'last' }]);
    expect(q.range).toEqual({ offset: 0, limit: 10 });
    expect(q.format).toBe('json');
  });

  it('HEAD with an exact count', async () => {
    const request = await capture((c) => c.from('todos').select('*', { count: 'exact', head: true }));
    expect(request.method).toBe('HEAD');
    const q = parseRestQuery(request.search, request.headers, { method: request.method });
    expect(q.select).toEqual([{ kind: 'star' }]);
    expect(q.prefer.count).toBe('exact');
  });

  it('ilike, in with a comma inside a value, is null', async () => {
    const q = await parsed((c) =>
      c.from('todos').select().ilike('title', '%a b%').in('id', [1, 2, 'x,y']).is('qty', null),
    );
    expect(q.filters).toEqual([
      filter('title', { kind: 'pattern', op: 'ilike', value: '%a b%' }),
      filter('id', { kind: 'in', values: ['1', '2', 'x,y'] }),
      filter('qty', { kind: 'is', value: 'null' }),
    ]);
  });

  it('or with a nested and', async () => {
    const q = await parsed((c) => c.from('todos').select().or('qty.gt.5,and(done.is.true,qty.lt.2)'));
    expect(q.logic).toEqual([
      {
        kind: 'or',
        negated: false,
        children: [
          { kind: 'filter', filter: filter('qty', { kind: 'compare', op: 'gt', value: '5' }) },
          {
            kind: 'and',
            negated: false,
            children: [
              { kind: 'filter', filter: filter('done', { kind: 'is', value: 'true' }) },
              { kind: 'filter', filter: filter('qty', { kind: 'compare', op: 'lt', value: '2' }) },
            ],
          },
        ],
      },
    ]);
  });

  it('contains, containedBy, overlaps', async () => {
    const q = await parsed((c) =>
      c.from('todos').select().contains('meta', { a: 1 }).containedBy('tags', ['a', 'b']).overlaps('tags', [1, 2]),
    );
    expect(q.filters.map((f) => f.operation)).toEqual([
      { kind: 'contains', op: 'cs', value: '{"a":1}' },
      { kind: 'contains', op: 'cd', value: '{a,b}' },
      { kind: 'contains', op: 'ov', value: '{1,2}' },
    ]);
  });

  it('order descending with nulls first, then a second order', async () => {
    const q = await parsed((c) =>
      c.from('todos').select().order('qty', { ascending: false, nullsFirst: true }).order('id'),
    );
    expect(q.order).toEqual([
      { field: column('qty'), direction: 'desc', nulls: 'first' },
      { field: column('id'), direction: 'asc', nulls: 'last' },
    ]);
  });

  it('insert one row with select()', async () => {
    const request = await capture((c) => c.from('todos').insert({ title: 'a' }).select());
    expect(request.method).toBe('POST');
    const q = parseRestQuery(request.search, request.headers, { method: request.method });
    expect(q.prefer.return).toBe('representation');
    expect(q.select).toEqual([{ kind: 'star' }]);
  });

  it('bulk insert sends the union of keys as columns', async () => {
    const request = await capture((c) => c.from('todos').insert([{ title: 'a' }, { title: 'b', qty: 2 }]));
    expect(request.search).toBe('?columns=%22title%22%2C%22qty%22');
    const q = parseRestQuery(request.search, request.headers, { method: request.method });
    expect(q.columns).toEqual(['title', 'qty']);
    expect(q.prefer.return).toBeNull();
  });

  it('upsert with on_conflict, select and single', async () => {
    const request = await capture((c) =>
      c.from('todos').upsert({ id: 1, title: 'x' }, { onConflict: 'id' }).select().single(),
    );
    const q = parseRestQuery(request.search, request.headers, { method: request.method });
    expect(q.onConflict).toEqual(['id']);
    expect(q.prefer).toEqual({ return: 'representation', count: null, resolution: 'merge-duplicates', missing: null });
    expect(q.format).toBe('object');
  });

  it('upsert ignoring duplicates, with count and defaults', async () => {
    const q = await parsed((c) =>
      c
        .from('todos')
        .upsert([{ id: 1 }, { id: 2, title: 'y' }], { ignoreDuplicates: true, defaultToNull: false, count: 'exact' }),
    );
    expect(q.prefer).toEqual({ return: null, count: 'exact', resolution: 'ignore-duplicates', missing: 'default' });
    expect(q.columns).toEqual(['id', 'title']);
  });

  it('update and delete with a filter', async () => {
    const update = await capture((c) => c.from('todos').update({ done: true }).eq('id', 1));
    expect(update.method).toBe('PATCH');
    expect(parseRestQuery(update.search, update.headers, { method: 'PATCH' }).filters).toEqual([
      filter('id', { kind: 'compare', op: 'eq', value: '1' }),
    ]);
    const remove = await capture((c) => c.from('todos').delete().eq('id', 1).select());
    expect(remove.method).toBe('DELETE');
    expect(parseRestQuery(remove.search, remove.headers, { method: 'DELETE' }).prefer.return).toBe('representation');
  });

  it('single and maybeSingle', async () => {
    expect((await parsed((c) => c.from('todos').select().eq('id', 1).single())).format).toBe('object');
    expect((await parsed((c) => c.from('todos').select().eq('id', 1).maybeSingle())).format).toBe('json');
  });

  it('P1 operators: isDistinct, regexMatch, regexIMatch, likeAnyOf, ilikeAllOf, not, neq, match', async () => {
    const q = await parsed((c) =>
      c
        .from('todos')
        .select()
        .isDistinct('done', true)
        .regexMatch('title', '^A')
        .regexIMatch('title', 'b$')
        .likeAnyOf('title', ['a*', 'b*'])
        .ilikeAllOf('title', ['%x%', '%y%'])
        .not('qty', 'is', null)
        .neq('qty', 3)
        .match({ title: 'a', qty: 1 }),
    );
    expect(q.filters).toEqual([
      filter('done', { kind: 'isdistinct', value: 'true' }),
      filter('title', { kind: 'pattern', op: 'match', value: '^A' }),
      filter('title', { kind: 'pattern', op: 'imatch', value: 'b$' }),
      filter('title', { kind: 'quantified', op: 'like', quantifier: 'any', values: ['a%', 'b%'] }),
      filter('title', { kind: 'quantified', op: 'ilike', quantifier: 'all', values: ['%x%', '%y%'] }),
      filter('qty', { kind: 'is', value: 'null' }, true),
      filter('qty', { kind: 'compare', op: 'neq', value: '3' }),
      filter('title', { kind: 'compare', op: 'eq', value: 'a' }),
      filter('qty', { kind: 'compare', op: 'eq', value: '1' }),
    ]);
  });

  it('JSON path filters, rename and cast in select, limit', async () => {
    const q = await parsed((c) =>
      c.from('todos').select('label:title, qty::text, meta->color, meta->>size').eq('meta->>kind', 'x').limit(5),
    );
    expect(q.select).toEqual([
      { kind: 'field', field: column('title'), alias: 'label', cast: null },
      { kind: 'field', field: column('qty'), alias: null, cast: 'text' },
      { kind: 'field', field: { column: 'meta', jsonPath: [{ arrow: '->', key: 'color' }] }, alias: null, cast: null },
      { kind: 'field', field: { column: 'meta', jsonPath: [{ arrow: '->>', key: 'size' }] }, alias: null, cast: null },
    ]);
    expect(q.filters).toEqual([
      {
        field: { column: 'meta', jsonPath: [{ arrow: '->>', key: 'kind' }] },
        negated: false,
        operation: { kind: 'compare', op: 'eq', value: 'x' },
      },
    ]);
    expect(q.range).toEqual({ offset: 0, limit: 5 });
  });

  it('filter values with dots, quotes and SQL stay plain data', async () => {
    const q = await parsed((c) =>
      c.from('todos').select().eq('title', "a.b'; drop table t_1;--").in('title', ['"quoted"', 'x)y']),
    );
    expect(q.filters).toEqual([
      filter('title', { kind: 'compare', op: 'eq', value: "a.b'; drop table t_1;--" }),
      // supabase-js quotes only values with `,()`, so `"quoted"` arrives as a quoted element, as in PostgREST.
      filter('title', { kind: 'in', values: ['quoted', 'x)y'] }),
    ]);
  });

  it('the tables resource of the console', async () => {
    expect((await parsed((c) => c.from('tables').select('*'))).select).toEqual([{ kind: 'star' }]);
    const insert = await parsed((c) => c.from('tables').insert({ name: 'todos', schema: {} }).select().single());
    expect(insert.format).toBe('object');
    const drop = await parsed((c) => c.from('tables').delete().eq('id', 7));
    expect(drop.filters).toEqual([filter('id', { kind: 'compare', op: 'eq', value: '7' })]);
  });
});
