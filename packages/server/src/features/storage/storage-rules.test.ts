import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appClient,
  type Developer,
  type EndUserClient,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { startStorageServer } from '../../testing/storage.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Bucket rules for an app's callers, through supabase-js with the app's keys: two end users and a visitor. `own`
// gives each user the folder named by their id; a hidden object is "not found", never listed or signed.

describe.each(testDialects)('storage rules on %s', (dialect) => {
  let server: TestServer;
  let developer: Developer;
  let ann: EndUserClient;
  let ben: EndUserClient;

  beforeAll(async () => {
    server = await startStorageServer(dialect, 'disk', null);
    developer = await startDeveloper(server, users.alice);
    ann = await signUpEndUser(server, developer, 'ann@example.com');
    ben = await signUpEndUser(server, developer, 'ben@example.com');
    const service = appClient(server, developer.app.serviceKey).storage;
    expect((await service.createBucket('docs')).error).toBeNull();
    const set = await server.request('PATCH', '/api/storage/buckets/docs', {
      headers: developer.headers,
      json: { access: { read: 'own', insert: 'own', update: 'own', delete: 'own' } },
    });
    expect(set.status).toBe(200);
    expect(set.body.access).toEqual({ read: 'own', insert: 'own', update: 'own', delete: 'own' });
  });
  afterAll(() => server.close());

  it('lets each end user use their own folder only', async () => {
    const annFiles = ann.client.storage.from('docs');
    expect(
      (await annFiles.upload(`${ann.id}/note.txt`, Buffer.from('ann'), { contentType: 'text/plain' })).error,
    ).toBeNull();
    const intoBen = await annFiles.upload(`${ben.id}/note.txt`, Buffer.from('x'), { contentType: 'text/plain' });
    expect(intoBen.error).toMatchObject({ status: 403 });
    expect((await annFiles.upload('loose.txt', Buffer.from('x'), { contentType: 'text/plain' })).error).toMatchObject({
      status: 403,
    });

    const benFiles = ben.client.storage.from('docs');
    expect((await benFiles.download(`${ann.id}/note.txt`)).error).toMatchObject({ status: 404 });
    expect((await benFiles.createSignedUrl(`${ann.id}/note.txt`, 60)).error).toMatchObject({ status: 404 });
    expect((await benFiles.list(ann.id)).data).toEqual([]);
    expect((await benFiles.remove([`${ann.id}/note.txt`])).data).toEqual([]);
    expect((await benFiles.move(`${ann.id}/note.txt`, `${ben.id}/stolen.txt`)).error).toMatchObject({ status: 404 });
    expect((await benFiles.copy(`${ann.id}/note.txt`, `${ben.id}/stolen.txt`)).error).toMatchObject({ status: 404 });
    expect(await (await annFiles.download(`${ann.id}/note.txt`)).data?.text()).toBe('ann');
    expect((await annFiles.list(ann.id)).data?.map((e) => e.name)).toEqual(['note.txt']);
  });

  it('keeps visitors out unless a rule is public, and lets the service key do everything', async () => {
    const visitor = appClient(server, developer.app.anonKey).storage.from('docs');
    expect((await visitor.download(`${ann.id}/note.txt`)).error).toMatchObject({ status: 404 });
    expect((await visitor.upload('v.txt', Buffer.from('v'), { contentType: 'text/plain' })).error).toMatchObject({
      status: 403,
    });
    const publicRead = await server.request('PATCH', '/api/storage/buckets/docs', {
      headers: developer.headers,
      json: { access: { read: 'public' } },
    });
    expect(publicRead.body.access).toMatchObject({ read: 'public', insert: 'own' });
    expect(await (await visitor.download(`${ann.id}/note.txt`)).data?.text()).toBe('ann');

    const service = appClient(server, developer.app.serviceKey).storage.from('docs');
    expect((await service.upload('anywhere.txt', Buffer.from('s'), { contentType: 'text/plain' })).error).toBeNull();
    expect((await service.remove([`${ann.id}/note.txt`])).data).toHaveLength(1);
    // Rules are not the bucket's settings: an end user cannot change them.
    const byUser = await server.request('PUT', '/storage/v1/bucket/docs', {
      headers: ann.headers,
      json: { public: true },
    });
    expect(byUser.status).toBe(403);
  });

  it('refuses unknown rules', async () => {
    for (const access of [{ read: 'everyone' }, { write: 'public' }, 'public', [1]]) {
      const res = await server.request('PATCH', '/api/storage/buckets/docs', {
        headers: developer.headers,
        json: { access },
      });
      expect(res.status).toBe(400);
    }
    const missing = await server.request('PATCH', '/api/storage/buckets/nope', {
      headers: developer.headers,
      json: {},
    });
    expect(missing.status).toBe(404);
  });
});
