import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestTable, type RestUser, signUpRestUser, startRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Writes through @supabase/supabase-js itself: insert, bulk insert with `columns`, upsert
// (merge and ignore, on id and on another unique column), update, delete, `.select()` after each, counts,
// singular writes rolled back with their 406, and `.throwOnError()`.

describe.each(testDialects)('/rest/v1 writes with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let n = 0;

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server);
  });
  afterAll(() => server.close());

  /** fresh creates an empty todos table and returns its name. */
  async function fresh(): Promise<string> {
    const name = `todos_${++n}`;
    await createRestTable(alice, name);
    return name;
  }

  async function titles(table: string): Promise<unknown[]> {
    const { data } = await alice.client.from(table).select('title').order('id');
    return (data ?? []).map((row) => row.title);
  }

  it('inserts one row: 201 without a body by default, the row with .select()', async () => {
    const table = await fresh();
    const minimal = await alice.client.from(table).insert({ title: 'a' });
    expect(minimal).toMatchObject({ status: 201, data: null, error: null });
    const { data, status } = await alice.client.from(table).insert({ title: 'b', qty: 2, done: true }).select();
    expect(status).toBe(201);
    expect(data).toEqual([
      expect.objectContaining({ id: 2, title: 'b', qty: 2, done: true, meta: null, created_at: expect.any(String) }),
    ]);
    const single = await alice.client.from(table).insert({ title: 'c' }).select('id, title').single();
    expect(single.data).toEqual({ id: 3, title: 'c' });
    expect(await titles(table)).toEqual(['a', 'b', 'c']);
  });

  it('bulk inserts with columns: a missing key is NULL (also with defaultToNull: false)', async () => {
    const table = await fresh();
    const rows = [
      { title: 'a', qty: 1 },
      { title: 'b', note: 'n' },
    ];
    const inserted = await alice.client.from(table).insert(rows, { count: 'exact' }).select('title, qty, note');
    expect(inserted).toMatchObject({ status: 201, count: 2, error: null });
    expect(inserted.data).toEqual([
      { title: 'a', qty: 1, note: null },
      { title: 'b', qty: null, note: 'n' },
    ]);
    const defaults = await alice.client
      .from(table)
      .insert([{ title: 'c', qty: 3 }, { title: 'd' }], { defaultToNull: false })
      .select('title, qty');
    expect(defaults.data).toEqual([
      { title: 'c', qty: 3 },
      { title: 'd', qty: null },
    ]);
  });

  it('upserts on id: merge updates and inserts, ignore keeps the existing row', async () => {
    const table = await fresh();
    await alice.client.from(table).insert([
      { title: 'a', qty: 1 },
      { title: 'b', qty: 2 },
    ]);
    const merged = await alice.client
      .from(table)
      .upsert([
        { id: 1, title: 'a2', qty: 10 },
        { id: 5, title: 'e', qty: 5 },
      ])
      .select('id, title, qty');
    expect(merged).toMatchObject({ status: 201, error: null });
    expect(merged.data).toEqual([
      { id: 1, title: 'a2', qty: 10 },
      { id: 5, title: 'e', qty: 5 },
    ]);
    const updateOnly = await alice.client
      .from(table)
      .upsert({ id: 2, title: 'b2' }, { onConflict: 'id' })
      .select()
      .single();
    expect(updateOnly).toMatchObject({ status: 200, data: { id: 2, title: 'b2', qty: 2 } });
    const ignored = await alice.client
      .from(table)
      .upsert(
        [
          { id: 1, title: 'ignored' },
          { id: 7, title: 'g' },
        ],
        { ignoreDuplicates: true },
      )
      .select('id, title');
    expect(ignored.data).toEqual([{ id: 7, title: 'g' }]);
    // As PostgREST: ignore-duplicates answers 201 even when every row was a duplicate.
    const nothing = await alice.client.from(table).upsert({ id: 7, title: 'again' }, { ignoreDuplicates: true });
    expect(nothing.status).toBe(201);
    expect(await titles(table)).toEqual(['a2', 'b2', 'e', 'g']);
    // New rows after explicit ids continue past them.
    const next = await alice.client.from(table).insert({ title: 'h' }).select('id').single();
    expect(next.data?.id).toBeGreaterThan(7);
  });

  it('upserts on another unique column, with merge and with ignore', async () => {
    const table = await fresh();
    await alice.client.from(table).insert([{ title: 'a', code: 'A', qty: 1 }]);
    const merged = await alice.client
      .from(table)
      .upsert({ code: 'A', title: 'a2', qty: 2 }, { onConflict: 'code' })
      .select('id, code, title, qty')
      .single();
    expect(merged.data).toEqual({ id: 1, code: 'A', title: 'a2', qty: 2 });
    const ignored = await alice.client
      .from(table)
      .upsert(
        [
          { code: 'A', title: 'x' },
          { code: 'B', title: 'b' },
        ],
        { onConflict: 'code', ignoreDuplicates: true, count: 'exact' },
      )
      .select('code, title');
    expect(ignored).toMatchObject({ count: 1, data: [{ code: 'B', title: 'b' }] });
    expect(await titles(table)).toEqual(['a2', 'b']);
  });

  it('upserts on several columns: a conflict matches all of them, through id or a unique column', async () => {
    const table = await fresh();
    await alice.client.from(table).insert([{ title: 'a', code: 'A', qty: 1 }]);
    const onBoth = { onConflict: 'code,title' };
    const merged = await alice.client
      .from(table)
      .upsert({ title: 'a', code: 'A', qty: 2 }, onBoth)
      .select('id, title, code, qty')
      .single();
    expect(merged).toMatchObject({ status: 200, data: { id: 1, title: 'a', code: 'A', qty: 2 } });
    const inserted = await alice.client.from(table).upsert({ title: 'b', code: 'B' }, onBoth).select('code').single();
    expect(inserted).toMatchObject({ status: 201, data: { code: 'B' } });
    // Same code, another title: no conflict on (code, title), so the insert meets code's unique index.
    const clash = await alice.client.from(table).upsert({ title: 'other', code: 'A' }, onBoth);
    expect(clash.status).toBe(409);
    expect(clash.error).toMatchObject({
      code: '23505',
      details: 'Key (code)=(A) already exists.',
      message: `duplicate key value violates unique constraint "${table}_code_key"`,
    });
    const ignored = await alice.client
      .from(table)
      .upsert(
        [
          { title: 'a', code: 'A', qty: 9 },
          { title: 'c', code: 'C' },
        ],
        { onConflict: 'title,code', ignoreDuplicates: true },
      )
      .select('code');
    expect(ignored.data).toEqual([{ code: 'C' }]);
    const byId = await alice.client
      .from(table)
      .upsert({ id: 1, title: 'a', qty: 5 }, { onConflict: 'id,title' })
      .select('qty')
      .single();
    expect(byId.data).toEqual({ qty: 5 });
    const noUnique = await alice.client
      .from(table)
      .upsert({ title: 'z', qty: 1, note: 'n' }, { onConflict: 'qty,note' });
    expect(noUnique).toMatchObject({ status: 400, error: { code: '42P10' } });
    const unknown = await alice.client.from(table).upsert({ title: 'z' }, { onConflict: 'title,banana' });
    expect(unknown).toMatchObject({ status: 400, error: { code: '42703' } });
    expect(await titles(table)).toEqual(['a', 'b', 'c']);
  });

  it('updates the filtered rows: 204, or the rows with .select() and a count', async () => {
    const table = await fresh();
    await alice.client.from(table).insert([
      { title: 'a', qty: 1 },
      { title: 'b', qty: 2 },
      { title: 'c', qty: 3 },
    ]);
    const minimal = await alice.client.from(table).update({ done: true }).eq('id', 1);
    expect(minimal).toMatchObject({ status: 204, data: null, error: null });
    const updated = await alice.client
      .from(table)
      .update({ note: 'big' }, { count: 'exact' })
      .gte('qty', 2)
      .select('title, note');
    expect(updated).toMatchObject({ status: 200, count: 2 });
    expect(updated.data).toEqual([
      { title: 'b', note: 'big' },
      { title: 'c', note: 'big' },
    ]);
    const none = await alice.client.from(table).update({ note: 'x' }).eq('id', 99).select();
    expect(none).toMatchObject({ status: 200, data: [] });
    const one = await alice.client.from(table).update({ qty: 7 }).eq('title', 'a').select('qty').single();
    expect(one.data).toEqual({ qty: 7 });
  });

  it('deletes the filtered rows, returning them with .select()', async () => {
    const table = await fresh();
    await alice.client.from(table).insert([{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    expect(await alice.client.from(table).delete().eq('id', 1)).toMatchObject({ status: 204, error: null });
    const deleted = await alice.client.from(table).delete({ count: 'exact' }).in('title', ['b', 'zzz']).select('title');
    expect(deleted).toMatchObject({ status: 200, count: 1, data: [{ title: 'b' }] });
    expect(await titles(table)).toEqual(['c']);
  });

  it('rolls a singular write back when it touches other than one row (406 PGRST116)', async () => {
    const table = await fresh();
    await alice.client.from(table).insert([
      { title: 'a', qty: 1 },
      { title: 'b', qty: 1 },
    ]);
    const update = await alice.client.from(table).update({ qty: 5 }).eq('qty', 1).select().single();
    expect(update.status).toBe(406);
    expect(update.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 2 rows' });
    const insert = await alice.client
      .from(table)
      .insert([{ title: 'c' }, { title: 'd' }])
      .select()
      .single();
    expect(insert.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 2 rows' });
    const remove = await alice.client.from(table).delete().gte('id', 0).select().single();
    expect(remove.error).toMatchObject({ code: 'PGRST116' });
    const { data } = await alice.client.from(table).select('title, qty').order('id');
    expect(data).toEqual([
      { title: 'a', qty: 1 },
      { title: 'b', qty: 1 },
    ]);
  });

  it('throwOnError throws the constraint errors', async () => {
    const table = await fresh();
    await alice.client.from(table).insert({ title: 'a' });
    await expect(alice.client.from(table).insert({ title: 'a' }).throwOnError()).rejects.toMatchObject({
      code: '23505',
      message: `duplicate key value violates unique constraint "${table}_title_key"`,
    });
    await expect(alice.client.from(table).insert({ qty: 1 }).throwOnError()).rejects.toMatchObject({
      code: '23502',
      message: `null value in column "title" of relation "${table}" violates not-null constraint`,
    });
  });
});
