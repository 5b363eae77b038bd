import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../db/dialect/dialect.js';
import { appClient } from '../../testing/apps.fixtures.js';
import { signInUser, startAuthServer, users } from '../../testing/auth.fixtures.js';
import {
  downloadArchive,
  instancePicture,
  restoreAndWatch,
  type SeededInstance,
  seedInstance,
  takeBackup,
  uploadArchive,
} from '../../testing/backups.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Round trips: an instance backed up on one engine and restored onto another server of either engine comes back
// whole: every table and row, access rule, history entry and checkpoint, API key hash, account and end user. The
// backups use each engine's default format and, on PostgreSQL, also the logical one (BACKUP_FORMAT=logical).

type Trip = { from: DialectName; to: DialectName; logical: boolean };
const trips: Trip[] = testDialects.flatMap((from) =>
  testDialects.flatMap((to) => [
    { from, to, logical: false },
    ...(from === 'postgres' ? [{ from, to, logical: true }] : []),
  ]),
);

describe.each(trips)('a backup of $from restored onto $to (logical: $logical)', ({ from, to, logical }) => {
  let source: TestServer;
  let target: TestServer;
  let seeded: SeededInstance;
  let archive: Buffer;
  let backup: { id: string; status: string; format: string; size: number };

  beforeAll(async () => {
    source = await startAuthServer(from, logical ? { backups: { ...defaults(), format: 'logical' } } : {});
    seeded = await seedInstance(source);
    backup = await takeBackup(source, seeded.alice.tokenHeaders, { name: 'round trip', description: 'all of it' });
    archive = await downloadArchive(source, seeded.alice.tokenHeaders, backup.id);
    target = await startAuthServer(to);
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('writes a COMPLETED archive in the expected format', () => {
    expect(backup.status).toBe('COMPLETED');
    const expected = logical ? 'logical' : from === 'sqlite' ? 'sqlite-file' : 'pg-dump';
    expect(backup.format).toBe(expected);
    expect(backup.size).toBe(archive.length);
  });

  it('restores every table, row, access rule, history entry, API key hash and user', async () => {
    // The target's own first account administers it until the restore replaces the accounts.
    const admin = await signInOrUp(target);
    const uploaded = await uploadArchive(target, admin, archive);
    if (from === 'postgres' && !logical && to === 'sqlite') {
      // pg_dump's format only restores onto PostgreSQL: the upload is refused, naming the way to move engines.
      expect(uploaded.status).toBe(422);
      expect(uploaded.body.message).toMatch(/only a PostgreSQL server can restore.*BACKUP_FORMAT=logical/);
      return;
    }
    expect(uploaded.status).toBe(201);
    const restored = await restoreAndWatch(target, admin, uploaded.body.id);
    expect(restored).toMatchObject({ restore_status: 'COMPLETED', restore_error: null });

    expect(await instancePicture(target.app.basalt.db)).toEqual(await instancePicture(source.app.basalt.db));

    // The restored API key (its hash) reads the same rows on the target.
    const read = async (server: TestServer) =>
      (await server.request('GET', '/api/table/items?limit=100', { headers: seeded.alice.keyHeaders })).body;
    expect(await read(target)).toEqual(await read(source));
    // Once restored, the target speaks with the source's keys: alice signs in with them.
    await signInUser({ ...target, anonKey: source.anonKey }, users.alice);
    // The end user signs in to the restored app with its anon key, through the unmodified supabase-js.
    const client = appClient(target, seeded.developer.app.anonKey);
    const { error } = await client.auth.signInWithPassword({
      email: seeded.endUserEmail,
      password: 'End-User-Passw0rd!',
    });
    expect(error).toBeNull();
  }, 120_000);
});

function defaults() {
  return { dir: null, format: 'auto' as const, uploadMaxBytes: 1024 ** 3, scheduler: false, pace: 0.25 };
}

// users.dave administers the target until it is restored.
async function signInOrUp(server: TestServer) {
  const res = await server.request('POST', '/auth/v1/signup', {
    headers: { apikey: server.anonKey },
    json: { email: users.dave.email, password: users.dave.password, data: { username: users.dave.username } },
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { apikey: server.anonKey, authorization: `Bearer ${res.body.access_token}` };
}
