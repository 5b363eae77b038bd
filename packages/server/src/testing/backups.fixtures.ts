import type { TableSchema } from '@basalt/shared';
import { sql } from 'kysely';
import { columnTypeOf } from '../db/column-types/registry.js';
import type { Db } from '../db/database.js';
import { userTableName } from '../db/identifiers.js';
import { columnTypeIn } from '../db/user-tables.js';
import { type Developer, signUpEndUser, startDeveloper } from './apps.fixtures.js';
import { users } from './auth.fixtures.js';
import { createTable, type KeyedUser, seedItems, signUpWithKey } from './public-api.fixtures.js';
import type { TestServer } from './test-server.js';

// Fixtures of the backups suites: an instance with something of everything (accounts, tables of every column
// type with access rules, rows, history and a checkpoint, API keys, an app with an end user), the calls that
// back it up and restore it, and a picture of everything a restore must bring back, equal across engines.

// biome-ignore lint/suspicious/noExplicitAny: fixtures hand JSON bodies to tests.
type Json = any;

/** SeededInstance is what seedInstance made. */
export interface SeededInstance {
  /** alice signed up first: the instance's administrator. */
  alice: KeyedUser;
  bob: KeyedUser;
  developer: Developer;
  endUserEmail: string;
}

async function ok(res: Promise<{ status: number; text: string; body: Json }>, what: string): Promise<Json> {
  const done = await res;
  if (done.status >= 300) throw new Error(`${what} failed: ${done.status} ${done.text}`);
  return done.body;
}

/** seedInstance fills a fresh server with something of everything a restore must bring back. */
export async function seedInstance(server: TestServer): Promise<SeededInstance> {
  const alice = await signUpWithKey(server, users.alice);
  const bob = await signUpWithKey(server, users.bob);
  await createTable(server, alice, 'items');
  await seedItems(server, alice, 'items', 12);
  await ok(
    server.request('POST', '/api/tables', {
      headers: alice.tokenHeaders,
      json: {
        name: 'events',
        schema: { title: { type: 'text', required: true }, at: { type: 'date' }, owner: { type: 'text' } },
        access: { select: 'public', insert: 'authenticated', update: 'own', delete: 'own', ownerColumn: 'owner' },
      },
    }),
    'events table',
  );
  await ok(
    server.request('POST', '/api/table/events', {
      headers: alice.keyHeaders,
      json: { title: 'launch', at: '2025-05-01T10:00:00.123Z', owner: 'u1' },
    }),
    'event',
  );
  // History: an update and a delete, then a checkpoint.
  const items = await ok(server.request('GET', '/api/table/items?limit=3', { headers: alice.keyHeaders }), 'items');
  await ok(
    server.request('PATCH', `/api/table/items/${items[0].id}`, { headers: alice.keyHeaders, json: { qty: 999 } }),
    'update',
  );
  await ok(server.request('DELETE', `/api/table/items/${items[1].id}`, { headers: alice.keyHeaders }), 'delete');
  await createTable(server, bob, 'notes', { body: { type: 'text' }, pinned: { type: 'boolean' } });
  await ok(
    server.request('POST', '/api/table/notes', { headers: bob.keyHeaders, json: { body: 'hello', pinned: true } }),
    'note',
  );
  const developer = await startDeveloper(server, users.carol);
  const endUserEmail = 'end-user@example.com';
  await signUpEndUser(server, developer, endUserEmail);
  return { alice, bob, developer, endUserEmail };
}

/**
 * waitForBackup polls a backup until it is no longer IN_PROGRESS (nor being restored) and returns it. A restore
 * replaces the accounts and sessions: once the caller's session is gone (401), `signInAgain` gives new headers.
 */
