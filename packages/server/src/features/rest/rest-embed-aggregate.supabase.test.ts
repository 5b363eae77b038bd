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

// Aggregates inside an embedded resource (PostgREST 12: `posts(likes.sum())`, avg, min, max, count, grouped by the
// embed's other columns), through the unmodified supabase-js on both engines, under an end user's rules, and the
// mistakes refused as at the top level.

const PUBLIC = { select: 'public', insert: 'nobody', update: 'nobody', delete: 'nobody' };
const OWN_ROWS = { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' };

// [title, author (index), likes, topic, owner: 0 ann, 1 bob]
const POSTS: Array<[string, number, number | null, string, number]> = [
  ['Engines', 0, 10, 'math', 0],
  ['Notes', 0, 5, 'math', 1],
  ['Letters', 0, null, 'history', 0],
  ['Unix', 1, 7, 'systems', 1],
];

describe.each(testDialects)('/rest/v1 aggregates in embeds with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let ann: EndUserClient;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    ann = await signUpEndUser(server, dev, 'ann@example.com');
    const bob = await signUpEndUser(server, dev, 'bob@example.com');
    await createAppTable(server, dev, { name: 'authors', schema: { name: { type: 'text' } }, access: PUBLIC });
    await createAppTable(server, dev, {
      name: 'posts',
      schema: {
        title: { type: 'text' },
        author_id: { type: 'number', references: { table: 'authors', onDelete: 'cascade' } },
        likes: { type: 'number' },
        topic: { type: 'text' },
        published: { type: 'boolean' },
        meta: { type: 'json' },
        owner: { type: 'text' },
      },
      access: OWN_ROWS,
    });
    const { data: authors } = await dev.client
      .from('authors')
      .insert([{ name: 'Ada' }, { name: 'Brian' }, { name: 'Claude' }])
      .select('id');
    const rows = POSTS.map(([title, author, likes, topic, owner]) => ({
      title,
      author_id: authors?.[author]?.id,
      likes,
      topic,
      published: true,
      owner: owner === 0 ? ann.id : bob.id,
    }));
    const { error } = await dev.client.from('posts').insert(rows);
    if (error) throw new Error(error.message);
  });
  afterAll(() => server.close());

  it('sums, averages and finds the least and greatest of each parent’s rows', async () => {
    const { data, error } = await dev.client
      .from('authors')
      .select('name, posts(likes.sum(), likes.avg(), low:likes.min(), likes.max(), n:count(), first:title.min())')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Ada', posts: [{ sum: 15, avg: 7.5, low: 5, max: 10, n: 3, first: 'Engines' }] },
      { name: 'Brian', posts: [{ sum: 7, avg: 7, low: 7, max: 7, n: 1, first: 'Unix' }] },
      // No rows: count is 0 and the others null, as SQL answers an aggregate without groups.
      { name: 'Claude', posts: [{ sum: null, avg: null, low: null, max: null, n: 0, first: null }] },
    ]);
  });

  it('groups by the embed’s other columns, with its filters, order and limit', async () => {
    const grouped = await dev.client.from('authors').select('name, posts(topic, count(), likes.sum())').order('id');
    expect(grouped.data).toEqual([
      {
        name: 'Ada',
        posts: [
          { topic: 'history', count: 1, sum: null },
          { topic: 'math', count: 2, sum: 15 },
        ],
      },
      { name: 'Brian', posts: [{ topic: 'systems', count: 1, sum: 7 }] },
      { name: 'Claude', posts: [] },
    ]);
    const narrowed = await dev.client
      .from('authors')
      .select('name, posts(topic, likes.max())')
      .gt('posts.likes', 6)
      .order('topic', { referencedTable: 'posts', ascending: false })
      .limit(1, { referencedTable: 'posts' })
      .eq('name', 'Ada');
    expect(narrowed.data).toEqual([{ name: 'Ada', posts: [{ topic: 'math', max: 10 }] }]);
    const cast = await dev.client.from('authors').select('name, posts(likes.avg()::int)').eq('name', 'Ada');
    expect(cast.data).toEqual([{ name: 'Ada', posts: [{ avg: 8 }] }]);
  });

  it('aggregates only the rows the end user may read', async () => {
    const { data } = await ann.client.from('authors').select('name, posts(likes.sum(), count())').order('id');
    expect(data).toEqual([
      { name: 'Ada', posts: [{ sum: 10, count: 2 }] },
      { name: 'Brian', posts: [{ sum: null, count: 0 }] },
      { name: 'Claude', posts: [{ sum: null, count: 0 }] },
    ]);
  });

  it.each<[string, string, string, string, string]>([
    ['sum of text', 'authors', 'name, posts(title.sum())', '42883', 'function sum(text) does not exist'],
    ['avg of a boolean', 'authors', 'name, posts(published.avg())', '42883', 'function avg(boolean) does not exist'],
    ['max of JSON', 'authors', 'name, posts(meta.max())', '42883', 'function max(json) does not exist'],
    ['an unknown column', 'authors', 'name, posts(nope.sum())', '42703', 'column posts.nope does not exist'],
    ['* beside an aggregate', 'authors', 'name, posts(*, count())', 'PGRST100', 'Aggregates cannot be grouped by *'],
    [
      'an embed beside an aggregate',
      'authors',
      'name, posts(count(), authors(name))',
      'PGRST100',
      'Aggregates cannot be grouped by embedded resources',
    ],
    ['a JSON path', 'authors', 'name, posts(meta->a.sum())', 'PGRST123', 'Use of aggregate functions is not allowed'],
    [
      'a to-one embed',
      'posts',
      'title, authors(id.sum())',
      'PGRST100',
      'Aggregates inside "authors" are not answered: only an embed of the rows that refer to the parent (one-to-many) aggregates',
    ],
  ])('refuses %s', async (_name, table, select, code, message) => {
    const { error, status } = await dev.client.from(table).select(select);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code, message });
  });

  it('refuses ordering an aggregated embed by a column it does not group by', async () => {
    const { error, status } = await dev.client
      .from('authors')
      .select('name, posts(topic, count())')
      .order('likes', { referencedTable: 'posts' });
    expect(status).toBe(400);
    expect(error?.code).toBe('42803');
  });
});
