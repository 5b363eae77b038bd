import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appClient,
  createAppTable,
  type Developer,
  type EndUserClient,
  OWN_ROWS,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Embedded resources through the unmodified supabase-js, against an upstream-style fixture: authors, posts with
// two references to authors, comments (each end user sees only their own), tags through a junction, and a
// category tree. The developer sees every row; two end users and the anon key see what the rules let them.

const PUBLIC = { select: 'public', insert: 'nobody', update: 'nobody', delete: 'nobody' };
const AUTHORS = ['Ada', 'Brian', 'Claude'];
// [title, author (index into AUTHORS), editor]
const POSTS: Array<[string, number, number | null]> = [
  ['Engines', 0, 1],
  ['Notes', 0, null],
  ['Unix', 1, 0],
];
const TAGS = ['math', 'history', 'systems'];
// [post index, tag index]
const POST_TAGS: Array<[number, number]> = [
  [0, 0],
  [0, 1],
  [2, 2],
];

describe.each(testDialects)('/rest/v1 embedded resources with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let ann: EndUserClient;
  let bob: EndUserClient;
  const ids: Record<string, number[]> = {};

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    ann = await signUpEndUser(server, dev, 'ann@example.com');
    bob = await signUpEndUser(server, dev, 'bob@example.com');
    const ref = (table: string, onDelete = 'restrict') => ({ type: 'number', references: { table, onDelete } });
    await createAppTable(server, dev, { name: 'authors', schema: { name: { type: 'text' } }, access: PUBLIC });
    await createAppTable(server, dev, {
      name: 'posts',
      schema: { title: { type: 'text' }, author_id: ref('authors'), editor_id: ref('authors', 'set null') },
      access: PUBLIC,
    });
    await createAppTable(server, dev, {
      name: 'comments',
      schema: { body: { type: 'text' }, post_id: ref('posts', 'cascade'), owner: { type: 'text' } },
      access: OWN_ROWS,
    });
    await createAppTable(server, dev, { name: 'tags', schema: { name: { type: 'text' } }, access: PUBLIC });
    await createAppTable(server, dev, {
      name: 'post_tags',
      schema: { post_id: ref('posts', 'cascade'), tag_id: ref('tags', 'cascade') },
      access: PUBLIC,
    });
    await createAppTable(server, dev, {
      name: 'categories',
      schema: { name: { type: 'text' }, parent_id: ref('categories', 'cascade') },
      access: PUBLIC,
    });
    const insert = async (table: string, rows: Array<Record<string, unknown>>) => {
      const { data, error } = await dev.client.from(table).insert(rows).select('id');
      if (error || !data) throw new Error(`seeding ${table}: ${error?.message}`);
      ids[table] = data.map((row) => row.id as number);
    };
    await insert(
      'authors',
      AUTHORS.map((name) => ({ name })),
    );
    const author = (i: number | null) => (i === null ? null : ids.authors?.[i]);
    await insert(
      'posts',
      POSTS.map(([title, a, e]) => ({ title, author_id: author(a), editor_id: author(e) })),
    );
    const post = (i: number) => ids.posts?.[i];
    await insert('comments', [
      { body: 'ann on engines', post_id: post(0), owner: ann.id },
      { body: 'bob on engines', post_id: post(0), owner: bob.id },
      { body: 'ann again', post_id: post(0), owner: ann.id },
      { body: 'bob on unix', post_id: post(2), owner: bob.id },
    ]);
    await insert(
      'tags',
      TAGS.map((name) => ({ name })),
    );
    await insert(
      'post_tags',
      POST_TAGS.map(([p, t]) => ({ post_id: post(p), tag_id: ids.tags?.[t] })),
    );
    await insert('categories', [{ name: 'root', parent_id: null }]);
    const root = ids.categories?.[0];
    const { data } = await dev.client.from('categories').insert({ name: 'child', parent_id: root }).select('id');
    await dev.client.from('categories').insert({ name: 'grandchild', parent_id: data?.[0]?.id });
  });
  afterAll(() => server.close());

  it('embeds a many-to-one as an object, hinted by column or constraint name', async () => {
    const { data, error } = await dev.client
      .from('posts')
      .select('title, author:authors!author_id(name), editor:authors!posts_editor_id_fkey(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Engines', author: { name: 'Ada' }, editor: { name: 'Brian' } },
      { title: 'Notes', author: { name: 'Ada' }, editor: null },
      { title: 'Unix', author: { name: 'Brian' }, editor: { name: 'Ada' } },
    ]);
  });

  it('embeds a many-to-one named by its column', async () => {
    const { data, error } = await dev.client.from('posts').select('title, author_id(name)').eq('title', 'Unix');
    expect(error).toBeNull();
    expect(data).toEqual([{ title: 'Unix', author_id: { name: 'Brian' } }]);
  });

  it('answers PGRST201 (300) with the candidates when two references lead to one table', async () => {
    const { error, status } = await dev.client.from('posts').select('*, authors(*)');
    expect(status).toBe(300);
    expect(error?.code).toBe('PGRST201');
    expect(error?.message).toBe(
      "Could not embed because more than one relationship was found for 'posts' and 'authors'",
    );
    expect(error?.hint).toBe(
      "Try changing 'authors' to one of the following: 'authors!posts_author_id_fkey', 'authors!posts_editor_id_fkey'. Find the desired relationship in the 'details' key.",
    );
    expect(error?.details).toEqual([
      {
        cardinality: 'many-to-one',
        embedding: 'posts with authors',
        relationship: 'posts_author_id_fkey using posts(author_id) and authors(id)',
      },
      {
        cardinality: 'many-to-one',
        embedding: 'posts with authors',
        relationship: 'posts_editor_id_fkey using posts(editor_id) and authors(id)',
      },
    ]);
  });

  it('answers PGRST200 (400) for a relationship that does not exist', async () => {
    const { error, status } = await dev.client.from('tags').select('*, authors(*)');
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: 'PGRST200',
      message: "Could not find a relationship between 'tags' and 'authors' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'tags' and 'authors' in the schema 'public', but no matches were found.",
    });
    const hinted = await dev.client.from('posts').select('*, authors!nope(*)');
    expect(hinted.status).toBe(400);
    expect(hinted.error?.details).toContain("using the hint 'nope'");
    const unknown = await dev.client.from('posts').select('*, nothing_here(*)');
    expect(unknown.error?.code).toBe('PGRST200');
  });

  it('embeds a one-to-many as an array, with its own order, limit and filters', async () => {
    const { data, error } = await dev.client
      .from('posts')
      .select('title, comments(body)')
      .order('id')
      .order('id', { referencedTable: 'comments', ascending: false })
      .limit(2, { referencedTable: 'comments' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Engines', comments: [{ body: 'ann again' }, { body: 'bob on engines' }] },
      { title: 'Notes', comments: [] },
      { title: 'Unix', comments: [{ body: 'bob on unix' }] },
    ]);
    const filtered = await dev.client
      .from('posts')
      .select('title, comments(body)')
      .like('comments.body', 'bob%')
      .order('id');
    expect(filtered.data?.map((p) => p.comments)).toEqual([
      [{ body: 'bob on engines' }],
      [],
      [{ body: 'bob on unix' }],
    ]);
  });

  it('counts an embedded resource (comments(count))', async () => {
    const { data, error } = await dev.client.from('posts').select('title, comments(count)').order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Engines', comments: [{ count: 3 }] },
      { title: 'Notes', comments: [{ count: 0 }] },
      { title: 'Unix', comments: [{ count: 1 }] },
    ]);
  });

  it('filters the parents with !inner, and anti-joins with is.null', async () => {
    const inner = await dev.client
      .from('posts')
      .select('title, author:authors!author_id!inner(name)', { count: 'exact' })
      .eq('author.name', 'Brian');
    expect(inner.error).toBeNull();
    expect(inner.data).toEqual([{ title: 'Unix', author: { name: 'Brian' } }]);
    expect(inner.count).toBe(1);
    // Without !inner the filter only empties the embed.
    const left = await dev.client
      .from('posts')
      .select('title, author:authors!author_id(name)')
      .eq('author.name', 'Brian')
      .order('id');
    expect(left.data?.map((p) => p.author)).toEqual([null, null, { name: 'Brian' }]);
    const lonely = await dev.client.from('authors').select('name, posts!author_id()').is('posts', null);
    expect(lonely.error).toBeNull();
    expect(lonely.data).toEqual([{ name: 'Claude' }]);
  });

  it('embeds many-to-many through a junction, a spread, and a tree both ways', async () => {
    const tags = await dev.client.from('posts').select('title, tags(name)').order('id');
    expect(tags.error).toBeNull();
    expect(tags.data?.map((p) => [p.title, p.tags.map((t: { name: string }) => t.name).sort()])).toEqual([
      ['Engines', ['history', 'math']],
      ['Notes', []],
      ['Unix', ['systems']],
    ]);
    const spread = await dev.client.from('posts').select('title, ...authors!author_id(author:name)').order('id');
    expect(spread.error).toBeNull();
    expect(spread.data?.[2]).toEqual({ title: 'Unix', author: 'Brian' });
    const tree = await dev.client
      .from('categories')
      .select('name, parent:parent_id(name), children:categories!parent_id(name)')
      .order('id');
    expect(tree.error).toBeNull();
    expect(tree.data).toEqual([
      { name: 'root', parent: null, children: [{ name: 'child' }] },
      { name: 'child', parent: { name: 'root' }, children: [{ name: 'grandchild' }] },
      { name: 'grandchild', parent: { name: 'child' }, children: [] },
    ]);
  });

  it('nests embeds four levels deep and caps the depth with a 400', async () => {
    const { data, error } = await dev.client
      .from('comments')
      .select('body, post:posts(title, author:authors!author_id(name, posts!author_id(title, tags(name))))')
      .eq('body', 'bob on unix');
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        body: 'bob on unix',
        post: { title: 'Unix', author: { name: 'Brian', posts: [{ title: 'Unix', tags: [{ name: 'systems' }] }] } },
      },
    ]);
    const deep = `title,${'categories!parent_id('.repeat(9)}name${')'.repeat(9)}`;
    const capped = await dev.client.from('categories').select(deep);
    expect(capped.status).toBe(400);
    expect(capped.error?.code).toBe('PGRST100');
    const huge = await dev.client.from('categories').select(`${'categories!parent_id('.repeat(5000)}`);
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    const long = await dev.client.from('categories').select(`${'categories!parent_id('.repeat(400)}`);
    expect(long.status).toBe(400);
  });

  it('refuses bad embeds with a 4xx, never a 500', async () => {
    const bad = [
      'title, authors!author_id(nope)',
      'title, comments(body',
      'title, au\u0000thors(name)',
      'title, authors!a!b!c(name)',
      'title, ...comments(body)x',
    ];
    for (const select of bad) {
      const { status } = await dev.client.from('posts').select(select);
      expect(status, select).toBeGreaterThanOrEqual(400);
      expect(status, select).toBeLessThan(500);
    }
    const res = await fetch(`${server.url}/rest/v1/posts?select=title,comments(body)&comments.limit=x`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${dev.accessToken}` },
    });
    expect(res.status).toBe(400);
  });

  it('orders by a column of an embedded to-one resource', async () => {
    const byEditor = await dev.client
      .from('posts')
      .select('title, editor:authors!editor_id(name)')
      .order('editor(name)');
    expect(byEditor.error).toBeNull();
    expect(byEditor.data?.map((p) => p.title)).toEqual(['Unix', 'Engines', 'Notes']);
    const byAuthor = await dev.client
      .from('posts')
      .select('title, author:authors!author_id(name)')
      .order('author(name)', { ascending: false })
      .order('id', { ascending: false });
    expect(byAuthor.data?.map((p) => p.title)).toEqual(['Unix', 'Notes', 'Engines']);
    const mine = await bob.client
      .from('comments')
      .select('body, post:posts(title)')
      .order('post(title)', { ascending: false });
    expect(mine.data?.map((c) => c.body)).toEqual(['bob on unix', 'bob on engines']);
    const notSelected = await dev.client.from('posts').select('title').order('author(name)');
    expect(notSelected.status).toBe(400);
    expect(notSelected.error).toMatchObject({
      code: 'PGRST108',
      message: "'author' is not an embedded resource in this request",
      hint: "Verify that 'author' is included in the 'select' query parameter.",
    });
    const toMany = await dev.client.from('posts').select('title, comments(body)').order('comments(body)');
    expect(toMany.status).toBe(400);
    expect(toMany.error).toMatchObject({
      code: 'PGRST118',
      message: "A related order on 'comments' is not possible",
      details: "'posts' and 'comments' do not form a many-to-one or one-to-one relationship",
    });
    const unknown = await dev.client
      .from('posts')
      .select('title, author:authors!author_id(name)')
      .order('author(nope)');
    expect(unknown.status).toBe(400);
    expect(unknown.error?.code).toBe('42703');
  });

  it('applies the embedded table’s access rules for each end user', async () => {
    const read = (client: typeof ann.client) =>
      client.from('posts').select('title, comments(body)').order('id').order('id', { referencedTable: 'comments' });
    expect((await read(ann.client)).data?.map((p) => p.comments)).toEqual([
      [{ body: 'ann on engines' }, { body: 'ann again' }],
      [],
      [],
    ]);
    expect((await read(bob.client)).data?.map((p) => p.comments)).toEqual([
      [{ body: 'bob on engines' }],
      [],
      [{ body: 'bob on unix' }],
    ]);
    const anon = appClient(server, dev.app.anonKey);
    expect((await read(anon)).data?.map((p) => p.comments)).toEqual([[], [], []]);
    // !inner lets through only the posts with a comment the caller may see.
    const inner = await ann.client.from('posts').select('title, comments!inner(count)', { count: 'exact' });
    expect(inner.data).toEqual([{ title: 'Engines', comments: [{ count: 2 }] }]);
    expect(inner.count).toBe(1);
    const hiddenOnly = await ann.client
      .from('posts')
      .select('title, comments!inner()')
      .eq('comments.body', 'bob on unix');
    expect(hiddenOnly.data).toEqual([]);
    // A comment's post is public: embedding it from a visible comment works for its owner.
    const up = await bob.client.from('comments').select('body, post:posts(title)').order('id');
    expect(up.data).toEqual([
      { body: 'bob on engines', post: { title: 'Engines' } },
      { body: 'bob on unix', post: { title: 'Unix' } },
    ]);
  });

  it('embeds related rows in a write’s representation, and refuses a bad embed before writing', async () => {
    const author = ids.authors?.[2];
    const { data, error } = await dev.client
      .from('posts')
      .insert({ title: 'Fresh', author_id: author })
      .select('title, author:authors!author_id(name), comments(count)')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: 'Fresh', author: { name: 'Claude' }, comments: [{ count: 0 }] });
    const bad = await dev.client.from('posts').insert({ title: 'Never' }).select('title, nope(*)');
    expect(bad.error?.code).toBe('PGRST200');
    expect((await dev.client.from('posts').select('id').eq('title', 'Never')).data).toEqual([]);
    await dev.client.from('posts').delete().eq('title', 'Fresh');
  });

  it('answers what joining the same rows in JavaScript answers', async () => {
    const [authors, posts] = await Promise.all([
      dev.client.from('authors').select('*').order('id'),
      dev.client.from('posts').select('*').order('id'),
    ]);
    const expected = (authors.data ?? []).map((a) => ({
      name: a.name,
      written: (posts.data ?? []).filter((p) => p.author_id === a.id).map((p) => ({ title: p.title })),
      edited: (posts.data ?? []).filter((p) => p.editor_id === a.id).map((p) => ({ title: p.title })),
    }));
    const { data } = await dev.client
      .from('authors')
      .select('name, written:posts!author_id(title), edited:posts!editor_id(title)')
      .order('id')
      .order('id', { referencedTable: 'written' })
      .order('id', { referencedTable: 'edited' });
    expect(data).toEqual(expected);
  });
});
