import { z } from 'zod';
import { paginationSchema } from './api.types.js';

// Billing: plans, usage against them, the subscription and its invoices. A limit of null is unlimited.

/** PLAN_IDS are the four plans, cheapest first; free is every account's plan until another is chosen. */
export const PLAN_IDS = ['free', 'starter', 'professional', 'enterprise'] as const;
/** PlanId names one plan. */
export type PlanId = (typeof PLAN_IDS)[number];

/** UsageLimits are a plan's caps per billing period; null is unlimited. */
export interface UsageLimits {
  apiCalls: number | null;
  storageMb: number | null;
  computeMinutes: number | null;
  databaseConnections: number | null;
}

/** Plan is one plan as the Plans tab shows it: a monthly price in cents, its caps and its extras. */
export interface Plan {
  id: PlanId;
  name: string;
  priceCents: number;
  limits: UsageLimits;
  features: string[];
}

/** DEFAULT_PLANS are the plans an operator starts with (BILLING_PLANS overrides them). */
export const DEFAULT_PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    priceCents: 0,
    limits: { apiCalls: 10_000, storageMb: 1024, computeMinutes: 100, databaseConnections: 1 },
    features: ['Community support', 'No SLA', 'Limited rate limits'],
  },
  {
    id: 'starter',
    name: 'Starter',
    priceCents: 999,
    limits: { apiCalls: 100_000, storageMb: 10 * 1024, computeMinutes: 500, databaseConnections: 3 },
    features: ['Email support', 'Basic monitoring', '99.5% uptime SLA'],
  },
  {
    id: 'professional',
    name: 'Professional',
    priceCents: 2999,
    limits: { apiCalls: 1_000_000, storageMb: 100 * 1024, computeMinutes: 2000, databaseConnections: 10 },
    features: ['Priority support', 'Advanced monitoring', 'Team access controls'],
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    priceCents: 9999,
    limits: { apiCalls: null, storageMb: 1024 * 1024, computeMinutes: 10_000, databaseConnections: null },
    features: ['Dedicated support', 'Custom domain', 'Advanced security', 'SSO'],
  },
];

const limitSchema = z.number().nullable();

/** plansResponseSchema is GET /api/billing/plans: the plans on sale, and whether Stripe sells them. */
export const plansResponseSchema = z.object({
  plans: z.array(
    z.object({
      id: z.enum(PLAN_IDS),
      name: z.string(),
      priceCents: z.number(),
      limits: z.object({
        apiCalls: limitSchema,
        storageMb: limitSchema,
        computeMinutes: limitSchema,
        databaseConnections: limitSchema,
      }),
      features: z.array(z.string()),
    }),
  ),
  stripe: z.boolean(),
});

/** USAGE_METRICS are the four metered quantities, in the order the screens show them. */
export const USAGE_METRICS = ['apiCalls', 'storageMb', 'computeMinutes', 'databaseConnections'] as const;
/** UsageMetric names one of them. */
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** Usage is GET /api/billing/usage: the period's use and the plan's caps (null: unlimited), and the period. */
export const usageSchema = z.object({
  apiCalls: z.number(),
  maxApiCalls: z.number().nullable(),
  storageMb: z.number(),
  maxStorageMb: z.number().nullable(),
  computeMinutes: z.number(),
  maxComputeMinutes: z.number().nullable(),
  databaseConnections: z.number(),
  maxDatabaseConnections: z.number().nullable(),
  plan: z.enum(PLAN_IDS),
  periodStart: z.string(),
  periodEnd: z.string(),
});
/** Usage is one account's usage in its current period. */
export type Usage = z.infer<typeof usageSchema>;

/** usageDaySchema is one day of GET /api/billing/usage/history. */
export const usageDaySchema = z.object({
  day: z.string(),
  apiCalls: z.number(),
  computeMinutes: z.number(),
  /** The day's storage in MB (its highest measurement, or the last before it); null before the first. */
  storageMb: z.number().nullable(),
});
/** UsageDay is one day of an account's metered use. */
export type UsageDay = z.infer<typeof usageDaySchema>;

/** subscriptionSchema is GET /api/billing/subscription; status null: no subscription. */
export const subscriptionSchema = z.object({
  status: z.string().nullable(),
  plan: z.enum(PLAN_IDS),
  renewalDate: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
/** Subscription is an account's plan and where its subscription stands. */
export type Subscription = z.infer<typeof subscriptionSchema>;

/** invoiceSchema is one row of GET /api/billing/invoices; amount in cents. */
export const invoiceSchema = z.object({
  id: z.string(),
  date: z.string(),
  amount: z.number(),
  status: z.string(),
  pdfUrl: z.string().nullable(),
});
/** Invoice is one invoice of an account. */
export type Invoice = z.infer<typeof invoiceSchema>;

/** checkoutResultSchema is what POST /api/billing/create-checkout-session answers: one of the two. */
export const checkoutResultSchema = z.object({
  clientSecret: z.string().optional(),
  sessionUrl: z.string().optional(),
});
/** CheckoutResult is a checkout session to show embedded (clientSecret) or to redirect to (sessionUrl). */
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

const planIdField = z.enum(PLAN_IDS, {
  error: (issue) => (issue.input === undefined ? 'planId is required' : `planId must be one of ${PLAN_IDS.join(', ')}`),
});

/** checkoutInputSchema is the body of POST /api/billing/create-checkout-session. */
export const checkoutInputSchema = z.object({ planId: planIdField });

/** assignPlanInputSchema is the body of the administrator's PUT /api/billing/accounts/:id/plan. */
export const assignPlanInputSchema = z.object({ planId: planIdField });

/** billingAccountSchema is one row of the administrator's GET /api/billing/accounts. */
export const billingAccountSchema = z.object({
  accountId: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  plan: z.enum(PLAN_IDS),
  status: z.string().nullable(),
  usage: usageSchema,
});
/** BillingAccount is an account's plan and usage, as the administrator sees it. */
export type BillingAccount = z.infer<typeof billingAccountSchema>;

/** billingAccountsPageSchema is GET /api/billing/accounts: one page of accounts and the paging. */
export const billingAccountsPageSchema = z.object({
  data: z.array(billingAccountSchema),
  pagination: paginationSchema,
});
/** BillingAccountsPage is one page of the administrator's accounts view. */
export type BillingAccountsPage = z.infer<typeof billingAccountsPageSchema>;

/** notificationSchema is one entry of GET /api/user/notifications. */
export const notificationSchema = z.object({
  id: z.number(),
  title: z.string(),
  message: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
/** Notification is a message to an account, such as a usage warning. */
export type Notification = z.infer<typeof notificationSchema>;

/** usagePercent is how much of a limit is used, clamped to 0..100 (0 when unlimited). */
export function usagePercent(used: number, limit: number | null): number {
  if (limit === null) return 0;
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, (used / limit) * 100));
}
