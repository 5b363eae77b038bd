import { randomUUID } from 'node:crypto';
import type { Plan, Usage } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import { findBillingRow } from './billing.store.js';
import './billing-events.js';
import { usageOfRow } from './usage.service.js';
import { addUsageBatch, type DayCount, deleteUsageBatchesBefore } from './usage.store.js';

// API calls are counted off the requests' path: admit() adds one to an in-memory counter per account and day, and
// the counters are added to `user_usage` every FLUSH_EVERY_MS in one transaction per batch. Each batch has an id,
// stored with it: a batch whose commit succeeded but whose answer was lost is retried under the same id and not
// added twice, so the totals are exact on any number of nodes sharing one database.
//
// Quotas are checked only where the operator asked for them (`enforce`, config.ts quotasEnforced), and never for an
// administrator of the instance; every call is counted either way, so usage is always shown.
//
// Quotas are checked against each account's usage as last read from the database (at most REFRESH_MS old), plus
// what this node counted since. Several nodes may together let through up to REFRESH_MS of traffic beyond a cap;
// each refresh catches up. A refresh is also when the 80 % and 100 % warnings are given (onUsage).

// Storage is measured less often than the rest: it reads the account's tables' pages and history.
const METER_DEFAULTS = { flushEveryMs: 1000, refreshMs: 5000, storageRefreshMs: 60_000 };
// Batch ids are kept this long: a batch is never retried later than that.
const BATCH_ID_KEEP_MS = 24 * 3600_000;

/** QuotaMetric is a metric whose cap refuses requests. */
export type QuotaMetric = 'apiCalls' | 'storageMb' | 'computeMinutes';

type MaybePromise<T> = T | Promise<T>;

