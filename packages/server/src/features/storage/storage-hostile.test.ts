import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { keyHeaders, users } from '../../testing/auth.fixtures.js';
import { type RestUser, signUpRestUser } from '../../testing/rest.fixtures.js';
import { startStorageServer } from '../../testing/storage.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Bad input and wrong callers on /storage/v1, over raw HTTP (node:http, so that `..` and `\` reach the server as
// sent): each answers a 4xx in Storage's shape `{statusCode, error, message}` and changes nothing; none a 500.

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON shapes.
  body: any;
}

function raw(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
) {
  const { port } = new URL(server.url);
  if (body !== undefined && !headers['transfer-encoding']) {
    headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  }
  return new Promise<Raw>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const storageShape = (status: number) => ({
  statusCode: String(status),
  error: expect.any(String),
  message: expect.any(String),
});

/** expectRefused checks a refusal's status and Storage's error shape. */
function expectRefused(res: Raw, status: number) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject(storageShape(status));
}

describe.each(testDialects)('storage refusals on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let bob: RestUser;
  const asAlice = (extra: Record<string, string> = {}) => ({ ...alice.headers, ...extra });
  // An upload of `body` as `type`, and a JSON request: the two shapes most refusals below are sent in.
  const upload = (path: string, headers: Record<string, string>, type: string, body: Buffer | string) =>
    raw(server, 'POST', `/storage/v1/object/${path}`, { ...headers, 'content-type': type }, body);
  const sendJson = (method: string, path: string, headers: Record<string, string>, value: unknown) =>
    raw(server, method, path, { ...headers, 'content-type': 'application/json' }, JSON.stringify(value));

  beforeAll(async () => {
    server = await startStorageServer(dialect, 'disk', null, { maxFileSize: 4096 });
    alice = await signUpRestUser(server, users.alice);
    bob = await signUpRestUser(server, users.bob);
    await alice.client.storage.createBucket('avatars', {
      public: false,
      fileSizeLimit: 1024,
      allowedMimeTypes: ['image/*', 'text/plain'],
    });
    await alice.client.storage.createBucket('big');
    await alice.client.storage
      .from('avatars')
      .upload('alice/keep.txt', Buffer.from('keep'), { contentType: 'text/plain' });
  });
  afterAll(() => server.close());

  const listAll = async () => {
    const names: string[] = [];
    const walk = async (prefix: string) => {
      const { data } = await alice.client.storage.from('avatars').list(prefix, { limit: 1000 });
      for (const entry of data ?? []) {
        const full = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.id === null) await walk(full);
        else names.push(full);
      }
    };
    await walk('');
    return names.sort();
  };

  it.each([
    ['../escape.txt'],
    ['alice/../../escape.txt'],
    ['%2e%2e/escape.txt'],
    ['alice/%2E%2E/%2e%2e/escape.txt'],
    ['./alice.txt'],
    ['alice//double.txt'],
    ['/etc/passwd'],
    ['%2Fetc%2Fpasswd'],
    ['alice%5C..%5Cescape.txt'],
    ['alice\\..\\escape.txt'],
    ['alice/%00nul.txt'],
    ['alice/%01ctrl.txt'],
    [`alice/${'a'.repeat(300)}.txt`],
    [`${'d/'.repeat(600)}x.txt`],
  ])('refuses the object name %s with a 400 and stores nothing', async (name) => {
    const before = await listAll();
    const res = await upload(`avatars/${name}`, asAlice(), 'text/plain', 'x');
    expectRefused(res, 400);
    const read = await raw(server, 'GET', `/storage/v1/object/avatars/${name}`, asAlice());
    expect(read.status).toBeGreaterThanOrEqual(400);
    expect(read.status).toBeLessThan(500);
    expect(await listAll()).toEqual(before);
  });

  it('refuses an object over the bucket limit with 413 before or while storing, raw and multipart', async () => {
    const big = Buffer.alloc(2048, 1);
    const declared = await upload('avatars/alice/big.txt', asAlice(), 'text/plain', big);
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ statusCode: '413', error: 'Payload too large', message: expect.any(String) });
    // Chunked: no declared length, so the limit is found while streaming.
    const chunked = await raw(
      server,
      'POST',
      '/storage/v1/object/avatars/alice/big.txt',
      asAlice({ 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }),
      big,
    );
    expect(chunked.status).toBe(413);
    const form = await alice.client.storage
      .from('avatars')
      .upload('alice/big.txt', new Blob([big], { type: 'text/plain' }));
    expect(form.error).toMatchObject({ status: 413 });
    // The instance's limit holds for a bucket without one.
    const instance = await alice.client.storage
      .from('big')
      .upload('x.bin', Buffer.alloc(5000), { contentType: 'application/octet-stream' });
    expect(instance.error).toMatchObject({ status: 413 });
    expect(await listAll()).toEqual(['alice/keep.txt']);
  });

  it('refuses types the bucket does not take, and malformed types and bodies', async () => {
    const wrong = await upload('avatars/alice/a.pdf', asAlice(), 'application/pdf', 'x');
    expect(wrong.status).toBe(415);
    expect(wrong.body).toMatchObject({ statusCode: '415', error: 'invalid_mime_type' });
    const malformed = await upload('avatars/alice/a.txt', asAlice(), 'not a type', 'x');
    // Fastify refuses a Content-Type it cannot parse with 415, in Storage's shape.
    expectRefused(malformed, 415);
    const form = await upload(
      'avatars/alice/a.txt',
      asAlice(),
      'multipart/form-data; boundary=XX',
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nabc',
    );
    expect(form.status).toBe(400);
    for (const body of [
      { limit: -1 },
      { limit: 'x' },
      { sortBy: { column: 'name; drop' } },
      { prefix: 5 },
      { prefix: '../x' },
    ]) {
      const res = await sendJson('POST', '/storage/v1/object/list/avatars', asAlice(), body);
      expectRefused(res, 400);
    }
    for (const name of ['', 'a/b', '../x', 'x'.repeat(100), 'a b']) {
      const res = await sendJson('POST', '/storage/v1/bucket', asAlice(), { name });
      expect(res.status).toBe(400);
    }
    const limit = await sendJson('POST', '/storage/v1/bucket', asAlice(), { name: 'b2', file_size_limit: 'lots' });
    expect(limit.status).toBe(400);
    expect(await listAll()).toEqual(['alice/keep.txt']);
  });

  it("keeps another account's buckets and objects out of reach", async () => {
    const asBob = (extra: Record<string, string> = {}) => ({ ...bob.headers, ...extra });
    expect((await raw(server, 'GET', '/storage/v1/object/avatars/alice/keep.txt', asBob())).status).toBe(404);
    expect((await raw(server, 'GET', '/storage/v1/bucket/avatars', asBob())).status).toBe(404);
    const up = await upload('avatars/alice/evil.txt', asBob(), 'text/plain', 'x');
    expectRefused(up, 404);
    const removed = await sendJson('DELETE', '/storage/v1/object/avatars', asBob(), { prefixes: ['alice/keep.txt'] });
    expect(removed.body).toMatchObject(storageShape(404));
    const sign = await sendJson('POST', '/storage/v1/object/sign/avatars/alice/keep.txt', asBob(), { expiresIn: 60 });
    expect(sign.status).toBe(404);
    expect(await listAll()).toEqual(['alice/keep.txt']);
  });

  it('refuses missing, wrong and misplaced credentials', async () => {
    expect((await raw(server, 'GET', '/storage/v1/bucket', {})).status).toBe(401);
    expect((await raw(server, 'GET', '/storage/v1/bucket', keyHeaders(server.anonKey))).status).toBe(401);
    expect(
      (await raw(server, 'GET', '/storage/v1/bucket', { apikey: 'nope', authorization: 'Bearer nope' })).status,
    ).toBe(401);
    const tampered = await raw(
      server,
      'GET',
      '/storage/v1/bucket',
      asAlice({ authorization: `Bearer ${alice.accessToken}x` }),
    );
    expectRefused(tampered, 401);
    expect((await raw(server, 'GET', '/storage/v1/bucket', keyHeaders(server.serviceKey))).status).toBe(403);
    // An app's end user with the instance's key, and with the app's key where the account's is needed.
    const developer = await startDeveloper(server, users.carol);
    const endUser = await signUpEndUser(server, developer, 'eve@example.com');
    const wrongKey = await raw(server, 'GET', '/storage/v1/bucket', {
      apikey: server.anonKey,
      authorization: `Bearer ${endUser.accessToken}`,
    });
    expect(wrongKey.status).toBe(401);
    const asEndUser = await sendJson('POST', '/storage/v1/bucket', endUser.headers, { name: 'mine' });
    expect(asEndUser.status).toBe(403);
    expect((await raw(server, 'GET', '/storage/v1/bucket', endUser.headers)).status).toBe(403);
    const console = await sendJson('PATCH', '/api/storage/buckets/avatars', endUser.headers, {
      access: { read: 'public' },
    });
    expect(console.status).toBe(401);
  });
});