export async function waitForBackup(
  server: TestServer,
  headers: Record<string, string>,
  id: string,
  signInAgain?: () => Promise<Record<string, string>>,
): Promise<Json> {
  for (let i = 0; i < 600; i++) {
    const res = await server.request('GET', `/api/backups/${id}`, { headers });
    if (res.status === 401 && signInAgain) {
      headers = await signInAgain();
      continue;
    }
    if (res.status === 200 && res.body.status !== 'IN_PROGRESS' && res.body.restore?.status !== 'IN_PROGRESS') {
      return res.body;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`backup ${id} did not finish`);
}

/** takeBackup starts a backup and waits for it to end. */
export async function takeBackup(server: TestServer, headers: Record<string, string>, body: object = {}) {
  const started = await ok(server.request('POST', '/api/backups', { headers, json: body }), 'backup');
  return waitForBackup(server, headers, started.id);
}

/** downloadArchive fetches a backup's archive. */
export async function downloadArchive(server: TestServer, headers: Record<string, string>, id: string) {
  const res = await fetch(`${server.url}/api/backups/${id}/download`, { headers });
  if (res.status !== 200) throw new Error(`download failed: ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** uploadArchive sends an archive to POST /api/backups/upload and returns the raw response. */
export async function uploadArchive(server: TestServer, headers: Record<string, string>, archive: Buffer) {
  const res = await fetch(`${server.url}/api/backups/upload`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/gzip' },
    body: new Uint8Array(archive),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** restoreAndWait restores a backup and waits for the restore to end (see waitForBackup for `signInAgain`). */
export async function restoreAndWait(
  server: TestServer,
  headers: Record<string, string>,
  id: string,
  signInAgain?: () => Promise<Record<string, string>>,
) {
  await ok(server.request('POST', `/api/backups/${id}/restore`, { headers }), 'restore');
  return waitForBackup(server, headers, id, signInAgain);
}

// The tables a picture leaves out: counters, logs and metrics the test's own requests (and the server's minute
// jobs) change, and the catalogue of backups.
const UNCOMPARED = new Set([
  'system_logs',
  'request_metrics',
  'request_metric_batches',
  'query_shapes',
  'database_health',
  'user_usage',
  'usage_batches',
  'rate_limits',
  'event_outbox',
  'basalt_migrations',
  'basalt_migrations_lock',
  'database_backups',
  'backup_settings',
  'backup_leases',
  'table_row_counts',
  'change_history_counts',
]);

const sortKey = (row: Record<string, unknown>) => JSON.stringify(Object.entries(row).sort());

/**
 * instancePicture reads every table a restore brings back: Basalt's own tables row by row (sorted), and each user
 * table's rows as API values; kept counts as sums per table. Equal pictures mean an equal instance.
 */
export async function instancePicture(db: Db): Promise<Record<string, unknown>> {
  const k = db.kysely;
  const picture: Record<string, unknown> = {};
  const tables = (await db.dialect.backup.tableNames(k)).filter(
    (t) => !UNCOMPARED.has(t) && !t.startsWith('system_logs_search') && !/^t_\d+$/.test(t),
  );
  for (const table of tables.sort()) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(k);
    picture[table] = rows
      .map((row) => Object.fromEntries(Object.entries(row).map(([c, v]) => [c, normal(v)])))
      .sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  }
  const definitions = await k.selectFrom('user_tables').select(['id', 'schema']).orderBy('id').execute();
  for (const definition of definitions) {
    const shape = { id: Number(definition.id), schema: JSON.parse(definition.schema) as TableSchema };
    const name = userTableName(shape.id);
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)} ORDER BY id`.execute(k);
    picture[name] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([column, raw]) => {
          const type = columnTypeIn(shape, column);
          return [column, type ? columnTypeOf(type).fromStorage(raw, db.dialect.name) : raw];
        }),
      ),
    );
  }
  const counts = await k
    .selectFrom('table_row_counts')
    .select(['table_id', (eb) => eb.fn.sum<number>('row_count').as('n')])
    .groupBy('table_id')
    .orderBy('table_id')
    .execute();
  picture.rowCounts = counts.map((c) => ({ table: Number(c.table_id), n: Number(c.n) }));
  const history = await k
    .selectFrom('change_history_counts')
    .select(['account_id', 'table_id', (eb) => eb.fn.sum<number>('change_count').as('n')])
    .groupBy(['account_id', 'table_id'])
    .orderBy('account_id')
    .orderBy('table_id')
    .execute();
  picture.historyCounts = history.map((c) => ({ account: c.account_id, table: Number(c.table_id), n: Number(c.n) }));
  return picture;
}

// Both engines hand back the same values for Basalt's own tables, but for bigints read as text by some paths.
function normal(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return value;
}

/**
 * restoreAndWatch starts a restore over HTTP and waits for its end by reading the catalogue row directly: a
 * restore replaces the accounts and sessions, so the caller's own session may be gone once it is done.
 */
export async function restoreAndWatch(server: TestServer, headers: Record<string, string>, id: string) {
  await ok(server.request('POST', `/api/backups/${id}/restore`, { headers }), 'restore');
  const db = server.app.basalt.db;
  for (let i = 0; i < 1200; i++) {
    const row = await db.kysely.selectFrom('database_backups').selectAll().where('id', '=', id).executeTakeFirst();
    if (row && row.restore_status !== 'IN_PROGRESS') return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the restore of ${id} did not finish`);
}