/** UsageMeter counts API calls and answers whether an account is over a cap. */
export interface UsageMeter {
  /**
   * admit decides on one API call of an account, and counts it when it is let through: null, or the error to
   * answer (its calls used up, or its storage for a write). Synchronous once the account's usage is known.
   */
  admit(accountId: string, write: boolean): MaybePromise<ApiError | null>;
  /** refusal is the error to answer when the account has reached its cap of `metric`, else null. */
  refusal(accountId: string, metric: QuotaMetric): MaybePromise<ApiError | null>;
  /** flush stores every count so far (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** UsageMeterOptions set the plans, the rhythm, and who hears each fresh reading of an account's usage. */
export interface UsageMeterOptions {
  plans: Plan[];
  /** enforce: the plans' caps refuse requests (of accounts that do not administer the instance); else only counted. */
  enforce: boolean;
  flushEveryMs?: number;
  refreshMs?: number;
  storageRefreshMs?: number;
  onUsage?: (accountId: string, usage: Usage) => void;
  onError?: (error: unknown) => void;
}

interface Known {
  usage: Usage;
  /** Whether the plan's caps hold this account back (quotas enforced, and not an administrator). */
  capped: boolean;
  loadedAt: number;
  storageAt: number;
  resetAt: number;
  /** Calls this node stored since `usage` was read (they are in the database, not in `usage`). */
  storedSince: number;
  /** The period's first day: calls of earlier days are not this period's. */
  periodStartDay: string;
  loading: Promise<void> | null;
}

const retryAfterOf = (entry: Known) => String(Math.max(1, Math.ceil((entry.resetAt - Date.now()) / 1000)));

/** createUsageMeter starts a meter over a database; close it before the database. */
export function createUsageMeter(db: Db, options: UsageMeterOptions): UsageMeter {
  const { flushEveryMs, refreshMs, storageRefreshMs } = { ...METER_DEFAULTS, ...options };
  // Today's counts by account; counts of a day that ended wait in `carried` for the next batch.
  let pending = new Map<string, DayCount>();
  let carried: DayCount[] = [];
  // Each account's calls of today not stored yet (today's batch in flight included): what the quota adds to the
  // stored usage. A new day starts it afresh; the older day's calls are stored with the next batch.
  const unstored = new Map<string, { day: string; calls: number }>();
  let retry: { id: string; counts: DayCount[] } | null = null;
  const known = new Map<string, Known>();
  // A plan changed on any node: the account's caps are read afresh at its next call (a lost event: REFRESH_MS).
  db.bus.subscribe('plan.changed', ({ accountId }) => known.delete(accountId));
  db.bus.subscribe('account.deleted', ({ accountId }) => known.delete(accountId));
  // So did whether it administers the instance, and so whether any cap holds it.
  db.bus.subscribe('account.changed', ({ accountId }) => known.delete(accountId));
  // Readings under way for accounts not known yet: the requests that arrive meanwhile wait for the same one.
  const firstLoads = new Map<string, Promise<Known | null>>();
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  let day = '';
  let nextDayAt = 0;
  let lastPrune = 0;

  function today(now: number): string {
    if (now >= nextDayAt) {
      const date = new Date(now);
      day = date.toISOString().slice(0, 10);
      nextDayAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
      if (pending.size > 0) {
        carried = carried.concat([...pending.values()]);
        pending = new Map();
      }
    }
    return day;
  }

  async function store(batch: { id: string; counts: DayCount[] }): Promise<void> {
    try {
      await addUsageBatch(db, batch.id, batch.counts);
      retry = null;
    } catch (error) {
      retry = batch;
      options.onError?.(error);
      return;
    }
    for (const c of batch.counts) {
      const waiting = unstored.get(c.accountId);
      if (waiting && waiting.day === c.day) {
        waiting.calls -= c.apiCalls;
        if (waiting.calls <= 0) unstored.delete(c.accountId);
      }
      const entry = known.get(c.accountId);
      if (entry && c.day >= entry.periodStartDay) entry.storedSince += c.apiCalls;
    }
  }

  async function drain(): Promise<void> {
    if (retry) await store(retry);
    if (retry || (pending.size === 0 && carried.length === 0)) return;
    const counts = carried.concat([...pending.values()]);
    pending = new Map();
    carried = [];
    await store({ id: randomUUID(), counts });
    const now = Date.now();
    if (now - lastPrune > 3600_000) {
      lastPrune = now;
      await deleteUsageBatchesBefore(db, new Date(now - BATCH_ID_KEEP_MS).toISOString()).catch(options.onError);
    }
  }

  function flush(): Promise<void> {
    chain = chain.then(drain).catch((error: unknown) => options.onError?.(error));
    return chain;
  }

  const timer = setInterval(() => {
    if (pending.size > 0 || carried.length > 0 || retry) void flush();
  }, flushEveryMs);
  timer.unref();

  async function load(accountId: string): Promise<void> {
    const row = await findBillingRow(db, accountId);
    if (!row) {
      known.delete(accountId);
      return;
    }
    const before = known.get(accountId);
    const fresh = before && Date.now() - before.storageAt < storageRefreshMs ? before : null;
    const usage = await usageOfRow(db, options.plans, row, fresh ? { storageMb: fresh.usage.storageMb } : {});
    const capped = options.enforce && row.is_admin !== 1;
    known.set(accountId, {
      usage,
      capped,
      loadedAt: Date.now(),
      storageAt: fresh ? fresh.storageAt : Date.now(),
      resetAt: Date.parse(usage.periodEnd),
      storedSince: 0,
      periodStartDay: usage.periodStart.slice(0, 10),
      loading: null,
    });
    // Warnings of a cap that holds nobody back would only mislead.
    if (!capped) return;
    // What this node counted but has not stored yet belongs to the reading too.
    const pendingCalls = unstoredIn(accountId, usage.periodStart.slice(0, 10));
    options.onUsage?.(accountId, pendingCalls ? { ...usage, apiCalls: usage.apiCalls + pendingCalls } : usage);
  }

  function refreshed(accountId: string): Known | null | Promise<Known | null> {
    const entry = known.get(accountId);
    const now = Date.now();
    // A new period starts from zero: the old reading is of no use once it has begun.
    if (!entry || now >= entry.resetAt) {
      const waiting = firstLoads.get(accountId);
      if (waiting) return waiting;
      const loading = load(accountId)
        .then(
          () => known.get(accountId) ?? null,
          (error: unknown) => {
            options.onError?.(error);
            return null;
          },
        )
        .finally(() => firstLoads.delete(accountId));
      firstLoads.set(accountId, loading);
      return loading;
    }
    if (now - entry.loadedAt >= refreshMs && !entry.loading) {
      entry.loading = load(accountId).catch((error: unknown) => {
        entry.loading = null;
        options.onError?.(error);
      });
    }
    return entry;
  }

  function unstoredIn(accountId: string, periodStartDay: string): number {
    const waiting = unstored.get(accountId);
    return waiting && waiting.day >= periodStartDay ? waiting.calls : 0;
  }

  function refusalOf(accountId: string, entry: Known | null, metric: QuotaMetric): ApiError | null {
    if (!entry?.capped) return null;
    const { usage } = entry;
    if (metric === 'apiCalls') {
      const limit = usage.maxApiCalls;
      if (limit === null) return null;
      const used = usage.apiCalls + entry.storedSince + unstoredIn(accountId, entry.periodStartDay);
      if (used < limit) return null;
      const resetAt = new Date(entry.resetAt).toISOString();
      return new ApiError(
        429,
        'quota_exceeded',
        `The plan's limit of ${limit} API calls for this billing period has been reached; it resets at ${resetAt}`,
        {
          details: { metric, limit, used, resetAt },
          hint: `Upgrade the plan, or wait until ${resetAt}`,
          headers: { 'Retry-After': retryAfterOf(entry) },
        },
      );
    }
    if (metric === 'storageMb') {
      const limit = usage.maxStorageMb;
      if (limit === null || usage.storageMb < limit) return null;
      return new ApiError(
        413,
        'storage_quota_exceeded',
        `The plan's storage limit of ${limit} MB has been reached; delete data or upgrade the plan to write more`,
        { details: { metric, limit, used: usage.storageMb } },
      );
    }
    const limit = usage.maxComputeMinutes;
    if (limit === null || usage.computeMinutes < limit) return null;
    const resetAt = new Date(entry.resetAt).toISOString();
    return new ApiError(
      429,
      'compute_quota_exceeded',
      `The plan's limit of ${limit} compute minutes for this billing period has been reached; it resets at ${resetAt}`,
      {
        details: { metric, limit, used: usage.computeMinutes, resetAt },
        headers: { 'Retry-After': retryAfterOf(entry) },
      },
    );
  }

  function countCall(accountId: string, now: number): void {
    if (closed) return;
    const d = today(now);
    const counted = pending.get(accountId);
    if (counted) counted.apiCalls++;
    else pending.set(accountId, { accountId, day: d, apiCalls: 1 });
    const waiting = unstored.get(accountId);
    if (waiting && waiting.day === d) waiting.calls++;
    else unstored.set(accountId, { day: d, calls: 1 });
  }

  function decide(accountId: string, entry: Known | null, write: boolean, now: number): ApiError | null {
    const refused =
      refusalOf(accountId, entry, 'apiCalls') ?? (write ? refusalOf(accountId, entry, 'storageMb') : null);
    if (!refused) countCall(accountId, now);
    return refused;
  }

  return {
    admit(accountId, write) {
      const now = Date.now();
      const entry = refreshed(accountId);
      if (entry instanceof Promise) return entry.then((e) => decide(accountId, e, write, Date.now()));
      return decide(accountId, entry, write, now);
    },
    refusal(accountId, metric) {
      const entry = refreshed(accountId);
      if (entry instanceof Promise) return entry.then((e) => refusalOf(accountId, e, metric));
      return refusalOf(accountId, entry, metric);
    },
    flush,
    async close() {
      if (closed) return chain;
      closed = true;
      clearInterval(timer);
      await flush();
    },
  };
}
