import Stripe from 'stripe';
import type { StripeConfig } from '../../config-billing.js';

// The official SDK, pointed at STRIPE_API_URL when one is set (tests run against a local double of Stripe's API).

/** stripeClientOf makes the SDK's client for the configured account. */
export function stripeClientOf(config: StripeConfig): Stripe {
  if (!config.apiUrl) return new Stripe(config.secretKey, { maxNetworkRetries: 2, timeout: 20_000 });
  const url = new URL(config.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.secretKey, {
    host: url.hostname,
    port: Number(url.port || (protocol === 'http' ? 80 : 443)),
    protocol,
    maxNetworkRetries: 0,
    timeout: 20_000,
  });
}
