import type { TableResponse } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedExamples } from '../packages/console/src/features/api-docs/embed-examples.js';
import { createAppTable, type Developer, startDeveloper } from '../packages/server/src/testing/apps.fixtures.js';
import { users } from '../packages/server/src/testing/auth.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../packages/server/src/testing/test-server.js';

// The embedding examples the API page and the /documentation guide show run as written against a real server:
// the selects the console builds from the account's own references (embed-examples.ts) are sent with supabase-js
// and answer the related rows.

describe.each(testDialects)('the embedding examples against a real server (%s)', (dialect) => {
  let server: TestServer;
  let dev: Developer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    dev = await startDeveloper(server, users.alice);
    await createAppTable(server, dev, { name: 'authors', schema: { name: { type: 'text' } } });
    await createAppTable(server, dev, {
      name: 'posts',
      schema: {
        title: { type: 'text' },
        author_id: { type: 'number', references: { table: 'authors', onDelete: 'restrict' } },
        editor: { type: 'number', references: { table: 'authors', onDelete: 'set null', label: 'name' } },
      },
    });
    const { data: ada } = await dev.client.from('authors').insert({ name: 'Ada' }).select().single();
    await dev.client.from('posts').insert([
      { title: 'Notes', author_id: ada.id, editor: ada.id },
      { title: 'Sketches', author_id: ada.id },
    ]);
  });
  afterAll(() => server?.close());

  it('reads each post with its author and each author with a count of posts, as the examples say', async () => {
    const tables = (await server.request('GET', '/api/tables', { headers: dev.headers })).body as TableResponse[];
    const examples = embedExamples(tables, server.url);
    expect(examples.map((e) => e.title)).toEqual(['posts.author_id → authors', 'posts.editor → authors']);
    const selects = examples.map((e) =>
      [...e.js.matchAll(/from\("(\w+)"\)\.select\("([^"]+)"\)/g)].map((m) => m.slice(1)),
    );
    const [[manyToOne, oneToMany] = [], [editorSelect] = []] = selects;
    const posts = await dev.client
      .from(manyToOne?.[0] ?? '')
      .select(manyToOne?.[1] ?? '')
      .order('id');
    expect(posts.error).toBeNull();
    expect(posts.data).toEqual([
      { id: 1, title: 'Notes', author: { id: 1, name: 'Ada' } },
      { id: 2, title: 'Sketches', author: { id: 1, name: 'Ada' } },
    ]);
    const authors = await dev.client.from(oneToMany?.[0] ?? '').select(oneToMany?.[1] ?? '');
    expect(authors.error).toBeNull();
    expect(authors.data).toEqual([{ id: 1, name: 'Ada', posts: [{ count: 2 }] }]);
    const edited = await dev.client
      .from(editorSelect?.[0] ?? '')
      .select(editorSelect?.[1] ?? '')
      .order('id');
    expect(edited.data?.map((p) => (p as unknown as { editor: unknown }).editor)).toEqual([
      { id: 1, name: 'Ada' },
      null,
    ]);
    // The cURL form is the same request.
    const curl = examples[0]?.curl.match(/curl "([^"]+)"/)?.[1] ?? '';
    const res = await fetch(curl, { headers: { apikey: server.anonKey, Authorization: `Bearer ${dev.accessToken}` } });
    expect(await res.json()).toEqual(posts.data);
  });
});
