import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { type PreparedQuery, textQuery } from '../../db/sql-text.js';
import { type Actor, appActor } from '../../lib/actor/actor.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { createRecords, listRecords } from '../records/records.service.js';
import { createTable, findTableById, type TableDefinition } from '../tables/tables.service.js';
import { serveRest } from './rest.service.js';
import { planEmbeds } from './rest-embed.js';
import { orderTerms } from './rest-filters.js';
import { hasRelatedOrder, relatedOrderTerms } from './rest-order.js';
import { parseRestQuery } from './rest-query.parse.js';
import { projectRows } from './rest-select.js';

// A read's embeds come from ONE statement (records/record-related-reads.ts). Each case below is answered that way
// (GET) and by the per-level reads a write's representation still uses (rest-embed-values.ts), for the owner, an
// end user under `own rows` rules and the anon key: the two answers must be the same JSON text, key order and
// number formatting included. Values are chosen where a type could come back differently through JSON: doubles
// that need 17 digits, booleans (0/1 on SQLite), dates with microseconds (created_at on PostgreSQL), JSON text,
// arrays, NULLs, and a table wider than PostgreSQL's 100 function arguments.

const PUBLIC = { select: 'public', insert: 'nobody', update: 'nobody', delete: 'nobody' };
const OWN = { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' };
const ref = (table: string) => ({ type: 'number', references: { table, onDelete: 'cascade' } });
const WIDE_COLUMNS = 95;

const CASES: Array<[string, string]> = [
  ['posts', 'select=id,title,author:authors!author_id(name),comments(count)&order=id'],
  ['posts', 'select=*,author:authors!author_id(*),editor:authors!editor_id(*)&order=id'],
  ['posts', 'select=title,comments(body,score)&comments.order=score.desc.nullslast,id&comments.limit=2&order=id'],
  ['posts', 'select=title,comments(body)&comments.offset=1&comments.limit=1&order=id'],
  ['posts', 'select=title,comments(count)&comments.limit=1&order=id'],
  ['posts', 'select=title,comments!inner(count)&comments.score=gt.1&order=id'],
  ['posts', 'select=title,tags(name)&tags.order=name.desc&order=id'],
  ['posts', 'select=title,tags(count)&order=id'],
  ['posts', 'select=title,tags(name)&tags.limit=1&tags.offset=1&order=id'],
  ['posts', 'select=title,...authors!author_id(writer:name,born,active)&order=id'],
  ['posts', 'select=title,authors!editor_id!inner(name)&order=id.desc'],
  ['posts', 'select=title,author:authors!author_id(name)&order=author(name).desc,id'],
  ['posts', 'select=title,author:authors!author_id(score::text,meta->a,meta->>b,tags->0)&order=id'],
  ['posts', 'select=title,author:authors!author_id(count)&order=id'],
  ['posts', 'select=title,comments()&comments=is.null&order=id'],
  ['posts', 'select=title,comments(body,post:posts(title,tags(name)))&order=id&limit=2&offset=1'],
  ['authors', 'select=name,written:posts!author_id(title,comments(body)),edited:posts!editor_id(count)&order=id'],
  ['authors', 'select=name,posts!author_id!inner(title,comments!inner(body))&posts.comments.body=like.*a*&order=id'],
  ['authors', 'select=*,posts!author_id(*,tags(*))&order=id&limit=2'],
  ['categories', 'select=name,parent:parent_id(name,parent:parent_id(name)),children:categories!parent_id(name)'],
  ['wide', 'select=*,author:authors(name,wide(*))&order=id'],
  ['comments', 'select=body,post:posts(title,author:authors!author_id(name))&order=id'],
  ['authors', 'select=name,posts!author_id(title)&order=meta->>b.desc.nullslast,score.asc,id'],
  [
    'authors',
    'select=name,posts!author_id(title)&posts.title=fts.engines&name=ilike.*a*&or=(active.is.true,score.gt.1)',
  ],
];

describe.each(testDialects)('embedded reads in one statement on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  let alice: SignedInAccount;
  let ann: Actor;
  let anon: Actor;
  const tables: Record<string, TableDefinition> = {};

  const make = async (name: string, schema: Record<string, unknown>, access = PUBLIC) => {
    const created = await createTable(db, alice, { name, schema, access });
    tables[name] = (await findTableById(db, alice, created.id)) as TableDefinition;
  };
  const insert = async (name: string, rows: Array<Record<string, unknown>>) =>
    (await createRecords(db, alice, tables[name] as TableDefinition, rows)).map((row) => row.id);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.app.basalt.db;
    alice = await signIn(server, 'alice');
    ann = appActor(alice.accountId, { ref: 'app', role: 'authenticated' }, 'ann');
    anon = appActor(alice.accountId, { ref: 'app', role: 'anon' });
    await make('authors', {
      name: { type: 'text' },
      born: { type: 'date' },
      active: { type: 'boolean' },
      score: { type: 'number' },
      meta: { type: 'json' },
      tags: { type: 'array' },
    });
    await make('posts', { title: { type: 'text' }, author_id: ref('authors'), editor_id: ref('authors') });
    await make(
      'comments',
      { body: { type: 'text' }, post_id: ref('posts'), owner: { type: 'text' }, score: { type: 'number' } },
      OWN,
    );
    await make('tags', { name: { type: 'text' } });
    await make('post_tags', { post_id: ref('posts'), tag_id: ref('tags') });
    await make('categories', { name: { type: 'text' }, parent_id: ref('categories') });
    const wide: Record<string, unknown> = { author_id: ref('authors') };
    for (let i = 0; i < WIDE_COLUMNS; i++) wide[`c${i}`] = { type: i % 2 ? 'number' : 'text' };
    await make('wide', wide);

    const authors = await insert('authors', [
      {
        name: 'Ada',
        born: '1815-12-10T00:00:00.123Z',
        active: true,
        score: 0.1 + 0.2,
        meta: { b: 'x', a: [1, { c: null }] },
        tags: ['a', 2],
      },
      { name: 'Brian', born: '1942-01-01', active: false, score: 1e300, meta: 'just text', tags: [] },
      { name: 'Claude', born: null, active: null, score: -0, meta: null, tags: null },
      { name: 'Dora', score: 5e-324, meta: 12.5, active: true },
    ]);
    const [ada, brian, claude] = authors;
    const posts = await insert('posts', [
      { title: 'Engines', author_id: ada, editor_id: brian },
      { title: 'Notes', author_id: ada, editor_id: null },
      { title: 'Unix', author_id: brian, editor_id: ada },
      { title: 'Quiet', author_id: claude, editor_id: claude },
    ]);
    const [engines, notes, unix] = posts;
    await insert('comments', [
      { body: 'ann on engines', post_id: engines, owner: 'ann', score: 3 },
      { body: 'bob on engines', post_id: engines, owner: 'bob', score: null },
      { body: 'ann again', post_id: engines, owner: 'ann', score: 123456789.12345679 },
      { body: 'bob on unix', post_id: unix, owner: 'bob', score: 2 },
      { body: 'ann on notes', post_id: notes, owner: 'ann', score: 0.5 },
    ]);
    const tags = await insert('tags', [{ name: 'math' }, { name: 'history' }, { name: 'systems' }]);
    // Engines is linked to math twice: a join through the junction lists it twice.
    await insert('post_tags', [
      { post_id: engines, tag_id: tags[0] },
      { post_id: engines, tag_id: tags[1] },
      { post_id: engines, tag_id: tags[0] },
      { post_id: unix, tag_id: tags[2] },
    ]);
    const [root] = await insert('categories', [{ name: 'root' }]);
    const [child] = await insert('categories', [{ name: 'child', parent_id: root }]);
    await insert('categories', [{ name: 'grandchild', parent_id: child }]);
    const row: Record<string, unknown> = { author_id: ada };
    for (let i = 0; i < WIDE_COLUMNS; i++) row[`c${i}`] = i % 2 ? i + 0.5 : `v${i}`;
    await insert('wide', [row, { author_id: brian }]);
  });
  afterAll(() => server.close());

  const oneStatement = async (actor: Actor, resource: string, search: string) => {
    const query = parseRestQuery(search);
    const reply = await serveRest(db, actor, { method: 'GET', resource, query, body: undefined });
    expect(reply.status, `${resource}?${search}`).toBe(200);
    return reply.body;
  };
  const perLevel = async (actor: Actor, resource: string, search: string) => {
    const table = tables[resource] as TableDefinition;
    const query = parseRestQuery(search);
    const plan = await planEmbeds(db, actor, table, query);
    const order = hasRelatedOrder(query) ? await relatedOrderTerms(db, actor, table, query) : orderTerms(query.order);
    const { offset, limit } = query.range;
    const rows = await listRecords(db, actor, table, { where: plan.where, order, offset, limit });
    return projectRows(rows, query.select, await plan.values(rows));
  };

  it.each(CASES)(
    'answers %s?%s as the per-level reads do, for the owner, an end user and anon',
    async (resource, search) => {
      for (const actor of [alice, ann, anon]) {
        const expected = JSON.stringify(await perLevel(actor, resource, search));
        expect(JSON.stringify(await oneStatement(actor, resource, search))).toBe(expected);
      }
    },
  );

  it('reads a nested embed in one statement, whatever the number of rows', async () => {
    const statements: string[] = [];
    const names = new Set<string | undefined>();
    const readRows = db.readRows;
    db.readRows = (query) => {
      if (query.sql.includes('"t_')) statements.push(query.sql);
      names.add((query as Partial<PreparedQuery>).preparedName);
      return readRows(query);
    };
    try {
      const body = await oneStatement(
        alice,
        'authors',
        'select=name,posts!author_id(title,comments(body),tags(name)),edited:posts!editor_id(count)&order=id',
      );
      expect((body as unknown[]).length).toBe(4);
      expect(statements).toHaveLength(1);
      // Prepared by a name of its shape (PostgreSQL keeps it per connection): the offset is bound, not written.
      await oneStatement(alice, 'tags', 'select=name,posts(title)&limit=1&offset=1');
      await oneStatement(alice, 'tags', 'select=name,posts(title)&limit=1&offset=2');
      expect([...names].filter((name) => name?.startsWith(`basalt_rel_${tables.tags?.id}_`))).toHaveLength(1);
    } finally {
      db.readRows = readRows;
    }
  });

  it('keeps the values of every type as a read of the table alone gives them', async () => {
    const alone = await oneStatement(alice, 'authors', 'select=*&order=id');
    const embedded = (await oneStatement(alice, 'posts', 'select=author:authors!author_id(*)&order=id')) as Array<{
      author: unknown;
    }>;
    const byId = new Map((alone as Array<{ id: number }>).map((a) => [a.id, a]));
    for (const { author } of embedded) {
      expect(JSON.stringify(author)).toBe(JSON.stringify(byId.get((author as { id: number }).id)));
    }
    const ada = byId.values().next().value as Record<string, unknown>;
    expect(ada).toMatchObject({ active: true, score: 0.30000000000000004, born: '1815-12-10T00:00:00.123Z' });
    expect(ada.meta).toEqual({ b: 'x', a: [1, { c: null }] });
  });

  it('meets no row for a reference that holds no id (a fraction, or past bigint), without an error', async () => {
    await make('loose', { author_id: ref('authors') });
    const loose = tables.loose as TableDefinition;
    const ids = await insert('loose', [{ author_id: null }, { author_id: null }, { author_id: null }]);
    // Written past the records service (as SQL could): the service itself refuses such values.
    for (const [id, value] of [
      [ids[0], 1.5],
      [ids[1], 1e300],
      [ids[2], -1e300],
    ]) {
      await db.kysely.executeQuery(
        textQuery(`UPDATE "t_${loose.id}" SET "author_id" = ${value} WHERE "id" = ${id}`, []),
      );
    }
    expect(await oneStatement(alice, 'loose', 'select=id,author:authors(name)&order=id')).toEqual(
      ids.map((id) => ({ id, author: null })),
    );
    expect(await oneStatement(alice, 'loose', 'select=id,authors!inner(name)')).toEqual([]);
    expect(await oneStatement(alice, 'loose', 'select=id,author:authors(name)&order=author(name),id')).toHaveLength(3);
  });

  it('refuses bad embedded paging, columns and values with a 4xx before reading', async () => {
    const statusOf = async (search: string) => {
      try {
        await oneStatement(alice, 'posts', search);
        return 200;
      } catch (error) {
        return (error as { status: number }).status;
      }
    };
    for (const search of [
      'select=title,comments(body)&comments.limit=-1',
      'select=title,comments(nope)',
      'select=title,comments(body)&comments.order=nope',
      'select=title,comments(body)&comments.score=gt.abc',
      'select=title,comments(body)&comments.offset=x',
    ]) {
      const status = await statusOf(search);
      expect(status, search).toBeGreaterThanOrEqual(400);
      expect(status, search).toBeLessThan(500);
    }
  });
});
