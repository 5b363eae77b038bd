import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SystemDatabase } from '../../db/schema.js';
import { HISTOGRAM_SIZE, type MetricCounts } from './request-metrics.js';

// The SQL of the request metrics: batches added once (their ids kept), the rows read back summed by bucket or by
// route, and retention.

// The latency histogram's columns, one per bucket of LATENCY_BOUNDS_MS and one for the rest.
const H = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'h9', 'h10', 'h11', 'h12', 'h13'] as const;
type HColumn = (typeof H)[number];
if (H.length !== HISTOGRAM_SIZE) throw new Error('request_metrics has a column per histogram bucket');
// Rows per INSERT: 25 columns each stays well under both engines' limits on parameters.
const CHUNK = 400;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * liveRows keeps the rows of accounts that still exist (and of no account), locking those accounts' rows against a
 * delete until the batch commits (as a foreign key would): an account being deleted is either gone before the batch reads it, or waits for the batch and
 * then deletes its metrics with everything else (features/account), so no row outlives its account.
 */
async function liveRows(scope: Db, rows: MetricCounts[]): Promise<MetricCounts[]> {
  const ids = [...new Set(rows.map((r) => r.accountId).filter((id) => id !== ''))].sort();
  if (ids.length === 0) return rows;
  const lock = sql.raw(scope.dialect.userTables.keyShareLockSql);
  const { rows: found } = await sql<{ id: string }>`SELECT id FROM accounts WHERE id IN (${sql.join(ids)})
    ORDER BY id${lock}`.execute(scope.kysely);
  const live = new Set(found.map((r) => r.id));
  return rows.filter((r) => r.accountId === '' || live.has(r.accountId));
}

/**
 * addMetricsBatch adds a batch of rows once: its id is stored in the same transaction, so a batch retried after a
 * failure whose commit did happen is not added again. Returns false when it had been added before. Rows of an
 * account deleted meanwhile are left out (liveRows).
 */
export async function addMetricsBatch(db: Db, batchId: string, rows: MetricCounts[]): Promise<boolean> {
  const now = new Date().toISOString();
  return db.transaction(async (scope) => {
    const claimed = await scope.kysely
      .insertInto('request_metric_batches')
      .values({ id: batchId, created_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    // The same keys in the same order on every node, so that concurrent batches cannot deadlock.
    const sorted = (await liveRows(scope, rows))
      .map((r) => ({ r, key: `${r.bucket}\u0000${iso(r.at)}\u0000${r.accountId}\u0000${r.family}\u0000${r.route}` }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ r }) => r);
    for (let start = 0; start < sorted.length; start += CHUNK) {
      const values = sorted.slice(start, start + CHUNK).map((r) => {
        const row: Record<string, string | number> = {
          bucket: r.bucket,
          at: iso(r.at),
          account_id: r.accountId,
          family: r.family,
          route: r.route,
          requests: r.requests,
          errors_4xx: r.errors4xx,
          errors_5xx: r.errors5xx,
          bytes: r.bytes,
          total_ms: r.totalMs,
          max_ms: r.maxMs,
        };
        for (let i = 0; i < HISTOGRAM_SIZE; i++) row[H[i] as HColumn] = r.histogram[i] as number;
        return row as never;
      });
      await scope.kysely
        .insertInto('request_metrics')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['bucket', 'at', 'account_id', 'family', 'route']).doUpdateSet((eb) => {
            const add = (column: 'requests' | 'errors_4xx' | 'errors_5xx' | 'bytes' | 'total_ms' | HColumn) =>
              eb(`request_metrics.${column}`, '+', eb.ref(`excluded.${column}`));
            const set: Record<string, unknown> = {
              requests: add('requests'),
              errors_4xx: add('errors_4xx'),
              errors_5xx: add('errors_5xx'),
              bytes: add('bytes'),
              total_ms: add('total_ms'),
              max_ms: eb
                .case()
                .when('excluded.max_ms', '>', eb.ref('request_metrics.max_ms'))
                .then(eb.ref('excluded.max_ms'))
                .else(eb.ref('request_metrics.max_ms'))
                .end(),
            };
            for (const h of H) set[h] = add(h);
            return set as never;
          }),
        )
        .execute();
    }
    return true;
  });
}

