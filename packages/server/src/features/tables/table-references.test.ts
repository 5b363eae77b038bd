import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAppTable,
  type Developer,
  type EndUserClient,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Reference columns: checked as schema (a table of the same account, a number column, a required column never
// emptied on delete, existing rows that match), kept on every write (23503 for a value pointing nowhere), and
// applied on delete (restrict, cascade, set null) through the records path, so history records every row a
// cascade takes with the same actor. A referenced table cannot be dropped or renamed while referenced.

const ref = (table: string, onDelete = 'restrict', extra: Record<string, unknown> = {}) => ({
  type: 'number',
  references: { table, onDelete },
  ...extra,
});
const OPEN = { select: 'public', insert: 'authenticated', update: 'authenticated', delete: 'authenticated' };
const OWN_ROWS = { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' };

describe.each(testDialects)('reference columns on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let other: Developer;
  let ann: EndUserClient;
  const tableIds: Record<string, number> = {};

  const api = (method: string, url: string, json?: unknown, who: Developer = dev) =>
    server.request(method, url, { headers: who.headers, ...(json === undefined ? {} : { json }) });

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    other = await startDeveloper(server, users.bob);
    ann = await signUpEndUser(server, dev, 'ann@example.com');
    tableIds.authors = await createAppTable(server, dev, {
      name: 'authors',
      schema: { name: { type: 'text' } },
      access: OPEN,
    });
    tableIds.posts = await createAppTable(server, dev, {
      name: 'posts',
      schema: { title: { type: 'text' }, author_id: ref('authors'), editor_id: ref('authors', 'set null') },
      access: OPEN,
    });
    tableIds.comments = await createAppTable(server, dev, {
      name: 'comments',
      schema: { body: { type: 'text' }, post_id: ref('posts', 'cascade'), owner: { type: 'text' } },
      access: OWN_ROWS,
    });
    await createAppTable(server, other, { name: 'secrets_of_bob', schema: { x: { type: 'text' } } });
  });
  afterAll(() => server.close());

  it('refuses references that cannot hold, before any change', async () => {
    const bad: Array<[string, Record<string, unknown>]> = [
      ['a missing table', { a: ref('nowhere') }],
      ["another account's table", { a: ref('secrets_of_bob') }],
      ['a text column', { a: { type: 'text', references: { table: 'authors' } } }],
      ['set null on a required column', { a: ref('authors', 'set null', { required: true }) }],
      ['an unknown on delete', { a: ref('authors', 'explode') }],
      ['a hostile table name', { a: ref('authors"; DROP TABLE x; --') }],
      ['a NUL in the name', { a: ref('auth\u0000ors') }],
      ['references that are not an object', { a: { type: 'number', references: 'authors' } }],
    ];
    for (const [what, schema] of bad) {
      const res = await api('POST', '/api/tables', { name: 'bad_refs', schema });
      expect(res.status, what).toBe(400);
    }
    const list = await api('GET', '/api/tables');
    expect(JSON.stringify(list.body)).not.toContain('bad_refs');
  });

  it('indexes reference columns', async () => {
    const name = `t_${tableIds.posts}_author_id_ref`;
    const query =
      dialect === 'sqlite'
        ? sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name = ${name}`
        : sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = ${name}`;
    const { rows } = await query.execute(server.app.basalt.db.kysely);
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it('refuses a write pointing at no row with 23503, and takes one pointing at a row', async () => {
    const { data: author } = await dev.client.from('authors').insert({ name: 'Ada' }).select().single();
    const missing = await dev.client.from('posts').insert({ title: 'x', author_id: 999_999 });
    expect(missing.status).toBe(409);
    expect(missing.error).toMatchObject({
      code: '23503',
      message: 'insert or update on table "posts" violates foreign key constraint "posts_author_id_fkey"',
      details: 'Key (author_id)=(999999) is not present in table "authors".',
    });
    const ok = await dev.client.from('posts').insert({ title: 'ok', author_id: author.id }).select().single();
    expect(ok.error).toBeNull();
    const update = await dev.client.from('posts').update({ author_id: 424_242 }).eq('id', ok.data.id);
    expect(update.error?.code).toBe('23503');
    const upsert = await dev.client.from('posts').upsert({ id: ok.data.id, title: 'ok', author_id: 77_777 });
    expect(upsert.error?.code).toBe('23503');
    const { data: after } = await dev.client.from('posts').select('author_id').eq('id', ok.data.id).single();
    expect(after?.author_id).toBe(author.id);
  });

  it('restricts, cascades and sets null on delete, with history of every row taken', async () => {
    const { data: ada } = await dev.client.from('authors').insert({ name: 'Grace' }).select().single();
    const { data: ed } = await dev.client.from('authors').insert({ name: 'Ed' }).select().single();
    const { data: post } = await dev.client
      .from('posts')
      .insert({ title: 'cascading', author_id: ada.id, editor_id: ed.id })
      .select()
      .single();
    await dev.client.from('comments').insert([
      { body: 'one', post_id: post.id, owner: ann.id },
      { body: 'two', post_id: post.id, owner: 'someone-else' },
    ]);
    // restrict: Grace still writes a post.
    const restricted = await dev.client.from('authors').delete().eq('id', ada.id);
    expect(restricted.status).toBe(409);
    expect(restricted.error).toMatchObject({
      code: '23503',
      message:
        'update or delete on table "authors" violates foreign key constraint "posts_author_id_fkey" on table "posts"',
      details: `Key (id)=(${ada.id}) is still referenced from table "posts".`,
    });
    expect((await dev.client.from('authors').select('id').eq('id', ada.id)).data).toHaveLength(1);
    // set null: Ed edited it.
    const unset = await dev.client.from('authors').delete().eq('id', ed.id);
    expect(unset.error).toBeNull();
    expect((await dev.client.from('posts').select('editor_id').eq('id', post.id).single()).data?.editor_id).toBeNull();
    // cascade, by an end user who sees only one of the two comments: both go, as a foreign key takes them.
    const gone = await ann.client.from('posts').delete().eq('id', post.id).select();
    expect(gone.error).toBeNull();
    expect(gone.data).toHaveLength(1);
    expect((await dev.client.from('comments').select('id').eq('post_id', post.id)).data).toEqual([]);
    const history = await api('GET', `/api/history?tableId=${tableIds.comments}`);
    expect(history.status).toBe(200);
    const entries = (history.body.data ?? history.body) as Array<{ changeType: string; userId: string }>;
    const deletes = entries.filter((e) => e.changeType === 'RECORD_DELETE');
    expect(deletes).toHaveLength(2);
    expect(deletes.every((e) => e.userId === ann.id)).toBe(true);
  });

  it('refuses to add a reference over rows that point nowhere, naming the values', async () => {
    const id = await createAppTable(server, dev, { name: 'loose', schema: { author_id: { type: 'number' } } });
    await dev.client.from('loose').insert([{ author_id: 123_456 }, { author_id: null }]);
    const res = await api('PATCH', `/api/tables/${id}`, { schema: { author_id: ref('authors') } });
    expect(res.status).toBe(409);
    expect(res.body.message ?? res.body.error?.message ?? res.text).toContain('123456');
    await dev.client.from('loose').delete().eq('author_id', 123_456);
    const ok = await api('PATCH', `/api/tables/${id}`, { schema: { author_id: ref('authors') } });
    expect(ok.status).toBe(200);
    expect(ok.body.schema.author_id.references).toEqual({ table: 'authors', onDelete: 'restrict' });
    const dropped = await api('PATCH', `/api/tables/${id}`, { schema: { author_id: { type: 'number' } } });
    expect(dropped.status).toBe(200);
    expect(dropped.body.schema.author_id.references).toBeUndefined();
    expect((await api('DELETE', `/api/tables/${id}`)).status).toBeLessThan(300);
  });

  it('records adding a reference in history and reverts it; a revert that would dangle is refused', async () => {
    const id = await createAppTable(server, dev, { name: 'reviews', schema: { post_id: { type: 'number' } } });
    const added = await api('PATCH', `/api/tables/${id}`, { schema: { post_id: ref('posts', 'cascade') } });
    expect(added.status).toBe(200);
    const history = await api('GET', `/api/history?tableId=${id}`);
    const [latest] = history.body.data;
    expect(latest).toMatchObject({ changeType: 'SCHEMA_UPDATE' });
    expect(latest.newState.schema.post_id.references).toEqual({ table: 'posts', onDelete: 'cascade' });
    const reverted = await api('POST', `/api/history/${latest.id}/revert`);
    expect(reverted.status).toBe(200);
    expect((await api('GET', `/api/tables/${id}`)).body.schema.post_id.references).toBeUndefined();
    // Without the reference a value may point nowhere; reverting the revert (adding it again) is then refused.
    await dev.client.from('reviews').insert({ post_id: 987_654 });
    const again = await api('GET', `/api/history?tableId=${id}`);
    const [undo] = again.body.data.filter((e: { changeType: string }) => e.changeType === 'SCHEMA_UPDATE');
    const redo = await api('POST', `/api/history/${undo.id}/revert`);
    expect(redo.status).toBe(409);
    expect((await api('GET', `/api/tables/${id}`)).body.schema.post_id.references).toBeUndefined();
    await dev.client.from('reviews').delete().eq('post_id', 987_654);
    expect((await api('DELETE', `/api/tables/${id}`)).status).toBeLessThan(300);
  });

  it('refuses to drop or rename a referenced table, naming who refers to it', async () => {
    const drop = await api('DELETE', `/api/tables/${tableIds.authors}`);
    expect(drop.status).toBe(409);
    expect(drop.body.message).toContain('"posts"');
    const rename = await api('PATCH', `/api/tables/${tableIds.authors}`, { name: 'writers' });
    expect(rename.status).toBe(409);
    expect((await api('GET', `/api/tables/${tableIds.authors}`)).body.name).toBe('authors');
  });
});
