import type { BillingAccount, BillingAccountsPage, Plan, Subscription } from '@basalt/shared';
import { assignPlanInputSchema, userListQuerySchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import {
  type BillingRow,
  countBillingRows,
  findBillingRow,
  listBillingRowsPage,
  updateSubscriptionFields,
} from './billing.store.js';
import { dayOf, effectivePlanId } from './billing-plans.js';
import { measureStorage, usageOfRow } from './usage.service.js';
import { latestStorageDays } from './usage.store.js';

// The instance administrator's side of billing: every account's plan and usage, and plans assigned by hand (the
// way to sell plans without Stripe, or to grant one).

// A page's accounts are measured a few at a time: enough to overlap their queries, few enough to leave the
// database's pool to the requests.
const MEASURED_AT_ONCE = 8;
const MB = 1024 * 1024;

function requireAdmin(actor: Actor): void {
  if (!actor.admin) {
    throw forbidden('Only instance administrators can see or change other accounts’ plans', 'not_admin');
  }
}

/** mapAtMost maps `items` through `fn` with at most `limit` calls under way, keeping their order. */
async function mapAtMost<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * listBillingAccounts is a page of the accounts' plans, subscription statuses and usage (`page`, `limit`,
 * `search`). Storage, the costly measure, is read as stored when it was measured today; an account not measured
 * today is measured now (and that is kept), so a page costs at most its accounts' measures once a day.
 */
export async function listBillingAccounts(
  db: Db,
  actor: Actor,
  plans: Plan[],
  query: unknown,
): Promise<BillingAccountsPage> {
  requireAdmin(actor);
  const { page, limit, search } = parseInput(userListQuerySchema, query);
  const [rows, totalItems] = await Promise.all([
    listBillingRowsPage(db, { limit, offset: (page - 1) * limit, search }),
    countBillingRows(db, search),
  ]);
  const now = new Date();
  const today = dayOf(now);
  const stored = await latestStorageDays(
    db,
    rows.map((r) => r.id),
  );
  const accountOf = async (row: BillingRow): Promise<BillingAccount> => {
    const measured = stored.get(row.id);
    const bytes = measured?.day === today ? measured.bytes : await measureStorage(db, row.id, now);
    return {
      accountId: row.id,
      email: row.email,
      username: row.username,
      plan: effectivePlanId(row),
      status: row.subscription_status,
      usage: await usageOfRow(db, plans, row, { now, storageMb: bytes / MB }),
    };
  };
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  return {
    data: await mapAtMost(rows, MEASURED_AT_ONCE, accountOf),
    pagination: { totalItems, totalPages, currentPage: page, hasNext: page < totalPages, hasPrevious: page > 1 },
  };
}

/**
 * assignPlan puts an account on a plan by hand: a paid plan is active with no renewal date (it lasts until changed);
 * free clears the status. An account billed by Stripe is changed too, until Stripe's next event says otherwise.
 */
export async function assignPlan(db: Db, actor: Actor, accountId: string, input: unknown): Promise<Subscription> {
  requireAdmin(actor);
  const { planId } = parseInput(assignPlanInputSchema, input);
  const row = /^[\w-]{1,64}$/.test(accountId) ? await findBillingRow(db, accountId) : undefined;
  if (!row) throw notFound('Account not found', 'account_not_found');
  const free = planId === 'free';
  // Every node's meter forgets the account's caps once this is stored (usage-meter.ts).
  db.publish('plan.changed', { accountId });
  await updateSubscriptionFields(db, accountId, {
    subscription_plan: planId,
    subscription_status: free ? null : 'active',
    subscription_renewal_date: free ? null : row.stripe_subscription_id ? row.subscription_renewal_date : null,
    cancel_at_period_end: 0,
  });
  return {
    status: free ? null : 'active',
    plan: planId,
    renewalDate: free ? null : row.stripe_subscription_id ? row.subscription_renewal_date : null,
    cancelAtPeriodEnd: false,
  };
}
