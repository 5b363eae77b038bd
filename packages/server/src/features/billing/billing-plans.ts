import { PLAN_IDS, type Plan, type PlanId } from '@basalt/shared';
import type { BillingRow } from './billing.store.js';

// Which plan an account is on and which billing period it is in. An account's plan is the one its subscription
// names while the subscription is in good standing (or the one an administrator assigned); otherwise free.
// A period is the Stripe subscription's current one, or else the calendar month (UTC).

/** LIVE_STATUSES are the subscription states in which the paid plan applies. */
const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due']);

const isPlanId = (value: string | null): value is PlanId => PLAN_IDS.includes(value as PlanId);

/** effectivePlanId is the plan whose caps apply to an account now. */
export function effectivePlanId(row: Pick<BillingRow, 'subscription_plan' | 'subscription_status'>): PlanId {
  const plan = row.subscription_plan;
  if (!isPlanId(plan)) return 'free';
  if (row.subscription_status === null || LIVE_STATUSES.has(row.subscription_status)) return plan;
  return 'free';
}

/** planById finds a plan among the configured ones; every id of PLAN_IDS has one. */
export function planById(plans: Plan[], id: PlanId): Plan {
  const plan = plans.find((p) => p.id === id);
  if (!plan) throw new Error(`No plan ${id} is configured`);
  return plan;
}

/** BillingPeriod is the span whose usage counts against the caps; usage starts at zero at `start`. */
export interface BillingPeriod {
  start: Date;
  end: Date;
}

/** periodOf is an account's current billing period at `now`. */
export function periodOf(
  row: Pick<BillingRow, 'subscription_period_start' | 'subscription_renewal_date' | 'subscription_status'>,
  now: Date,
): BillingPeriod {
  const start = row.subscription_period_start ? new Date(row.subscription_period_start) : null;
  const end = row.subscription_renewal_date ? new Date(row.subscription_renewal_date) : null;
  if (
    start &&
    end &&
    row.subscription_status !== null &&
    LIVE_STATUSES.has(row.subscription_status) &&
    start.getTime() <= now.getTime() &&
    now.getTime() < end.getTime()
  ) {
    return { start, end };
  }
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/** dayOf is a time's UTC day, YYYY-MM-DD: the unit usage is counted in. */
export const dayOf = (time: Date | number) => new Date(time).toISOString().slice(0, 10);
