import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { signUpRestUser } from '../../testing/rest.fixtures.js';
import {
  type S3Fake,
  type StorageBackend,
  startS3,
  startStorageServer,
  storageBackends,
} from '../../testing/storage.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// The unmodified supabase-js storage client against Basalt, on both engines and both backends: buckets, upload,
// download, list, move, copy, remove, signed URLs, public URLs, ranges and ETags.

const cases = testDialects.flatMap((dialect) => storageBackends.map((backend) => [dialect, backend] as const));

describe.each(cases)('storage with supabase-js on %s, %s', (dialect, backend: StorageBackend) => {
  let s3: S3Fake | null = null;
  let server: TestServer;
  let storage: SupabaseClient['storage'];
  let bobStorage: SupabaseClient['storage'];

  beforeAll(async () => {
    if (backend === 's3') s3 = await startS3();
    server = await startStorageServer(dialect, backend, s3);
    storage = (await signUpRestUser(server, users.alice)).client.storage;
    bobStorage = (await signUpRestUser(server, users.bob)).client.storage;
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('creates, reads, lists and updates buckets; names are each account’s own', async () => {
    expect(await storage.createBucket('avatars', { public: false })).toEqual({
      data: { name: 'avatars' },
      error: null,
    });
    const again = await storage.createBucket('avatars');
    expect(again.error).toMatchObject({ status: 409 });
    // Bob has his own `avatars`.
    expect((await bobStorage.createBucket('avatars', { public: true })).error).toBeNull();
    const got = await storage.getBucket('avatars');
    expect(got.data).toMatchObject({ id: 'avatars', name: 'avatars', public: false, file_size_limit: null });
    const updated = await storage.updateBucket('avatars', {
      public: false,
      fileSizeLimit: '1MB',
      allowedMimeTypes: ['image/*', 'text/plain'],
    });
    expect(updated.error).toBeNull();
    expect((await storage.getBucket('avatars')).data).toMatchObject({
      file_size_limit: 1024 * 1024,
      allowed_mime_types: ['image/*', 'text/plain'],
    });
    const listed = await storage.listBuckets();
    expect(listed.data?.map((b) => b.name)).toEqual(['avatars']);
  });

  it('uploads, downloads, lists, moves, copies and removes objects', async () => {
    const files = storage.from('avatars');
    const up = await files.upload('alice/hello.txt', Buffer.from('hello world'), { contentType: 'text/plain' });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({
      path: 'alice/hello.txt',
      fullPath: 'avatars/alice/hello.txt',
      id: expect.any(String),
    });
    // A Blob goes as a multipart form.
    const blob = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    expect((await files.upload('alice/pic.png', blob)).error).toBeNull();
    const twice = await files.upload('alice/hello.txt', Buffer.from('again'), { contentType: 'text/plain' });
    expect(twice.error).toMatchObject({ status: 409 });
    expect(
      (await files.upload('alice/hello.txt', Buffer.from('hello again'), { contentType: 'text/plain', upsert: true }))
        .error,
    ).toBeNull();

    const down = await files.download('alice/hello.txt');
    expect(await down.data?.text()).toBe('hello again');
    const png = await files.download('alice/pic.png');
    expect(png.data?.type).toBe('image/png');
    expect(new Uint8Array(await (png.data as Blob).arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));

    const root = await files.list();
    expect(root.data).toEqual([expect.objectContaining({ name: 'alice', id: null })]);
    const inner = await files.list('alice');
    expect(inner.data?.map((e) => e.name)).toEqual(['hello.txt', 'pic.png']);
    expect(inner.data?.[0]?.metadata).toMatchObject({ size: 11, mimetype: 'text/plain' });
    expect((await files.list('alice', { search: 'pi' })).data?.map((e) => e.name)).toEqual(['pic.png']);
    expect((await files.list('alice', { limit: 1, offset: 1 })).data?.map((e) => e.name)).toEqual(['pic.png']);

    expect((await files.move('alice/hello.txt', 'alice/docs/hello.txt')).error).toBeNull();
    expect((await files.copy('alice/docs/hello.txt', 'alice/copy.txt')).error).toBeNull();
    expect(await (await files.download('alice/copy.txt')).data?.text()).toBe('hello again');
    expect((await files.download('alice/hello.txt')).error).toMatchObject({ status: 404 });

    const info = await files.info('alice/copy.txt');
    expect(info.data).toMatchObject({ name: 'alice/copy.txt', size: 11, contentType: 'text/plain' });
    expect((await files.exists('alice/copy.txt')).data).toBe(true);
    expect((await files.exists('alice/none.txt')).data).toBe(false);

    const removed = await files.remove(['alice/copy.txt', 'alice/none.txt']);
    expect(removed.data?.map((o) => o.name)).toEqual(['alice/copy.txt']);
    expect((await files.exists('alice/copy.txt')).data).toBe(false);
  });

  it('signs download and upload URLs that work without a key, and refuses forged ones', async () => {
    const files = storage.from('avatars');
    await files.upload('alice/signed.txt', Buffer.from('signed bytes'), { contentType: 'text/plain' });
    const signed = await files.createSignedUrl('alice/signed.txt', 60);
    expect(signed.error).toBeNull();
    const res = await fetch(signed.data?.signedUrl ?? '');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('signed bytes');
    const asDownload = await files.createSignedUrl('alice/signed.txt', 60, { download: 'mine.txt' });
    expect((await fetch(asDownload.data?.signedUrl ?? '')).headers.get('content-disposition')).toContain('mine.txt');
    const forged = `${signed.data?.signedUrl.slice(0, -3)}abc`;
    const bad = await fetch(forged);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ statusCode: '400', error: 'InvalidSignature' });
    // A token for one object does not open another.
    const other = (signed.data?.signedUrl ?? '').replace('signed.txt', 'pic.png');
    expect((await fetch(other)).status).toBe(400);

    const many = await files.createSignedUrls(['alice/signed.txt', 'alice/none.txt'], 60);
    expect(many.data?.[0]).toMatchObject({ path: 'alice/signed.txt', error: null, signedUrl: expect.any(String) });
    expect(many.data?.[1]).toMatchObject({ path: 'alice/none.txt', signedUrl: null });

    const upload = await files.createSignedUploadUrl('alice/via-token.txt');
    expect(upload.error).toBeNull();
    const sent = await files.uploadToSignedUrl(
      'alice/via-token.txt',
      upload.data?.token ?? '',
      Buffer.from('by token'),
      {
        contentType: 'text/plain',
      },
    );
    expect(sent.error).toBeNull();
    expect(await (await files.download('alice/via-token.txt')).data?.text()).toBe('by token');
  });

  it('serves public buckets without a key, with ranges and ETags', async () => {
    expect((await storage.createBucket('public-files', { public: true })).error).toBeNull();
    const files = storage.from('public-files');
    await files.upload('a.txt', Buffer.from('0123456789'), { contentType: 'text/plain' });
    const url = files.getPublicUrl('a.txt').data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('0123456789');
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const part = await fetch(url, { headers: { range: 'bytes=2-4' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(await part.text()).toBe('234');
    expect((await fetch(url, { headers: { range: 'bytes=20-' } })).status).toBe(416);
    // Past 64 KB an object is streamed, below it read whole: both give the same bytes, whole and in ranges.
    const big = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 251));
    await files.upload('big.bin', big, { contentType: 'application/octet-stream' });
    const bigUrl = files.getPublicUrl('big.bin').data.publicUrl;
    const whole = await fetch(bigUrl);
    expect(whole.headers.get('content-length')).toBe('200000');
    expect(Buffer.from(await whole.arrayBuffer()).equals(big)).toBe(true);
    for (const [range, start, end] of [
      ['bytes=100-199', 100, 199],
      ['bytes=1000-150000', 1000, 150000],
      ['bytes=-70000', 130000, 199999],
    ] as const) {
      const slice = await fetch(bigUrl, { headers: { range } });
      expect(slice.status).toBe(206);
      expect(slice.headers.get('content-range')).toBe(`bytes ${start}-${end}/200000`);
      expect(Buffer.from(await slice.arrayBuffer()).equals(big.subarray(start, end + 1))).toBe(true);
    }
    // A private bucket's object is not public.
    const hidden = await fetch(storage.from('avatars').getPublicUrl('alice/signed.txt').data.publicUrl);
    expect(hidden.status).toBe(404);
  });

  it('empties and deletes buckets', async () => {
    await storage.createBucket('scratch');
    await storage.from('scratch').upload('x.txt', Buffer.from('x'), { contentType: 'text/plain' });
    expect((await storage.deleteBucket('scratch')).error).toMatchObject({ status: 409 });
    expect((await storage.emptyBucket('scratch')).error).toBeNull();
    expect((await storage.deleteBucket('scratch')).error).toBeNull();
    expect((await storage.getBucket('scratch')).error).toMatchObject({ status: 404 });
  });
});
