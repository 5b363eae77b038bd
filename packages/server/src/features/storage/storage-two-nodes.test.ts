import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callNode, type ServerProcess, startServerProcess } from '../../testing/server-process.js';
import { type S3Fake, startS3 } from '../../testing/storage.fixtures.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../testing/test-server.js';

// Two nodes on one PostgreSQL sharing one S3 bucket: node A a `basalt serve` process, node B a server in this
// process. An object stored through A is served by B, and a bucket made public on A is public on B at once,
// although B had cached it as private.

// Far below the bucket cache's 60 s TTL: only the bus can make B notice in time.
const LIMIT_MS = 2000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('storage on two nodes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: S3Fake;
  let a: ServerProcess;
  let b: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    s3 = await startS3();
    const siteUrl = 'http://basalt.cluster.test';
    const { endpoint, bucket, accessKeyId, secretAccessKey } = s3.settings;
    a = await startServerProcess({
      DATABASE_URL: database.url,
      AUTH_RATE_LIMIT: '1000',
      SITE_URL: siteUrl,
      STORAGE_S3_ENDPOINT: endpoint ?? '',
      STORAGE_S3_BUCKET: bucket,
      STORAGE_S3_ACCESS_KEY_ID: accessKeyId,
      STORAGE_S3_SECRET_ACCESS_KEY: secretAccessKey,
    });
    b = await startTestServer('postgres', {
      databaseUrl: database.url,
      authRateLimit: 1000,
      siteUrl,
      storage: { maxFileSize: 1024 * 1024, s3: s3.settings },
    });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.stop();
    await s3?.close();
    await database?.drop();
  });

  it('serves what the other node stored and honours its bucket changes at once', async () => {
    const anonKey = (await callNode(a.url, 'GET', '/api/config', {})).body.anonKey;
    const signUp = await callNode(
      a.url,
      'POST',
      '/auth/v1/signup',
      { apikey: anonKey },
      {
        email: 'two-nodes@example.test',
        password: 'Sturdy-Passw0rd!',
      },
    );
    const headers = { apikey: anonKey, authorization: `Bearer ${signUp.body.access_token}` };
    expect((await callNode(a.url, 'POST', '/storage/v1/bucket', headers, { name: 'shared' })).status).toBe(200);
    const put = await fetch(`${a.url}/storage/v1/object/shared/x.txt`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'stored on A',
    });
    expect(put.status).toBe(200);

    const onB = await fetch(`${b.url}/storage/v1/object/shared/x.txt`, { headers });
    expect(await onB.text()).toBe('stored on A');
    // B reads (and caches) the bucket as private.
    expect((await fetch(`${b.url}/storage/v1/object/public/shared/x.txt`)).status).toBe(404);

    expect((await callNode(a.url, 'PUT', '/storage/v1/bucket/shared', headers, { public: true })).status).toBe(200);
    const started = performance.now();
    for (;;) {
      if ((await fetch(`${b.url}/storage/v1/object/public/shared/x.txt`)).status === 200) break;
      expect(performance.now() - started).toBeLessThan(LIMIT_MS);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(performance.now() - started).toBeLessThan(LIMIT_MS);
  });

  it('continues on one node a resumable upload another node started', async () => {
    const anonKey = (await callNode(a.url, 'GET', '/api/config', {})).body.anonKey;
    const signIn = await callNode(
      a.url,
      'POST',
      '/auth/v1/token?grant_type=password',
      { apikey: anonKey },
      { email: 'two-nodes@example.test', password: 'Sturdy-Passw0rd!' },
    );
    const headers = { apikey: anonKey, authorization: `Bearer ${signIn.body.access_token}`, 'tus-resumable': '1.0.0' };
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const created = await fetch(`${a.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        ...headers,
        'upload-length': String(bytes.length),
        'upload-metadata': `bucketName ${b64('shared')},objectName ${b64('tus/both.bin')}`,
      },
    });
    expect(created.status).toBe(201);
    const id = new URL(created.headers.get('location') ?? '', a.url).pathname.split('/').pop();
    const patch = (base: string, offset: number, end: number) =>
      fetch(`${base}/storage/v1/upload/resumable/${id}`, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(bytes.subarray(offset, end)),
      });
    expect((await patch(a.url, 0, 100_000)).status).toBe(204);
    // B, which has seen nothing of this upload, knows where it stands and takes the rest.
    const head = await fetch(`${b.url}/storage/v1/upload/resumable/${id}`, { method: 'HEAD', headers });
    expect(head.headers.get('upload-offset')).toBe('100000');
    expect((await patch(b.url, 0, 10)).status).toBe(409);
    expect((await patch(b.url, 100_000, 200_000)).status).toBe(204);
    expect((await patch(a.url, 200_000, bytes.length)).status).toBe(204);
    const onB = await fetch(`${b.url}/storage/v1/object/shared/tus/both.bin`, { headers });
    expect(Buffer.from(await onB.arrayBuffer())).toEqual(bytes);
  });
});
