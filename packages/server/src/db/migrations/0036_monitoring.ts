import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

const HISTOGRAM_COLUMNS = 14;

/**
 * monitoringMigration adds the request metrics (features/monitoring): one row per bucket (a minute or an hour),
 * account, API family and route, added to by every node's batches (their ids are kept, so a retried batch is not
 * added twice), and the database's health, one snapshot per minute.
 */
export function monitoringMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      let metrics = db.schema
        .createTable('request_metrics')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('family', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('errors_4xx', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('errors_5xx', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('total_ms', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('max_ms', 'double precision', (c) => c.notNull().defaultTo(0));
      for (let i = 0; i < HISTOGRAM_COLUMNS; i++) {
        metrics = metrics.addColumn(`h${i}`, 'bigint', (c) => c.notNull().defaultTo(0));
      }
      await metrics
        .addPrimaryKeyConstraint('request_metrics_pk', ['bucket', 'at', 'account_id', 'family', 'route'])
        .execute();
      await db.schema
        .createIndex('request_metrics_account_idx')
        .on('request_metrics')
        .columns(['account_id', 'bucket', 'at'])
        .execute();

      await db.schema
        .createTable('request_metric_batches')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('database_health')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('at', 'text', (c) => c.notNull().unique())
        .addColumn('node', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('latency_ms', 'double precision')
        .addColumn('database_bytes', 'bigint')
        .addColumn('disk_free_bytes', 'bigint')
        .addColumn('disk_total_bytes', 'bigint')
        .addColumn('cpu_percent', 'double precision', (c) => c.notNull())
        .addColumn('rss_bytes', 'bigint', (c) => c.notNull())
        .addColumn('heap_used_bytes', 'bigint', (c) => c.notNull())
        .addColumn('active_connections', 'integer', (c) => c.notNull())
        .addColumn('max_connections', 'integer', (c) => c.notNull())
        .execute();
    },
  };
}
