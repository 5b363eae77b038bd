import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { quotasEnforced } from '../../config-billing.js';

// What the operator configures: the plans (BILLING_PLANS), metering, and Stripe's keys and prices.

describe('billing configuration', () => {
  it('sells the default plans, metered, without Stripe, by default', () => {
    const { billing } = loadConfig({});
    expect(billing.metering).toBe(true);
    expect(billing.stripe).toBeNull();
    expect(billing.plans.map((p) => [p.id, p.priceCents, p.limits.apiCalls])).toEqual([
      ['free', 0, 10000],
      ['starter', 999, 100000],
      ['professional', 2999, 1000000],
      ['enterprise', 9999, null],
    ]);
  });

  it('changes only the fields BILLING_PLANS names', () => {
    const { billing } = loadConfig({
      BILLING_PLANS: JSON.stringify({
        free: { limits: { apiCalls: 500 } },
        starter: { name: 'Hobby', priceCents: 500 },
      }),
    });
    expect(billing.plans[0]?.limits).toEqual({
      apiCalls: 500,
      storageMb: 1024,
      computeMinutes: 100,
      databaseConnections: 1,
    });
    expect(billing.plans[1]).toMatchObject({ name: 'Hobby', priceCents: 500, limits: { apiCalls: 100000 } });
  });

  it.each([
    ['not JSON', '{', 'BILLING_PLANS must be JSON'],
    ['an unknown plan', '{"gold":{}}', 'BILLING_PLANS'],
    ['a negative cap', '{"free":{"limits":{"apiCalls":-1}}}', 'BILLING_PLANS'],
    ['an unknown field', '{"free":{"colour":"red"}}', 'BILLING_PLANS'],
  ])('refuses BILLING_PLANS with %s', (_name, json, message) => {
    expect(() => loadConfig({ BILLING_PLANS: json })).toThrow(message);
  });

  it('reads Stripe from the environment', () => {
    const { billing } = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_CHECKOUT_MODE: 'embedded',
      STRIPE_PRICE_STARTER: 'price_1',
      METERING: 'off',
    });
    expect(billing.metering).toBe(false);
    expect(billing.stripe).toEqual({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      checkoutMode: 'embedded',
      prices: { starter: 'price_1' },
      apiUrl: null,
    });
    expect(() => loadConfig({ STRIPE_CHECKOUT_MODE: 'popup' })).toThrow(
      "STRIPE_CHECKOUT_MODE must be 'hosted' or 'embedded'",
    );
  });

  it('enforces quotas only where plans are sold or asked for (QUOTAS)', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_1' };
    const cases: Array<[Record<string, string>, boolean]> = [
      [{}, false],
      [{ QUOTAS: 'auto' }, false],
      [stripe, true],
      [{ QUOTAS: 'enforce' }, true],
      [{ ...stripe, QUOTAS: 'off' }, false],
      [{ QUOTAS: 'enforce', METERING: 'off' }, false],
    ];
    for (const [env, enforced] of cases)
      expect([env, quotasEnforced(loadConfig(env).billing)]).toEqual([env, enforced]);
    expect(() => loadConfig({ QUOTAS: 'always' })).toThrow("QUOTAS must be 'auto', 'enforce' or 'off'");
  });
});
