import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppTable, type Developer, startDeveloper } from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Reverting a delete that cascaded brings back what its references' rules took with it, in one transaction: the
// rows it deleted (at any depth) and the references it emptied, parent first. Read back with the unmodified
// supabase-js, the data is then exactly as before the delete. A conflict in any of them refuses the whole revert.

const ref = (table: string, onDelete: string) => ({ type: 'number', references: { table, onDelete } });
const OPEN = { select: 'public', insert: 'authenticated', update: 'authenticated', delete: 'authenticated' };

interface Entry {
  id: number;
  changeType: string;
  recordId: number | null;
  revertOf: number | null;
}

describe.each(testDialects)('reverting a delete that cascaded on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  const tableIds: Record<string, number> = {};

  const api = (method: string, url: string, json?: unknown) =>
    server.request(method, url, { headers: dev.headers, ...(json === undefined ? {} : { json }) });
  const historyOf = async (table: string): Promise<Entry[]> =>
    (await api('GET', `/api/history?tableId=${tableIds[table]}&limit=100`)).body.data;
  const deleteEntry = async (table: string, recordId: number) => {
    const entry = (await historyOf(table)).find((e) => e.changeType === 'RECORD_DELETE' && e.recordId === recordId);
    if (!entry) throw new Error(`no delete of ${table} ${recordId} in history`);
    return entry;
  };
  const insert = async (table: string, rows: Array<Record<string, unknown>>): Promise<number[]> => {
    const { data, error } = await dev.client.from(table).insert(rows).select('id');
    if (error || !data) throw new Error(`seeding ${table}: ${error?.message}`);
    return data.map((row) => row.id as number);
  };
  // Everything the fixture holds, as supabase-js reads it (but updated_at: a row brought back is written anew).
  const everything = async () => ({
    authors: (
      await dev.client
        .from('authors')
        .select(
          'id, name, created_at, posts!author_id(id, title, author_id, editor_id, created_at, comments(id, body))',
        )
        .order('id')
    ).data,
    posts: (await dev.client.from('posts').select('id, title, author_id, editor_id, created_at').order('id')).data,
    comments: (await dev.client.from('comments').select('id, body, post_id, created_at').order('id')).data,
    categories: (await dev.client.from('categories').select('id, name, parent_id, created_at').order('id')).data,
  });

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    const table = async (name: string, schema: Record<string, unknown>) => {
      tableIds[name] = await createAppTable(server, dev, { name, schema, access: OPEN });
    };
    await table('authors', { name: { type: 'text' } });
    await table('posts', {
      title: { type: 'text', unique: true },
      author_id: ref('authors', 'cascade'),
      editor_id: ref('authors', 'set null'),
    });
    await table('comments', { body: { type: 'text' }, post_id: ref('posts', 'cascade') });
    await table('categories', { name: { type: 'text' }, parent_id: ref('categories', 'cascade') });
  });
  afterAll(() => server.close());

  it('brings back the rows two levels down and the references it emptied, and deletes them again', async () => {
    const [ada, brian] = await insert('authors', [{ name: 'Ada' }, { name: 'Brian' }]);
    const [engines, notes] = await insert('posts', [
      { title: 'Engines', author_id: ada, editor_id: brian },
      { title: 'Notes', author_id: ada, editor_id: null },
      { title: 'Unix', author_id: brian, editor_id: ada },
    ]);
    await insert('comments', [
      { body: 'first', post_id: engines },
      { body: 'second', post_id: engines },
      { body: 'third', post_id: notes },
    ]);
    const before = await everything();
    expect((await dev.client.from('authors').delete().eq('id', ada)).error).toBeNull();
    const afterDelete = await everything();
    expect(afterDelete.comments).toEqual([]);
    expect(afterDelete.posts?.map((p) => [p.title, p.editor_id])).toEqual([['Unix', null]]);

    const parent = await deleteEntry('authors', ada as number);
    const res = await api('POST', `/api/history/${parent.id}/revert`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ revertedChangeId: parent.id, change: { changeType: 'RECORD_CREATE' } });
    expect(await everything()).toEqual(before);
    // Each row came back through its own recorded revert.
    const commentReverts = (await historyOf('comments')).filter((e) => e.revertOf !== null);
    expect(commentReverts.map((e) => e.changeType)).toEqual(['RECORD_CREATE', 'RECORD_CREATE', 'RECORD_CREATE']);
    const unixReverts = (await historyOf('posts')).filter(
      (e) => e.revertOf !== null && e.changeType === 'RECORD_UPDATE',
    );
    expect(unixReverts).toHaveLength(1);

    // The revert of the revert deletes Ada again, and with her what her delete took the first time.
    expect((await api('POST', `/api/history/${res.body.change.id}/revert`)).status).toBe(200);
    expect(await everything()).toEqual(afterDelete);
    // Reverting the original delete a second time brings it all back again.
    expect((await api('POST', `/api/history/${parent.id}/revert`)).status).toBe(200);
    expect(await everything()).toEqual(before);
    await dev.client.from('authors').delete().in('id', [ada, brian]);
  });

  it('restores only the row whose delete is reverted when one delete took several', async () => {
    const [a, b] = await insert('authors', [{ name: 'A' }, { name: 'B' }]);
    await insert('posts', [
      { title: 'by a', author_id: a },
      { title: 'by b', author_id: b },
    ]);
    expect((await dev.client.from('authors').delete().in('id', [a, b])).error).toBeNull();
    const res = await api('POST', `/api/history/${(await deleteEntry('authors', a as number)).id}/revert`);
    expect(res.status).toBe(200);
    const posts = (await dev.client.from('posts').select('title, author_id').order('id')).data;
    expect(posts).toEqual([{ title: 'by a', author_id: a }]);
    await dev.client.from('authors').delete().eq('id', a);
  });

  it('brings back a tree, and a restore to before the delete reverts each change once', async () => {
    const [root] = await insert('categories', [{ name: 'root' }]);
    const [left, right] = await insert('categories', [
      { name: 'left', parent_id: root },
      { name: 'right', parent_id: root },
    ]);
    await insert('categories', [
      { name: 'left.1', parent_id: left },
      { name: 'right.1', parent_id: right },
    ]);
    const before = await everything();
    const latest = (await historyOf('categories'))[0] as Entry;
    expect((await dev.client.from('categories').delete().eq('id', root)).error).toBeNull();
    expect((await dev.client.from('categories').select('id')).data).toEqual([]);

    const parent = await deleteEntry('categories', root as number);
    const reverted = await api('POST', `/api/history/${parent.id}/revert`);
    expect(reverted.status).toBe(200);
    expect(reverted.body.change).toMatchObject({ revertOf: parent.id, recordId: root });
    expect(await everything()).toEqual(before);

    // Deleted again by undoing the revert, then restored to the version before: one transaction, no conflict.
    expect((await api('POST', `/api/history/${reverted.body.change.id}/revert`)).status).toBe(200);
    expect((await dev.client.from('categories').select('id')).data).toEqual([]);
    const restored = await api('POST', `/api/history/${latest.id}/restore`, {});
    expect(restored.status).toBe(200);
    expect(await everything()).toEqual(before);
    await dev.client.from('categories').delete().eq('id', root);
  });

  it('refuses the whole revert when one of the rows it brings back conflicts, and changes nothing', async () => {
    const [ada] = await insert('authors', [{ name: 'Ada again' }]);
    const [post] = await insert('posts', [{ title: 'Taken', author_id: ada }]);
    await insert('comments', [{ body: 'on taken', post_id: post }]);
    expect((await dev.client.from('authors').delete().eq('id', ada)).error).toBeNull();
    const [other] = await insert('authors', [{ name: 'Other' }]);
    await insert('posts', [{ title: 'Taken', author_id: other }]);
    const before = await everything();

    const parent = await deleteEntry('authors', ada as number);
    const res = await api('POST', `/api/history/${parent.id}/revert`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'revert_conflict',
      message: 'Cannot revert this change: the value "Taken" of "title" is now used by another record of "posts"',
      details: { reason: 'unique_taken', changeId: parent.id },
    });
    expect(await everything()).toEqual(before);

    // A child alone cannot come back while its parent is deleted.
    const child = await deleteEntry(
      'comments',
      (await historyOf('comments')).find((e) => e.changeType === 'RECORD_DELETE')?.recordId as number,
    );
    const alone = await api('POST', `/api/history/${child.id}/revert`);
    expect(alone.status).toBe(409);
    expect(alone.body.details.reason).toBe('value_invalid');
    expect(alone.body.message).toContain('violates foreign key constraint "comments_post_id_fkey"');
    expect(await everything()).toEqual(before);
  });

  it('answers 404 for an unknown or malformed change id', async () => {
    expect((await api('POST', '/api/history/999999999/revert')).status).toBe(404);
    expect((await api('POST', '/api/history/abc/revert')).status).toBe(404);
  });
});
