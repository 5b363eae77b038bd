import type { BillingAccount, Plan, Subscription } from '@basalt/shared';
import { assignPlanInputSchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { findBillingRow, isInstanceAdmin, listBillingRows, updateSubscriptionFields } from './billing.store.js';
import { effectivePlanId } from './billing-plans.js';
import { usageOfRow } from './usage.service.js';

// The instance administrator's side of billing: every account's plan and usage, and plans assigned by hand (the
// way to sell plans without Stripe, or to grant one).

const ACCOUNTS_SHOWN = 500;

async function requireAdmin(db: Db, actor: Actor): Promise<void> {
  if (!(await isInstanceAdmin(db, actor.accountId))) {
    throw forbidden('Only instance administrators can see or change other accounts’ plans', 'not_admin');
  }
}

/** listBillingAccounts is every account's plan, subscription status and usage. */
export async function listBillingAccounts(db: Db, actor: Actor, plans: Plan[]): Promise<BillingAccount[]> {
  await requireAdmin(db, actor);
  const rows = await listBillingRows(db, ACCOUNTS_SHOWN);
  const accounts: BillingAccount[] = [];
  for (const row of rows) {
    accounts.push({
      accountId: row.id,
      email: row.email,
      username: row.username,
      plan: effectivePlanId(row),
      status: row.subscription_status,
      usage: await usageOfRow(db, plans, row),
    });
  }
  return accounts;
}

/**
 * assignPlan puts an account on a plan by hand: a paid plan is active with no renewal date (it lasts until changed);
 * free clears the status. An account billed by Stripe is changed too, until Stripe's next event says otherwise.
 */
export async function assignPlan(db: Db, actor: Actor, accountId: string, input: unknown): Promise<Subscription> {
  await requireAdmin(db, actor);
  const { planId } = parseInput(assignPlanInputSchema, input);
  const row = /^[\w-]{1,64}$/.test(accountId) ? await findBillingRow(db, accountId) : undefined;
  if (!row) throw notFound('Account not found', 'account_not_found');
  const free = planId === 'free';
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
