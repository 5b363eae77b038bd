import fs from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../db/database.js';
import { signUpUser, users } from '../../testing/auth.fixtures.js';
import { type RestUser, signUpRestUser } from '../../testing/rest.fixtures.js';
import {
  type S3Fake,
  type StorageBackend,
  startS3,
  startStorageServer,
  storageBackends,
} from '../../testing/storage.fixtures.js';
import type { TestServer } from '../../testing/test-server.js';
import { storageUsageOf } from './storage.store.js';
import { expireResumableUploads } from './storage-cleanup.js';
import { createStorage, type Storage } from './storage-context.js';

// What happens to stored files over an account's life, on disk and on S3: kept usage counters follow every write,
// each account's public buckets keep their own names while getPublicUrl needs no key, unfinished resumable uploads expire
// through the job's function run by a second handle on the database (as another node would), and a deleted
// account's bytes are removed.

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe.each(storageBackends)('storage over an account’s life on %s', (backend: StorageBackend) => {
  let s3: S3Fake | null = null;
  let server: TestServer;
  let db: Db;
  let storage: Storage;

  // What the store holds under an account: files in its folder, or S3 keys under its prefix.
  const storedKeys = async (accountId: string): Promise<string[]> => {
    if (!s3) {
      return fs.readdir(path.join(server.config.dataDir, 'storage', accountId)).catch(() => []);
    }
    const { endpoint, region, accessKeyId, secretAccessKey, bucket } = s3.settings;
    const client = new S3Client({
      endpoint: endpoint ?? undefined,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
    });
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: `basalt-storage/${accountId}/` }),
    );
    return (page.Contents ?? []).map((item) => item.Key ?? '');
  };

  beforeAll(async () => {
    s3 = backend === 's3' ? await startS3() : null;
    server = await startStorageServer('sqlite', backend, s3);
    // A second handle on the same database and store: another node, as far as storage is concerned.
    db = openDatabase({ databaseUrl: null, dataDir: server.config.dataDir });
    storage = createStorage(db, server.config);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await server?.close();
    await s3?.close();
  });

  it('keeps the account’s stored bytes and objects counted through uploads, replacements and removals', async () => {
    const alice = await signUpRestUser(server, users.alice);
    const bucket = alice.client.storage.from((await alice.client.storage.createBucket('counted')).data?.name ?? '');
    await bucket.upload('a.txt', 'x'.repeat(10), { contentType: 'text/plain' });
    await bucket.upload('b/c.txt', 'y'.repeat(20), { contentType: 'text/plain' });
    expect(await storageUsageOf(db.kysely, alice.accountId)).toEqual({ bytes: 30, objects: 2 });
    await bucket.update('a.txt', 'z'.repeat(5), { contentType: 'text/plain' });
    await bucket.copy('b/c.txt', 'b/d.txt');
    expect(await storageUsageOf(db.kysely, alice.accountId)).toEqual({ bytes: 45, objects: 3 });
    await bucket.move('b/d.txt', 'e.txt');
    await bucket.remove(['b/c.txt', 'missing.txt']);
    expect(await storageUsageOf(db.kysely, alice.accountId)).toEqual({ bytes: 25, objects: 2 });
    await alice.client.storage.emptyBucket('counted');
    expect(await storageUsageOf(db.kysely, alice.accountId)).toEqual({ bytes: 0, objects: 0 });

    // A megabyte stored shows in the account's usage (billing).
    await bucket.upload('big.bin', Buffer.alloc(1024 * 1024, 1), { contentType: 'application/octet-stream' });
    const usage = await server.request('GET', '/api/billing/usage', {
      headers: { authorization: alice.headers.authorization ?? '' },
    });
    expect(usage.status).toBe(200);
    expect(usage.body.storageMb).toBeGreaterThanOrEqual(1);
  });

  it('keeps each account’s bucket names its own, public ones too, and getPublicUrl works without a key', async () => {
    const alice = await signUpRestUser(server, users.bob);
    const carol = await signUpRestUser(server, users.carol);
    expect((await alice.client.storage.createBucket('pictures', { public: true })).error).toBeNull();
    await alice.client.storage.from('pictures').upload('cat.txt', 'meow', { contentType: 'text/plain' });
    await alice.client.storage.from('pictures').upload('both.txt', 'alice', { contentType: 'text/plain' });
    // Another account's bucket of the same name, made public later: the name is carol's own too.
    expect((await carol.client.storage.createBucket('pictures', { public: false })).error).toBeNull();
    const update = await server.request('PUT', '/storage/v1/bucket/pictures', {
      headers: carol.headers,
      json: { public: true },
    });
    expect(update.status).toBe(200);
    await carol.client.storage.from('pictures').upload('dog.txt', 'woof', { contentType: 'text/plain' });
    await carol.client.storage.from('pictures').upload('both.txt', 'carol', { contentType: 'text/plain' });

    // A keyless public URL names no account: each one's object is found in the bucket that holds it.
    const read = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers });
      return { status: res.status, text: await res.text() };
    };
    const urlOf = (who: typeof alice, path: string) =>
      who.client.storage.from('pictures').getPublicUrl(path).data.publicUrl;
    expect(await read(urlOf(alice, 'cat.txt'))).toEqual({ status: 200, text: 'meow' });
    expect(await read(urlOf(carol, 'dog.txt'))).toEqual({ status: 200, text: 'woof' });
    // A path both hold is the older bucket's without credentials, and each one's with them.
    expect(await read(urlOf(carol, 'both.txt'))).toEqual({ status: 200, text: 'alice' });
    expect(await read(urlOf(carol, 'both.txt'), carol.headers)).toEqual({ status: 200, text: 'carol' });
    expect((await read(urlOf(alice, 'missing.txt'))).status).toBe(404);
    // Private again, carol's objects are no one's to read without a key.
    await server.request('PUT', '/storage/v1/bucket/pictures', { headers: carol.headers, json: { public: false } });
    expect((await read(urlOf(carol, 'dog.txt'))).status).toBe(404);
  });

  it('expires an unfinished resumable upload from any node, its partial bytes with it', async () => {
    const dave = await signUpRestUser(server, users.dave);
    await dave.client.storage.createBucket('resumed');
    const endpoint = `${server.url}/storage/v1/upload/resumable`;
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...dave.headers,
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': `bucketName ${b64('resumed')},objectName ${b64('half.bin')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location') ?? '', server.url).toString();
    const id = location.split('/').pop() ?? '';
    const patched = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...dave.headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.alloc(500, 3),
    });
    expect(patched.status).toBe(204);
    // Its bytes are one chunk in the blob store, under the account.
    expect((await storedKeys(dave.accountId)).filter((key) => key.includes(`r-${id}-`))).toHaveLength(1);
    expect(await expireResumableUploads(storage)).toBe(0);

    await db.kysely
      .updateTable('storage_resumable_uploads')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', id)
      .execute();
    expect(await expireResumableUploads(storage)).toBe(1);
    const head = await fetch(location, { method: 'HEAD', headers: { ...dave.headers, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(404);
    expect((await storedKeys(dave.accountId)).filter((key) => key.includes('r-'))).toEqual([]);
  });

  it('removes a deleted account’s stored bytes (and leaves other accounts’ alone)', async () => {
    const erin: RestUser = await signUpRestUser(server, users.erin);
    const signedIn = await signUpUser(server, {
      username: 'frank',
      email: 'frank@example.com',
      password: 'Frank-Passw0rd!',
    });
    const frank = { headers: signedIn.headers };
    for (const who of [erin.headers, frank.headers]) {
      expect(
        (await server.request('POST', '/storage/v1/bucket', { headers: who, json: { name: 'mine' } })).status,
      ).toBe(200);
      const put = await fetch(`${server.url}/storage/v1/object/mine/f.txt`, {
        method: 'POST',
        headers: { ...who, 'content-type': 'text/plain' },
        body: 'bytes',
      });
      expect(put.status).toBe(200);
    }
    const frankId = signedIn.id;
    expect(await storedKeys(frankId)).toHaveLength(1);

    const deleted = await server.request('DELETE', '/api/user', {
      headers: { authorization: frank.headers.authorization ?? '' },
      json: { confirm: 'frank' },
    });
    expect(deleted.status).toBe(200);
    // Removed after the commit, by every node hearing `account.deleted`.
    for (let tries = 0; (await storedKeys(frankId)).length > 0; tries++) {
      expect(tries).toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await storedKeys(erin.accountId)).toHaveLength(1);
  });
});
