import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * eventOutboxMigration creates event_outbox, where the bus between nodes leaves events too large for one
 * PostgreSQL notification (db/bus/postgres-notify.ts): the notification names the row, each receiver reads it,
 * and the sender deletes rows after a few minutes (by created_at, hence its index). SQLite has one server
 * process per file and no transport, so the table stays empty there.
 */
export function eventOutboxMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('event_outbox')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('event_outbox_created_idx').on('event_outbox').column('created_at').execute();
    },
  };
}
