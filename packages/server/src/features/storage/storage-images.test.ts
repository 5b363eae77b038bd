import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { type RestUser, signUpRestUser } from '../../testing/rest.fixtures.js';
import { startStorageServer } from '../../testing/storage.fixtures.js';
import type { TestServer } from '../../testing/test-server.js';

// Image transformations through supabase-js's `transform` option and the object URL's query, with sharp.

describe('image transformations', () => {
  let server: TestServer;
  let alice: RestUser;

  beforeAll(async () => {
    server = await startStorageServer('sqlite', 'disk', null);
    alice = await signUpRestUser(server, users.alice);
    await alice.client.storage.createBucket('pics', { public: true });
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    await alice.client.storage.from('pics').upload('red.png', png, { contentType: 'image/png' });
    await alice.client.storage.from('pics').upload('note.txt', Buffer.from('hi'), { contentType: 'text/plain' });
  });
  afterAll(() => server.close());

  it('resizes and converts on authenticated, public and plain object downloads', async () => {
    const files = alice.client.storage.from('pics');
    const resized = await files.download('red.png', { transform: { width: 100, height: 50, resize: 'cover' } });
    expect(resized.error).toBeNull();
    const meta = await sharp(Buffer.from(await (resized.data as Blob).arrayBuffer())).metadata();
    expect(meta).toMatchObject({ width: 100, height: 50, format: 'png' });

    const publicUrl = files.getPublicUrl('red.png', { transform: { width: 80, format: 'origin' } }).data.publicUrl;
    expect(publicUrl).toContain('/render/image/public/');
    const res = await fetch(publicUrl);
    expect(res.status).toBe(200);
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ width: 80, height: 60 });
    expect((await fetch(publicUrl, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } })).status).toBe(304);

    const webp = await fetch(`${server.url}/storage/v1/object/pics/red.png?width=40&format=webp`, {
      headers: alice.headers,
    });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await webp.arrayBuffer())).metadata()).toMatchObject({ width: 40, format: 'webp' });
  });

  it('refuses bad options and objects that are not images', async () => {
    const base = `${server.url}/storage/v1/render/image/authenticated/pics`;
    for (const query of ['width=0', 'width=99999', 'width=abc', 'quality=5', 'resize=stretch', 'format=bmp']) {
      const res = await fetch(`${base}/red.png?${query}`, { headers: alice.headers });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: '400' });
    }
    expect((await fetch(`${base}/note.txt?width=10`, { headers: alice.headers })).status).toBe(400);
    await alice.client.storage.from('pics').upload('fake.png', Buffer.from('not a png'), { contentType: 'image/png' });
    const fake = await fetch(`${base}/fake.png?width=10`, { headers: alice.headers });
    expect(fake.status).toBe(422);
  });
});
