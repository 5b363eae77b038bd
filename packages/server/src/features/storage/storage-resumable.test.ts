import crypto from 'node:crypto';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { type RestUser, signUpRestUser } from '../../testing/rest.fixtures.js';
import { startStorageServer } from '../../testing/storage.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Resumable uploads over TUS at /storage/v1/upload/resumable: with tus-js-client as supabase-js documents it, and
// over raw HTTP to cut an upload half-way and resume it at the offset the server reports.

const b64 = (text: string) => Buffer.from(text).toString('base64');
const metadata = (bucket: string, name: string, type = 'application/octet-stream') =>
  `bucketName ${b64(bucket)},objectName ${b64(name)},contentType ${b64(type)}`;

describe.each(testDialects)('resumable uploads on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let bob: RestUser;
  const endpoint = () => `${server.url}/storage/v1/upload/resumable`;

  beforeAll(async () => {
    server = await startStorageServer(dialect, 'disk', null, { maxFileSize: 1024 * 1024 });
    alice = await signUpRestUser(server, users.alice);
    bob = await signUpRestUser(server, users.bob);
    await alice.client.storage.createBucket('big', { public: false });
  });
  afterAll(() => server.close());

  it('uploads with tus-js-client in chunks', async () => {
    const bytes = crypto.randomBytes(300 * 1024);
    await new Promise<void>((resolve, reject) => {
      const upload = new tus.Upload(bytes, {
        endpoint: endpoint(),
        headers: { ...alice.headers, 'x-upsert': 'true' },
        chunkSize: 100 * 1024,
        retryDelays: [],
        metadata: { bucketName: 'big', objectName: 'folder/tus.bin', contentType: 'application/octet-stream' },
        onError: reject,
        onSuccess: () => resolve(),
      });
      upload.start();
    });
    const { data } = await alice.client.storage.from('big').download('folder/tus.bin');
    expect(Buffer.from(await (data as Blob).arrayBuffer())).toEqual(bytes);
  });

  it('resumes a cut upload at the offset the server reports, and refuses a wrong offset', async () => {
    const bytes = crypto.randomBytes(200 * 1024);
    const created = await fetch(endpoint(), {
      method: 'POST',
      headers: {
        ...alice.headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(bytes.length),
        'upload-metadata': metadata('big', 'cut.bin'),
      },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location') ?? '', server.url).toString();
    const patch = (offset: number, chunk: Buffer, headers = alice.headers) =>
      fetch(location, {
        method: 'PATCH',
        headers: {
          ...headers,
          'tus-resumable': '1.0.0',
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(chunk),
      });
    expect((await patch(0, bytes.subarray(0, 80 * 1024))).status).toBe(204);
    // The connection is gone; the client asks where to go on.
    const head = await fetch(location, { method: 'HEAD', headers: { ...alice.headers, 'tus-resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe(String(80 * 1024));
    expect((await patch(1234, bytes.subarray(1234))).status).toBe(409);
    // Another account cannot see or continue it.
    expect((await patch(80 * 1024, bytes.subarray(80 * 1024), bob.headers)).status).toBe(404);
    expect((await alice.client.storage.from('big').exists('cut.bin')).data).toBe(false);
    expect((await patch(80 * 1024, bytes.subarray(80 * 1024))).status).toBe(204);
    const { data } = await alice.client.storage.from('big').download('cut.bin');
    expect(Buffer.from(await (data as Blob).arrayBuffer())).toEqual(bytes);
  });

  it('refuses uploads it would not store, before any byte', async () => {
    const start = (headers: Record<string, string>, length: number, meta: string) =>
      fetch(endpoint(), {
        method: 'POST',
        headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': meta },
      });
    const tooBig = await start(alice.headers, 2 * 1024 * 1024, metadata('big', 'huge.bin'));
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ statusCode: '413' });
    expect((await start(bob.headers, 10, metadata('big', 'x.bin'))).status).toBe(404);
    expect((await start(alice.headers, 10, metadata('big', '../x.bin'))).status).toBe(400);
    expect((await start(alice.headers, 10, `${metadata('big', 'y.bin')},basaltActor ${b64('{}')}`)).status).toBe(400);
    expect((await start({}, 10, metadata('big', 'x.bin'))).status).toBe(401);
    expect((await start(alice.headers, 10, metadata('big', 'folder/tus.bin'))).status).toBe(409);
  });
});
