import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDirOf } from '../../config.js';
import { sqliteDialect } from '../../db/dialect/sqlite.js';
import { systemMigrations } from '../../db/migrations/index.js';
import { signUpUser, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { downloadArchive, takeBackup, uploadArchive, waitForBackup } from '../../testing/backups.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { newestMigration } from './backup-manifest.js';
import { takeLease } from './backups.store.js';
import { restoreGuardOf } from './restore-guard.js';

// The newest migration this server knows: the level a refusal names.
const LEVEL = newestMigration(Object.keys(systemMigrations(sqliteDialect)));

// The backups API: administrators only, every bad input a clear 4xx that changes nothing, and archives that are
// damaged, foreign or too new refused before anything is restored.

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testDialects)('backups API on %s', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;
  let bob: KeyedUser;
  let admin: Record<string, string>;
  let good: { id: string };
  let archive: Buffer;
  let scratch: string;

  beforeAll(async () => {
    server = await startAuthServer(dialect, {
      backups: { dir: null, format: 'auto', uploadMaxBytes: 5 * 1024 ** 2, scheduler: false, pace: 1 },
    });
    alice = await signUpWithKey(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
    admin = alice.tokenHeaders;
    await createTable(server, alice, 'items');
    good = await takeBackup(server, admin, { name: 'first' });
    archive = await downloadArchive(server, admin, good.id);
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-archives-'));
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (scratch) await fs.rm(scratch, { recursive: true, force: true });
  });

  const routes = (id: string) => [
    ['GET', '/api/backups'],
    ['POST', '/api/backups'],
    ['GET', `/api/backups/${id}`],
    ['GET', `/api/backups/${id}/download`],
    ['POST', `/api/backups/${id}/restore`],
    ['DELETE', `/api/backups/${id}`],
    ['GET', '/api/backups/schedule'],
    ['PUT', '/api/backups/schedule'],
  ];

  it('answers 403 to an account that does not administer the instance, 401 without a token', async () => {
    for (const [method, url] of routes(good.id)) {
      const json =
        method === 'PUT' ? { enabled: true, cron: '0 3 * * *', keep: 7 } : method === 'POST' ? {} : undefined;
      const asBob = await server.request(method as string, url as string, { headers: bob.tokenHeaders, json });
      expect([url, asBob.status, asBob.body?.code]).toEqual([url, 403, 'admin_required']);
      const anonymous = await server.request(method as string, url as string, { json });
      expect([url, anonymous.status]).toEqual([url, 401]);
      const withKey = await server.request(method as string, url as string, { headers: alice.keyHeaders, json });
      expect([url, withKey.status]).toEqual([url, 403]);
    }
    const upload = await uploadArchive(server, bob.tokenHeaders, archive);
    expect(upload.status).toBe(403);
    expect((await server.request('GET', '/api/backups', { headers: admin })).body.backups).toHaveLength(1);
  });

  it('lists, reads and downloads a completed backup', async () => {
    const list = await server.request('GET', '/api/backups', { headers: admin });
    expect(list.body.backups[0]).toMatchObject({ id: good.id, name: 'first', status: 'COMPLETED', origin: 'manual' });
    const one = await server.request('GET', `/api/backups/${good.id}`, { headers: admin });
    expect(one.body).toMatchObject({ status: 'COMPLETED', error: null, restore: null, includeFiles: false });
    expect(one.body.size).toBe(archive.length);
    expect(one.body.durationMs).toBeGreaterThanOrEqual(0);
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name too long', { name: 'n'.repeat(101) }, 'name'],
    ['a name of the wrong type', { name: 42 }, 'name'],
    ['a NUL character', { name: 'a\u0000b' }, 'name'],
    ['a description too long', { description: 'd'.repeat(501) }, 'description'],
    ['includeFiles that is not a boolean', { includeFiles: 'yes' }, 'includeFiles'],
    ['an unknown field', { userId: 'someone-else' }, ''],
  ])('refuses to create a backup with %s (400)', async (_name, json, field) => {
    const res = await server.request('POST', '/api/backups', { headers: admin, json });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.validationErrors ?? {})).toContain(field);
  });

  it('answers 404 for unknown and malformed ids, and changes nothing', async () => {
    for (const id of [MISSING_ID, 'not-a-uuid', '..%2F..%2Fetc%2Fpasswd', '1']) {
      for (const [method, url] of [
        ['GET', `/api/backups/${id}`],
        ['GET', `/api/backups/${id}/download`],
        ['POST', `/api/backups/${id}/restore`],
        ['DELETE', `/api/backups/${id}`],
      ]) {
        const res = await server.request(method as string, url as string, { headers: admin });
        expect([url, res.status]).toEqual([url, 404]);
      }
    }
    expect((await server.request('GET', '/api/backups', { headers: admin })).body.backups).toHaveLength(1);
  });

  it('reads and changes the schedule, refusing an expression croner cannot read', async () => {
    const initial = await server.request('GET', '/api/backups/schedule', { headers: admin });
    expect(initial.body).toMatchObject({ enabled: true, cron: '0 3 * * *', keep: 7 });
    expect(new Date(initial.body.nextRunAt).getUTCMinutes()).toBe(0);
    for (const [json, field] of [
      [{ enabled: true, cron: '61 * * * *', keep: 7 }, 'cron'],
      [{ enabled: true, cron: 'every day', keep: 7 }, 'cron'],
      [{ enabled: true, cron: '* * * * * * *', keep: 7 }, 'cron'],
      [{ enabled: true, cron: '0 3 * * *', keep: 0 }, 'keep'],
      [{ enabled: true, cron: '0 3 * * *', keep: 1.5 }, 'keep'],
      [{ enabled: 'yes', cron: '0 3 * * *', keep: 7 }, 'enabled'],
      [{ enabled: true, cron: 'x'.repeat(101), keep: 7 }, 'cron'],
    ] as const) {
      const res = await server.request('PUT', '/api/backups/schedule', { headers: admin, json });
      expect([json, res.status, Object.keys(res.body.validationErrors ?? {})]).toEqual([json, 400, [field]]);
    }
    const changed = await server.request('PUT', '/api/backups/schedule', {
      headers: admin,
      json: { enabled: false, cron: '30 1 * * 0', keep: 3 },
    });
    expect(changed.body).toEqual({ enabled: false, cron: '30 1 * * 0', keep: 3, nextRunAt: null });
    const read = await server.request('GET', '/api/backups/schedule', { headers: admin });
    expect(read.body).toEqual(changed.body);
  });

  describe('archives that cannot be restored', () => {
    const unpacked = () => path.join(scratch, 'unpacked');
    const repack = async (name: string, change: (dir: string) => Promise<void>) => {
      await fs.rm(unpacked(), { recursive: true, force: true });
      await fs.mkdir(unpacked(), { recursive: true });
      const file = path.join(scratch, 'good.tar.gz');
      await fs.writeFile(file, archive);
      await tar.x({ file, cwd: unpacked() });
      await change(unpacked());
      const entries = await fs.readdir(unpacked());
      const out = path.join(scratch, name);
      await tar.c({ gzip: true, cwd: unpacked(), file: out }, entries);
      return fs.readFile(out);
    };
    const count = async () => (await server.request('GET', '/api/backups', { headers: admin })).body.backups.length;

    it.each([
      ['random bytes', async () => Buffer.from('this is not an archive at all'), 400, /not a gzip-compressed tar/],
      [
        'a truncated archive',
        async () => archive.subarray(0, Math.floor(archive.length / 2)),
        400,
        /could not be read/,
      ],
      [
        'a foreign archive (no manifest)',
        async () => repack('foreign.tar.gz', (dir) => fs.rm(path.join(dir, 'manifest.json'))),
        400,
        /no manifest\.json/,
      ],
      [
        'a part whose checksum does not match',
        async () =>
          repack('tampered.tar.gz', async (dir) => {
            const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8'));
            const first = manifest.parts[0].files[0].path;
            await fs.appendFile(path.join(dir, first), 'tampered');
          }),
        400,
        /checksum of database\/.* does not match/,
      ],
      [
        'a newer migration level',
        async () =>
          repack('newer.tar.gz', async (dir) => {
            const file = path.join(dir, 'manifest.json');
            const manifest = JSON.parse(await fs.readFile(file, 'utf8'));
            manifest.migrations.push('0999_from_the_future');
            manifest.migrationLevel = '0999_from_the_future';
            manifest.basaltVersion = '9.0.0';
            await fs.writeFile(file, JSON.stringify(manifest));
          }),
        422,
        new RegExp(
          `Basalt 9\\.0\\.0 at migration level 0999_from_the_future.*this server \\(Basalt 0\\.1\\.0\\) is at ${LEVEL}`,
        ),
      ],
    ])('refuses %s and lists nothing', async (_name, make, status, message) => {
      const before = await count();
      const res = await uploadArchive(server, admin, await make());
      expect(res.status).toBe(status);
      expect(res.body.message).toMatch(message);
      expect(await count()).toBe(before);
      const leftovers = (await fs.readdir(backupDirOf(server.config))).filter((f) => f.startsWith('.'));
      expect(leftovers).toEqual([]);
    });

    it('refuses an upload that is not sent as an archive (415), empty (400) or too large (413)', async () => {
      const json = await server.request('POST', '/api/backups/upload', { headers: admin, json: { archive: 'x' } });
      expect(json.status).toBe(415);
      const empty = await uploadArchive(server, admin, Buffer.alloc(0));
      expect(empty.status).toBe(400);
      const huge = await uploadArchive(server, admin, Buffer.alloc(6 * 1024 ** 2, 1));
      expect(huge.status).toBe(413);
    });
  });

  it('uploads a good archive, then deletes it and its file', async () => {
    const uploaded = await uploadArchive(server, admin, archive);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ name: 'first', status: 'COMPLETED', origin: 'uploaded' });
    const file = path.join(backupDirOf(server.config), uploaded.body.filePath);
    expect((await fs.stat(file)).size).toBe(archive.length);
    const deleted = await server.request('DELETE', `/api/backups/${uploaded.body.id}`, { headers: admin });
    expect(deleted.status).toBe(204);
    await expect(fs.stat(file)).rejects.toThrow();
    expect((await server.request('GET', `/api/backups/${uploaded.body.id}`, { headers: admin })).status).toBe(404);
  });

  it('refuses writes with 503 and Retry-After while a restore runs, and lets reads through', async () => {
    const guard = restoreGuardOf(server.app.basalt.db);
    guard.announce(true);
    try {
      const write = await server.request('POST', '/api/table/items', {
        headers: alice.keyHeaders,
        json: { name: 'x' },
      });
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toBe('10');
      expect(write.body.error.code).toBe('RESTORE_IN_PROGRESS');
      const rest = await server.request('POST', '/rest/v1/items', { headers: alice.keyHeaders, json: { name: 'x' } });
      expect(rest.status).toBe(503);
      const read = await server.request('GET', '/api/table/items', { headers: alice.keyHeaders });
      expect(read.status).toBe(200);
      const signUp = await signUpUser(server, users.erin).catch((error: Error) => error);
      expect(String(signUp)).toMatch(/503/);
    } finally {
      guard.announce(false);
    }
    const after = await server.request('POST', '/api/table/items', { headers: alice.keyHeaders, json: { name: 'x' } });
    expect(after.status).toBe(201);
  });

  it('refuses a backup while another node holds the lease (409), and takes one once it lapses', async () => {
    const db = server.app.basalt.db.kysely;
    const soon = new Date(Date.now() + 60_000).toISOString();
    const other = { holder: 'another-node', operation: 'backup', backupId: null, expiresAt: soon };
    expect(await takeLease(db, other, new Date().toISOString())).toBe(true);
    const refused = await server.request('POST', '/api/backups', { headers: admin, json: { name: 'b' } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('backup_busy');
    const restore = await server.request('POST', `/api/backups/${good.id}/restore`, { headers: admin });
    expect(restore.status).toBe(409);
    // A lease whose holder stopped renewing it lapses.
    await db
      .updateTable('backup_leases')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const taken = await server.request('POST', '/api/backups', { headers: admin, json: { name: 'b' } });
    expect(taken.status).toBe(202);
    expect((await waitForBackup(server, admin, taken.body.id)).status).toBe('COMPLETED');
  });
});
