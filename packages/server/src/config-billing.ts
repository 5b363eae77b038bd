import { DEFAULT_PLANS, PLAN_IDS, type Plan, type PlanId } from '@basalt/shared';
import { z } from 'zod';

// Billing's part of the configuration: the plans an operator sells (BILLING_PLANS over the defaults), whether
// their caps refuse requests, and Stripe's keys and prices. Read with the rest of the environment (config.ts).

/** BillingConfig is what the operator sells: the plans, whether usage is metered, and Stripe's keys and prices. */
export interface BillingConfig {
  /** METERING: off stops counting API calls and enforcing quotas (usage then shows no calls). */
  metering: boolean;
  /**
   * QUOTAS: whether the plans' caps refuse requests. auto (the default) enforces them only when Stripe is
   * configured (the operator sells plans); enforce always (the operator assigns plans by hand); off never. Usage
   * is metered and shown either way, and instance administrators are never capped (quotasEnforced).
   */
  quotas: 'auto' | 'enforce' | 'off';
  /** METERING_REFRESH_MS: how old an account's usage may be when a quota is checked against it. */
  meteringRefreshMs: number;
  /** The four plans, DEFAULT_PLANS with BILLING_PLANS applied. */
  plans: Plan[];
  /** null: billing by Stripe is off and administrators assign plans by hand. */
  stripe: StripeConfig | null;
}

/**
 * quotasEnforced tells whether the plans' caps refuse requests on this instance: with QUOTAS=enforce, or by default
 * when Stripe sells the plans. A self-hosted instance that sells nothing caps nobody.
 */
export function quotasEnforced(billing: Pick<BillingConfig, 'metering' | 'quotas' | 'stripe'>): boolean {
  if (!billing.metering || billing.quotas === 'off') return false;
  return billing.quotas === 'enforce' || billing.stripe !== null;
}

/** StripeConfig is Stripe's secret key, webhook secret, checkout mode and a price id per paid plan. */
export interface StripeConfig {
  secretKey: string;
  /** null: the webhook endpoint refuses every event (nothing can be verified). */
  webhookSecret: string | null;
  /** hosted: a Checkout page the browser is sent to (sessionUrl); embedded: a clientSecret for Stripe.js. */
  checkoutMode: 'hosted' | 'embedded';
  prices: Partial<Record<PlanId, string>>;
  /** STRIPE_API_URL: another address for Stripe's API (a test double); null: api.stripe.com. */
  apiUrl: string | null;
}

const limitField = z.number().int().min(0).nullable().optional();
// BILLING_PLANS changes the default plans: a JSON object from plan id to the fields that differ.
const plansOverrideSchema = z.partialRecord(
  z.enum(PLAN_IDS),
  z
    .object({
      name: z.string().min(1).max(60).optional(),
      priceCents: z.number().int().min(0).optional(),
      limits: z
        .object({
          apiCalls: limitField,
          storageMb: limitField,
          computeMinutes: limitField,
          databaseConnections: limitField,
        })
        .strict()
        .optional(),
      features: z.array(z.string().max(200)).max(20).optional(),
    })
    .strict(),
);

/** plansOf applies BILLING_PLANS (a JSON object of the fields that differ, by plan id) to the default plans. */
export function plansOf(json: string | undefined): Plan[] {
  if (!json?.trim()) return DEFAULT_PLANS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('Invalid configuration: BILLING_PLANS must be JSON');
  }
  const result = plansOverrideSchema.safeParse(parsed);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: BILLING_PLANS: ${problems}`);
  }
  return DEFAULT_PLANS.map((plan) => {
    const change = result.data[plan.id];
    if (!change) return plan;
    return {
      ...plan,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.priceCents !== undefined ? { priceCents: change.priceCents } : {}),
      ...(change.features !== undefined ? { features: change.features } : {}),
      limits: { ...plan.limits, ...change.limits },
    };
  });
}

/** StripeEnv is the environment's Stripe variables, as config.ts's schema reads them. */
export interface StripeEnv {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_CHECKOUT_MODE: 'hosted' | 'embedded';
  STRIPE_PRICE_STARTER?: string | undefined;
  STRIPE_PRICE_PROFESSIONAL?: string | undefined;
  STRIPE_PRICE_ENTERPRISE?: string | undefined;
  STRIPE_API_URL?: string | undefined;
}

/** stripeOf reads Stripe's settings; null when no secret key is set (billing by Stripe is off). */
export function stripeOf(e: StripeEnv): StripeConfig | null {
  const secretKey = e.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return null;
  const prices: Partial<Record<PlanId, string>> = {};
  if (e.STRIPE_PRICE_STARTER?.trim()) prices.starter = e.STRIPE_PRICE_STARTER.trim();
  if (e.STRIPE_PRICE_PROFESSIONAL?.trim()) prices.professional = e.STRIPE_PRICE_PROFESSIONAL.trim();
  if (e.STRIPE_PRICE_ENTERPRISE?.trim()) prices.enterprise = e.STRIPE_PRICE_ENTERPRISE.trim();
  return {
    secretKey,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET?.trim() || null,
    checkoutMode: e.STRIPE_CHECKOUT_MODE,
    prices,
    apiUrl: e.STRIPE_API_URL ?? null,
  };
}
