// Bus nodes on one PostgreSQL database for the bus's tests: each node is a bus over its own transport, with what
// it heard recorded.
import { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { createEventBus, type EventBus } from '../db/bus/event-bus.js';
import { createPostgresTransport, type PostgresTransport } from '../db/bus/postgres-notify.js';
import { postgresDialect } from '../db/dialect/postgres.js';
import { systemMigrations } from '../db/migrations/index.js';
import './bus-test-topics.js';

/** TestBusNode is one node: its bus and transport, and what it heard. */
export interface TestBusNode {
  bus: EventBus;
  transport: PostgresTransport;
  /** pings are the `bus-test.ping` numbers heard, with where they came from. */
  pings: Array<{ n: number; local: boolean }>;
  texts: string[];
  /** resets are the bus's `reliable` at each reset it heard. */
  resets: boolean[];
  errors: unknown[];
}

/** startBusNode starts a node on the database; it is reliable once it hears the others. */
export function startBusNode(databaseUrl: string, options: { channel?: string } = {}): TestBusNode {
  const errors: unknown[] = [];
  const transport = createPostgresTransport({ databaseUrl, channel: options.channel, onError: (e) => errors.push(e) });
  const bus = createEventBus({ transport, onError: (e) => errors.push(e) });
  const node: TestBusNode = { bus, transport, pings: [], texts: [], resets: [], errors };
  bus.subscribe('bus-test.ping', ({ n }, origin) => node.pings.push({ n, local: origin.local }));
  bus.subscribe('bus-test.text', ({ text }) => node.texts.push(text));
  bus.onReset(() => node.resets.push(bus.reliable));
  return node;
}

/** waitFor polls until check passes (returns anything but false), or throws what it last threw once the time is up. */
export async function waitFor(check: () => unknown, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await check()) !== false) return;
      if (Date.now() > deadline) throw new Error(`waitFor: still false after ${timeoutMs} ms`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** migrateBusDatabase runs Basalt's system migrations (event_outbox among them) on a PostgreSQL database. */
export async function migrateBusDatabase(databaseUrl: string): Promise<void> {
  const kysely = new Kysely({ dialect: postgresDialect.createKyselyDialect({ databaseUrl, dataDir: '' }) });
  try {
    const migrator = new Migrator({
      db: kysely,
      provider: { getMigrations: async () => systemMigrations(postgresDialect) },
      migrationTableName: 'basalt_migrations',
      migrationLockTableName: 'basalt_migrations_lock',
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  } finally {
    await kysely.destroy();
  }
}

/** queryOnce runs one statement on a connection of its own. */
export async function queryOnce<R extends pg.QueryResultRow>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}
