import type { Kysely, Selectable } from 'kysely';
import type { FunctionInvocationsTable, SystemDatabase } from '../../db/schema.js';

// The SQL of invocation logs and usage counters (`function_invocations`, `function_usage`). Both are written in
// batches by the invocation recorder (invocation-recorder.ts), never on a request's path.

type Db = Kysely<SystemDatabase>;

/** InvocationRow is one stored invocation. */
export type InvocationRow = Selectable<FunctionInvocationsTable>;

/** NewInvocationRow is what recording an invocation stores. */
export type NewInvocationRow = Omit<InvocationRow, 'id'>;

/** insertInvocations stores a batch of invocations. */
export async function insertInvocations(db: Db, rows: NewInvocationRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('function_invocations').values(rows).execute();
}

/** UsageIncrement adds to one function's counters of one hour. */
export interface UsageIncrement {
  functionId: number;
  accountId: string;
  hour: string;
  invocations: number;
  errors: number;
  cpuMs: number;
  durationMs: number;
}

/** addUsage adds a batch of increments to the hourly counters (one row per function and hour). */
export async function addUsage(db: Db, increments: UsageIncrement[]): Promise<void> {
  if (increments.length === 0) return;
  await db
    .insertInto('function_usage')
    .values(
      increments.map((u) => ({
        function_id: u.functionId,
        hour: u.hour,
        account_id: u.accountId,
        invocations: u.invocations,
        errors: u.errors,
        cpu_ms: Math.round(u.cpuMs),
        duration_ms: Math.round(u.durationMs),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['function_id', 'hour']).doUpdateSet((eb) => ({
        invocations: eb('function_usage.invocations', '+', eb.ref('excluded.invocations')),
        errors: eb('function_usage.errors', '+', eb.ref('excluded.errors')),
        cpu_ms: eb('function_usage.cpu_ms', '+', eb.ref('excluded.cpu_ms')),
        duration_ms: eb('function_usage.duration_ms', '+', eb.ref('excluded.duration_ms')),
      })),
    )
    .execute();
}

/** listInvocationsOf lists a function's newest invocations, newest first. */
export function listInvocationsOf(db: Db, functionId: number, limit: number): Promise<InvocationRow[]> {
  return db
    .selectFrom('function_invocations')
    .selectAll()
    .where('function_id', '=', functionId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** deleteInvocationsOf deletes a function's invocation log. */
export async function deleteInvocationsOf(db: Db, functionId: number): Promise<void> {
  await db.deleteFrom('function_invocations').where('function_id', '=', functionId).execute();
}

/** deleteInvocationsBefore deletes up to `limit` invocations older than `cutoff`; returns how many. */
export async function deleteInvocationsBefore(db: Db, cutoff: string, limit: number): Promise<number> {
  const old = db.selectFrom('function_invocations').select('id').where('created_at', '<', cutoff).limit(limit);
  const result = await db.deleteFrom('function_invocations').where('id', 'in', old).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** HourCount is one hour of a function's counters. */
export interface HourCount {
  hour: string;
  invocations: number;
  errors: number;
}

/** listUsageHours reads a function's counters from `since` (an hour's start), oldest first. */
export async function listUsageHours(db: Db, functionId: number, since: string): Promise<HourCount[]> {
  const rows = await db
    .selectFrom('function_usage')
    .select(['hour', 'invocations', 'errors'])
    .where('function_id', '=', functionId)
    .where('hour', '>=', since)
    .orderBy('hour')
    .execute();
  return rows.map((r) => ({ hour: r.hour, invocations: Number(r.invocations), errors: Number(r.errors) }));
}

/** AccountUsage is what billing reads: an account's invocations and compute over a period. */
export interface AccountUsage {
  invocations: number;
  errors: number;
  cpuMs: number;
  durationMs: number;
}

/** sumAccountUsage adds up an account's counters of the hours from `since` (inclusive) to `until` (exclusive). */
export async function sumAccountUsage(db: Db, accountId: string, since: string, until: string): Promise<AccountUsage> {
  const row = await db
    .selectFrom('function_usage')
    .select((eb) => [
      eb.fn.sum<number | string>('invocations').as('invocations'),
      eb.fn.sum<number | string>('errors').as('errors'),
      eb.fn.sum<number | string>('cpu_ms').as('cpu_ms'),
      eb.fn.sum<number | string>('duration_ms').as('duration_ms'),
    ])
    .where('account_id', '=', accountId)
    .where('hour', '>=', since)
    .where('hour', '<', until)
    .executeTakeFirst();
  return {
    invocations: Number(row?.invocations ?? 0),
    errors: Number(row?.errors ?? 0),
    cpuMs: Number(row?.cpu_ms ?? 0),
    durationMs: Number(row?.duration_ms ?? 0),
  };
}
