import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { type Developer, startDeveloper } from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { createAppLookup } from './app-lookup.js';

// Each process caches apps by ref (features/apps/app-lookup.ts). An app in use must not lapse into a read that
// every request with its keys waits for; and what changed in the database without an event (a lost one) must
// still show once its entry is read again.

const MINUTE = 60_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe.each(testDialects)('the app lookup on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  let developer: Developer;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000 });
    db = server.app.basalt.db;
    developer = await startDeveloper(server, users.alice);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('answers an app in use at once across its entry’s end, reading it again in the background', async () => {
    let clock = 1_000_000;
    const lookup = createAppLookup(db, server.app.basalt.apps.config, { now: () => clock });
    const { ref, anonKey } = developer.app;
    const first = lookup.matchKey(anonKey);
    expect(first).toBeInstanceOf(Promise);
    expect((await first)?.role).toBe('anon');
    let readAt = clock;
    for (let minute = 1; minute <= 3; minute++) {
      clock = readAt + MINUTE - 5_000;
      expect(lookup.byRef(ref)).not.toBeInstanceOf(Promise);
      await settle();
      readAt = clock;
      clock = readAt + 10_000;
      const found = lookup.matchKey(anonKey);
      expect({ minute, now: !(found instanceof Promise) && found?.role }).toEqual({ minute, now: 'anon' });
    }
  });

  it('refuses a key changed without an event once the entry is read again', async () => {
    let clock = 1_000_000;
    const lookup = createAppLookup(db, server.app.basalt.apps.config, { now: () => clock });
    const { ref, anonKey } = developer.app;
    expect((await lookup.matchKey(anonKey))?.role).toBe('anon');
    // Rolled behind the process's back: nothing on the bus tells it.
    await db.kysely.updateTable('apps').set({ anon_key: 'rolled' }).where('ref', '=', ref).execute();
    try {
      clock += 30_000;
      expect(lookup.matchKey(anonKey)).toMatchObject({ role: 'anon' });
      clock += 25_000;
      expect(lookup.matchKey(anonKey)).toMatchObject({ role: 'anon' });
      await settle();
      expect(lookup.matchKey(anonKey)).toBeNull();
    } finally {
      await db.kysely.updateTable('apps').set({ anon_key: anonKey }).where('ref', '=', ref).execute();
    }
  });

  it('keeps an eviction over a read under way: the read does not bring the old app back', async () => {
    let clock = 1_000_000;
    const lookup = createAppLookup(db, server.app.basalt.apps.config, { now: () => clock });
    const { ref } = developer.app;
    await lookup.byRef(ref);
    clock += MINUTE - 5_000;
    lookup.byRef(ref);
    lookup.evict(ref);
    await settle();
    expect(lookup.byRef(ref)).toBeInstanceOf(Promise);
  });
});
