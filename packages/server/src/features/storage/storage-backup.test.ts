import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInUser, signUpUser, users } from '../../testing/auth.fixtures.js';
import { downloadArchive, restoreAndWatch, takeBackup, uploadArchive } from '../../testing/backups.fixtures.js';
import { signUpRestUser } from '../../testing/rest.fixtures.js';
import { callNode, startServerProcess } from '../../testing/server-process.js';
import { type S3Fake, startS3, startStorageServer } from '../../testing/storage.fixtures.js';
import type { TestServer } from '../../testing/test-server.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

// Stored files join instance backups: a backup with includeFiles carries every object's bytes, and a restore onto
// another server (here storing on S3, the source on disk) serves them again; without includeFiles it carries none.

describe('stored files in an instance backup', () => {
  let s3: S3Fake;
  let source: TestServer;
  let target: TestServer;

  beforeAll(async () => {
    s3 = await startS3();
    source = await startStorageServer('sqlite', 'disk', null);
    target = await startStorageServer('sqlite', 's3', s3);
  }, 60_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    await s3?.close();
  });

  it('backs up and restores a stored file, across backends', async () => {
    const alice = await signUpRestUser(source, users.alice);
    await alice.client.storage.createBucket('docs');
    const bytes = Buffer.from('backed up bytes \u00e9');
    expect(
      (await alice.client.storage.from('docs').upload('a/b.txt', bytes, { contentType: 'text/plain' })).error,
    ).toBeNull();
    const headers = alice.headers;
    const backup = await takeBackup(source, headers, { name: 'with files', includeFiles: true });
    expect(backup.status).toBe('COMPLETED');
    const archive = await downloadArchive(source, headers, backup.id);

    const admin = await signUpUser(target, users.dave);
    const uploaded = await uploadArchive(target, admin.headers, archive);
    expect(uploaded.status).toBe(201);
    expect(await restoreAndWatch(target, admin.headers, uploaded.body.id)).toMatchObject({
      restore_status: 'COMPLETED',
    });

    const restored = await signInUser({ ...target, anonKey: source.anonKey }, users.alice);
    const res = await fetch(`${target.url}/storage/v1/object/docs/a/b.txt`, { headers: restored.headers });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
  });

  it('leaves the bytes out without includeFiles: the object is then reported missing, not a 500', async () => {
    const alice = await signInUser(source, users.alice);
    const backup = await takeBackup(source, alice.headers, { name: 'rows only' });
    const archive = await downloadArchive(source, alice.headers, backup.id);
    const fresh = await startStorageServer('sqlite', 'disk', null);
    try {
      const admin = await signUpUser(fresh, users.dave);
      const uploaded = await uploadArchive(fresh, admin.headers, archive);
      expect(await restoreAndWatch(fresh, admin.headers, uploaded.body.id)).toMatchObject({
        restore_status: 'COMPLETED',
      });
      const restored = await signInUser({ ...fresh, anonKey: source.anonKey }, users.alice);
      const res = await fetch(`${fresh.url}/storage/v1/object/docs/a/b.txt`, { headers: restored.headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ statusCode: '404', message: 'Object not found' });
    } finally {
      await fresh.close();
    }
  });

  it('restores stored files from the command line too (`basalt restore <file>`)', async () => {
    const alice = await signInUser(source, users.alice);
    const backup = await takeBackup(source, alice.headers, { name: 'for the CLI', includeFiles: true });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-cli-restore-'));
    const file = path.join(dir, 'archive.tar.gz');
    await fs.writeFile(file, await downloadArchive(source, alice.headers, backup.id));
    const dataDir = path.join(dir, 'data');
    const cli = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/main.ts', 'restore', file],
      { cwd: REPO, env: { ...process.env, BASALT_DATA_DIR: dataDir, LOG_LEVEL: 'silent' } },
    );
    expect(cli.stdout).toMatch(/Restored/);
    const node = await startServerProcess({ BASALT_DATA_DIR: dataDir });
    try {
      const signIn = await callNode(
        node.url,
        'POST',
        '/auth/v1/token?grant_type=password',
        { apikey: source.anonKey },
        { email: users.alice.email, password: users.alice.password },
      );
      const res = await fetch(`${node.url}/storage/v1/object/docs/a/b.txt`, {
        headers: { apikey: source.anonKey, authorization: `Bearer ${signIn.body.access_token}` },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('backed up bytes \u00e9');
    } finally {
      await node.stop();
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 180_000); // a CLI run and a `basalt serve` start, on a shared and loaded machine
});
