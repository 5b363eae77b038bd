import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { type RestUser, signUpRestUser } from '../../testing/rest.fixtures.js';
import { startStorageServer } from '../../testing/storage.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Supabase's list v2 (supabase-js `listV2`): plain prefixes, cursors through every page, folders with
// `with_delimiter`, other accounts' buckets and bad bodies refused; and storage's changes in the activity feed.

describe.each(testDialects)('storage list v2 and activity on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let bob: RestUser;
  const names = [
    'a.txt',
    'photos/2024/x.png',
    'photos/2024/y.png',
    'photos/cat.png',
    'photos/cow.png',
    'photos/dog.png',
    'z_y.txt',
  ];

  beforeAll(async () => {
    server = await startStorageServer(dialect, 'disk', null);
    alice = await signUpRestUser(server, users.alice);
    bob = await signUpRestUser(server, users.bob);
    await alice.client.storage.createBucket('listed');
    for (const name of names) {
      const { error } = await alice.client.storage.from('listed').upload(name, name, { contentType: 'text/plain' });
      expect(error).toBeNull();
    }
  });
  afterAll(() => server.close());

  it('pages through every object with cursors, in name order', async () => {
    const bucket = alice.client.storage.from('listed');
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const { data, error } = await bucket.listV2({ limit: 3, ...(cursor ? { cursor } : {}) });
      expect(error).toBeNull();
      seen.push(...(data?.objects ?? []).map((o) => o.name));
      expect(data?.folders).toEqual([]);
      if (!data?.hasNext) break;
      cursor = data.nextCursor;
      expect(pages).toBeLessThan(5);
    }
    expect(seen).toEqual(names);
    const first = (await bucket.listV2({ prefix: 'photos/c' })).data;
    expect(first?.objects.map((o) => o.name)).toEqual(['photos/cat.png', 'photos/cow.png']);
    expect(first?.objects[0]).toMatchObject({ id: expect.any(String), metadata: { size: 14, mimetype: 'text/plain' } });
    expect((await bucket.listV2({ prefix: 'z_' })).data?.objects.map((o) => o.name)).toEqual(['z_y.txt']);
  });

  it('folds folders with with_delimiter, across pages without repeating one', async () => {
    const bucket = alice.client.storage.from('listed');
    const top = (await bucket.listV2({ with_delimiter: true })).data;
    expect(top?.folders.map((f) => f.name)).toEqual(['photos/']);
    expect(top?.objects.map((o) => o.name)).toEqual(['a.txt', 'z_y.txt']);
    const entries: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { data } = await bucket.listV2({
        prefix: 'photos/',
        with_delimiter: true,
        limit: 1,
        ...(cursor ? { cursor } : {}),
      });
      entries.push(...(data?.folders ?? []).map((f) => f.name), ...(data?.objects ?? []).map((o) => o.name));
      if (!data?.hasNext) break;
      cursor = data.nextCursor;
    }
    expect(entries).toEqual(['photos/2024/', 'photos/cat.png', 'photos/cow.png', 'photos/dog.png']);
  });

  it('refuses bad bodies, bad cursors and other accounts’ buckets with Supabase’s error shape', async () => {
    const post = (bucket: string, body: unknown, headers = alice.headers) =>
      server.request('POST', `/storage/v1/object/list-v2/${bucket}`, { headers, json: body });
    for (const body of [
      { limit: 0 },
      { limit: 1001 },
      { limit: '5' },
      { prefix: 42 },
      { prefix: 'a\u0000b' },
      { prefix: 'x'.repeat(2000) },
      { cursor: 'not a cursor!' },
      { cursor: Buffer.from('q:zzz').toString('base64') },
      { with_delimiter: 'yes' },
      { sortBy: { column: 'size' } },
      { sortBy: 'name' },
      [1, 2],
    ]) {
      const res = await post('listed', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ statusCode: '400', error: expect.any(String), message: expect.any(String) });
    }
    expect((await post('listed', {}, bob.headers)).status).toBe(404);
    expect((await post('nope', {})).status).toBe(404);
    expect((await post('listed', {}, {})).status).toBe(401);
    const raw = await fetch(`${server.url}/storage/v1/object/list-v2/listed`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'application/json' },
      body: '{"prefix":',
    });
    expect(raw.status).toBe(400);
  });

  it('records bucket and object changes in the account’s activity feed', async () => {
    const bucket = alice.client.storage.from('listed');
    await bucket.move('a.txt', 'b.txt');
    await bucket.remove(['b.txt']);
    await alice.client.storage.updateBucket('listed', { public: false, fileSizeLimit: '1MB' });
    const res = await server.request('GET', '/api/activity?limit=50', {
      headers: { authorization: alice.headers.authorization ?? '' },
    });
    expect(res.status).toBe(200);
    const entries = res.body.data as Array<{ action: string; resource: string; details: Record<string, unknown> }>;
    const storage = entries.filter((e) => e.resource.startsWith('storage.'));
    expect(storage).toContainEqual(
      expect.objectContaining({
        action: 'CREATE',
        resource: 'storage.buckets',
        details: expect.objectContaining({ bucket: 'listed' }),
      }),
    );
    expect(storage).toContainEqual(expect.objectContaining({ action: 'UPDATE', resource: 'storage.buckets' }));
    expect(storage).toContainEqual(
      expect.objectContaining({
        action: 'DELETE',
        resource: 'storage.objects',
        details: expect.objectContaining({ names: ['b.txt'] }),
      }),
    );
    expect(
      storage.filter((e) => e.resource === 'storage.objects' && e.action === 'CREATE').length,
    ).toBeGreaterThanOrEqual(names.length);
    // Bob sees none of it.
    const his = await server.request('GET', '/api/activity?limit=50', {
      headers: { authorization: bob.headers.authorization ?? '' },
    });
    expect((his.body.data as Array<{ resource: string }>).filter((e) => e.resource.startsWith('storage.'))).toEqual([]);
  });
});