/** MetricsFilter chooses the rows read: one bucket size and range, an account (or all), a family, a route. */
export interface MetricsFilter {
  bucket: '1m' | '1h';
  from: number;
  to: number;
  /** null: every account's (the instance). */
  accountId: string | null;
  family?: string | undefined;
  route?: string | undefined;
}

/** SummedRow is rows summed: by bucket start, or by family and route. */
export interface SummedRow {
  at?: string;
  family?: string;
  route?: string;
  requests: number;
  errors4xx: number;
  errors5xx: number;
  bytes: number;
  totalMs: number;
  maxMs: number;
  histogram: number[];
}

type Eb = ExpressionBuilder<SystemDatabase, 'request_metrics'>;
const sums = (eb: Eb) => [
  eb.fn.sum<number | string>('requests').as('requests'),
  eb.fn.sum<number | string>('errors_4xx').as('errors_4xx'),
  eb.fn.sum<number | string>('errors_5xx').as('errors_5xx'),
  eb.fn.sum<number | string>('bytes').as('bytes'),
  eb.fn.sum<number | string>('total_ms').as('total_ms'),
  eb.fn.max<number | string>('max_ms').as('max_ms'),
  ...H.map((h) => eb.fn.sum<number | string>(h).as(h)),
];

function summed(row: Record<string, unknown>): SummedRow {
  return {
    ...(row.at !== undefined ? { at: String(row.at) } : {}),
    ...(row.family !== undefined ? { family: String(row.family), route: String(row.route) } : {}),
    requests: Number(row.requests ?? 0),
    errors4xx: Number(row.errors_4xx ?? 0),
    errors5xx: Number(row.errors_5xx ?? 0),
    bytes: Number(row.bytes ?? 0),
    totalMs: Number(row.total_ms ?? 0),
    maxMs: Number(row.max_ms ?? 0),
    histogram: H.map((h) => Number(row[h] ?? 0)),
  };
}

function filtered(db: Db, filter: MetricsFilter) {
  let query = db.kysely
    .selectFrom('request_metrics')
    .where('bucket', '=', filter.bucket)
    .where('at', '>=', iso(filter.from))
    .where('at', '<', iso(filter.to));
  if (filter.accountId !== null) query = query.where('account_id', '=', filter.accountId);
  if (filter.family !== undefined) query = query.where('family', '=', filter.family);
  if (filter.route !== undefined) query = query.where('route', '=', filter.route);
  return query;
}

/** sumByBucket sums the rows of each bucket start, oldest first (buckets without rows are absent). */
export async function sumByBucket(db: Db, filter: MetricsFilter): Promise<SummedRow[]> {
  const rows = await filtered(db, filter)
    .select((eb) => [eb.ref('at').as('at'), ...sums(eb)])
    .groupBy('at')
    .orderBy('at')
    .execute();
  return rows.map((row) => summed(row as Record<string, unknown>));
}

/** sumByRoute sums the rows of each family and route over the range. */
export async function sumByRoute(db: Db, filter: MetricsFilter): Promise<SummedRow[]> {
  const rows = await filtered(db, filter)
    .select((eb) => [eb.ref('family').as('family'), eb.ref('route').as('route'), ...sums(eb)])
    .groupBy(['family', 'route'])
    .execute();
  return rows.map((row) => summed(row as Record<string, unknown>));
}

/** deleteMetricsBefore forgets a bucket size's rows older than `cutoff`, and batch ids older than a day. */
export async function deleteMetricsBefore(db: Db, bucket: '1m' | '1h', cutoff: number): Promise<number> {
  const deleted = await db.kysely
    .deleteFrom('request_metrics')
    .where('bucket', '=', bucket)
    .where('at', '<', iso(cutoff))
    .executeTakeFirst();
  await db.kysely
    .deleteFrom('request_metric_batches')
    .where('created_at', '<', iso(Date.now() - 24 * 3600_000))
    .execute();
  return Number(deleted.numDeletedRows);
}

/** deleteAccountMetrics forgets a deleted account's metrics. */
export async function deleteAccountMetrics(db: Db, accountId: string): Promise<void> {
  await db.kysely.deleteFrom('request_metrics').where('account_id', '=', accountId).execute();
}
