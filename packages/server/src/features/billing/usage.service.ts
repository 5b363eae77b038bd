import type { Plan, Usage, UsageDay, UsageMetric } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { ApiError, notFound } from '../../http/errors.js';
import { type BillingRow, findBillingRow, lockBillingRow } from './billing.store.js';
import { dayOf, effectivePlanId, periodOf, planById } from './billing-plans.js';
import {
  countConnections,
  listApiCallDays,
  listComputeHours,
  listStorageDays,
  recordStorageDay,
  storageBytes,
  sumApiCalls,
  sumComputeMs,
} from './usage.store.js';

// An account's usage in its current period, against its plan's caps. API calls are counted per day by the meter
// (usage-meter.ts), so a period's total is the sum of its days and a new period starts at zero by itself. Compute
// is the functions' CPU time; storage is measured, and each measurement is kept as its day's when it is the day's
// highest, so the days show storage over the period; connections are counted as registered.

const MB = 1024 * 1024;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** measureStorage measures an account's storage in bytes now and keeps it for today's history. */
export async function measureStorage(db: Db, accountId: string, now = new Date()): Promise<number> {
  const bytes = await storageBytes(db, accountId);
  await recordStorageDay(db, accountId, dayOf(now), bytes);
  return bytes;
}

/**
 * usageOfRow measures an account's usage. Storage is the costly measure (the tables' pages, the history's
 * rows): `storageMb`, when given, is a recent measure to use instead.
 */
export async function usageOfRow(
  db: Db,
  plans: Plan[],
  row: BillingRow,
  options: { now?: Date; storageMb?: number } = {},
): Promise<Usage> {
  const now = options.now ?? new Date();
  const period = periodOf(row, now);
  const plan = planById(plans, effectivePlanId(row));
  const [apiCalls, computeMs, connections, bytes] = await Promise.all([
    sumApiCalls(db, row.id, dayOf(period.start)),
    sumComputeMs(db, row.id, period.start.toISOString()),
    countConnections(db, row.id),
    options.storageMb === undefined ? measureStorage(db, row.id, now) : options.storageMb * MB,
  ]);
  return {
    apiCalls,
    maxApiCalls: plan.limits.apiCalls,
    storageMb: round2(bytes / MB),
    maxStorageMb: plan.limits.storageMb,
    computeMinutes: round2(computeMs / 60_000),
    maxComputeMinutes: plan.limits.computeMinutes,
    databaseConnections: connections,
    maxDatabaseConnections: plan.limits.databaseConnections,
    plan: plan.id,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
  };
}

/**
 * apiCallsThisPeriod is an account's API calls in its current period: the figure Billing's usage shows, which the
 * Dashboard shows too (one source, so the two never disagree). 0 for an unknown account.
 */
export async function apiCallsThisPeriod(db: Db, accountId: string, now = new Date()): Promise<number> {
  const row = await findBillingRow(db, accountId);
  return row ? sumApiCalls(db, row.id, dayOf(periodOf(row, now).start)) : 0;
}

/** getUsage is an account's usage in its current period (GET /api/billing/usage). */
export async function getUsage(db: Db, plans: Plan[], accountId: string): Promise<Usage> {
  const row = await findBillingRow(db, accountId);
  if (!row) throw notFound('Account not found', 'account_not_found');
  return usageOfRow(db, plans, row);
}

/**
 * getUsageHistory is an account's API calls, compute minutes and storage per day of its current period, oldest
 * first. A day's storage is its highest measurement, or the last one before it (null before the first).
 */
export async function getUsageHistory(db: Db, accountId: string, now = new Date()): Promise<UsageDay[]> {
  const row = await findBillingRow(db, accountId);
  if (!row) throw notFound('Account not found', 'account_not_found');
  const period = periodOf(row, now);
  const sinceDay = dayOf(period.start);
  const [calls, hours, storage] = await Promise.all([
    listApiCallDays(db, accountId, sinceDay),
    listComputeHours(db, accountId, period.start.toISOString()),
    listStorageDays(db, accountId, sinceDay),
  ]);
  const days = new Map<string, UsageDay>();
  // Every day of the period so far, so that a chart shows quiet days as zero.
  for (let t = period.start.getTime(); t <= now.getTime(); t += 86_400_000) {
    days.set(dayOf(t), { day: dayOf(t), apiCalls: 0, computeMinutes: 0, storageMb: null });
  }
  for (const c of calls) {
    const day = days.get(c.day);
    if (day) day.apiCalls = c.apiCalls;
  }
  for (const h of hours) {
    const day = days.get(h.hour.slice(0, 10));
    if (day) day.computeMinutes = round2(day.computeMinutes + h.cpuMs / 60_000);
  }
  const measured = new Map(storage.map((s) => [s.day, round2(s.bytes / MB)]));
  let carried = storage[0] && storage[0].day < sinceDay ? round2(storage[0].bytes / MB) : null;
  for (const day of days.values()) {
    carried = measured.get(day.day) ?? carried;
    day.storageMb = carried;
  }
  return [...days.values()];
}

/**
 * requireConnectionRoom refuses (403 connection_quota_exceeded) one more database connection for an account that
 * has registered as many as its plan allows; an administrator of the instance is never refused. Connections count against the account that registered them, as in
 * its usage. Call it in the transaction that inserts the connection: the account's row stays locked until then.
 */
export async function requireConnectionRoom(scope: Db, plans: Plan[], accountId: string): Promise<void> {
  await lockBillingRow(scope, accountId);
  const row = await findBillingRow(scope, accountId);
  if (!row) throw notFound('Account not found', 'account_not_found');
  if (row.is_admin === 1) return;
  const plan = planById(plans, effectivePlanId(row));
  const limit = plan.limits.databaseConnections;
  if (limit === null) return;
  const used = await countConnections(scope, accountId);
  if (used < limit) return;
  throw new ApiError(
    403,
    'connection_quota_exceeded',
    `Your ${plan.name} plan allows ${limit} database connection${limit === 1 ? '' : 's'} and you have registered ${used}; upgrade your plan or remove a connection to add another`,
    { details: { metric: 'databaseConnections', limit, used } },
  );
}

/** usedOf reads one metric of a usage. */
export function usedOf(usage: Usage, metric: UsageMetric): number {
  return usage[metric];
}

/** limitOf reads the cap of one metric of a usage (null: unlimited). */
export function limitOf(usage: Usage, metric: UsageMetric): number | null {
  switch (metric) {
    case 'apiCalls':
      return usage.maxApiCalls;
    case 'storageMb':
      return usage.maxStorageMb;
    case 'computeMinutes':
      return usage.maxComputeMinutes;
    case 'databaseConnections':
      return usage.maxDatabaseConnections;
  }
}
