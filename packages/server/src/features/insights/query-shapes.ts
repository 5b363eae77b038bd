import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { every, type Job } from '../../lib/jobs/job.js';
import { takeReadShapes } from '../records/read-shapes.js';

// The record APIs' read shapes (features/records/read-shapes.ts), taken from memory each minute and added to
// `query_shapes` in one statement per batch: per table, kind, column and day, added to by every node, so the
// figures are exact across nodes. Kept QUERY_SHAPES_DAYS days; the insights job reads them.

/** QUERY_SHAPES_RHYTHM is how often a node writes what its reads noted. */
export const QUERY_SHAPES_RHYTHM = { firstAfterMs: 60_000, everyMs: 60_000 };
/** QUERY_SHAPES_DAYS is how long the daily figures are kept (and what the insights look at). */
export const QUERY_SHAPES_DAYS = 7;
// Rows per INSERT: 7 values each stays far below SQLite's and PostgreSQL's bound-value limits.
const BATCH = 500;

interface ShapeRow {
  table_id: number;
  kind: string;
  column_name: string;
  day: string;
  account_id: string;
  calls: number;
  total_ms: number;
}

/** flushQueryShapes adds what this node's reads noted since the last flush; it answers how many rows it wrote. */
export async function flushQueryShapes(db: Db, now = new Date()): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  const rows: ShapeRow[] = [];
  for (const [tableId, reads] of takeReadShapes(db)) {
    const row = (kind: string, column: string, calls: number, totalMs: number) =>
      rows.push({
        table_id: tableId,
        kind,
        column_name: column,
        day,
        account_id: reads.accountId,
        calls,
        total_ms: totalMs,
      });
    for (const [column, t] of reads.filters) row('filter', column, t.calls, t.totalMs);
    for (const [column, t] of reads.orders) row('order', column, t.calls, t.totalMs);
    if (reads.counts.calls > 0) row('count', '', reads.counts.calls, reads.counts.totalMs);
  }
  for (let i = 0; i < rows.length; i += BATCH) {
    await db.kysely
      .insertInto('query_shapes')
      .values(rows.slice(i, i + BATCH))
      .onConflict((oc) =>
        oc.columns(['table_id', 'kind', 'column_name', 'day']).doUpdateSet((eb) => ({
          calls: eb('query_shapes.calls', '+', eb.ref('excluded.calls')),
          total_ms: eb('query_shapes.total_ms', '+', eb.ref('excluded.total_ms')),
        })),
      )
      .execute();
  }
  return rows.length;
}

/** queryShapesJob flushes each minute, and once more as the server stops so nothing noted is lost. */
export function queryShapesJob(db: Db, onError: (error: unknown) => void): Job {
  const flushing = every('query shapes', QUERY_SHAPES_RHYTHM, () => flushQueryShapes(db), onError);
  return {
    name: 'query shapes',
    start() {
      const stop = flushing.start();
      return async () => {
        await stop();
        await flushQueryShapes(db).catch(onError);
      };
    },
  };
}

/** ShapeFigures are one table's column's (or count's) reads over the kept days. */
export interface ShapeFigures {
  accountId: string;
  tableId: number;
  kind: 'filter' | 'order' | 'count';
  column: string;
  calls: number;
  avgMs: number;
}

/** readShapeFigures sums the kept days per table, kind and column, dropping what is too old or names no table. */
export async function readShapeFigures(db: Db, now = new Date()): Promise<ShapeFigures[]> {
  const since = new Date(now.getTime() - QUERY_SHAPES_DAYS * 86_400_000).toISOString().slice(0, 10);
  await db.kysely.deleteFrom('query_shapes').where('day', '<', since).execute();
  await db.kysely
    .deleteFrom('query_shapes')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('user_tables').select('id').whereRef('user_tables.id', '=', 'query_shapes.table_id'))),
    )
    .execute();
  const rows = await db.kysely
    .selectFrom('query_shapes')
    .select([
      'account_id',
      'table_id',
      'kind',
      'column_name',
      sql<number | string>`sum(calls)`.as('calls'),
      sql<number | string>`sum(total_ms)`.as('total_ms'),
    ])
    .groupBy(['account_id', 'table_id', 'kind', 'column_name'])
    .execute();
  return rows.map((r) => {
    const calls = Number(r.calls);
    return {
      accountId: r.account_id,
      tableId: Number(r.table_id),
      kind: r.kind as ShapeFigures['kind'],
      column: r.column_name,
      calls,
      avgMs: calls > 0 ? Number(r.total_ms) / calls : 0,
    };
  });
}
