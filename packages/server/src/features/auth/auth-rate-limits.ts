import type { RateLimiter } from '../../lib/rate-limit/rate-limiter.js';
import { overRequestRateLimit } from './gotrue-errors.js';

// DESIGN.md "Configuration": AUTH_RATE_LIMIT attempts per 5 minutes, per IP and per email. Refreshing
// is routine (every open tab, every hour), so it gets ten times that, per IP only.
const WINDOW_SECONDS = 300;
const REFRESH_FACTOR = 10;

/** LimitedAction names the counted auth actions (`password`: a password change's check); each has its own counters. */
export type LimitedAction = 'signin' | 'signup' | 'recover' | 'verify' | 'password';

/** AuthRateLimits throws GoTrue's 429 over_request_rate_limit (with Retry-After) once a limit is passed. */
export interface AuthRateLimits {
  /** attempt counts one attempt per IP and, when known, per email. */
  attempt(action: LimitedAction, who: { ip: string; email?: string | null }): Promise<void>;
  /** refresh counts one token refresh per IP. */
  refresh(ip: string): Promise<void>;
}

/** createAuthRateLimits applies `perWindow` attempts per five minutes on top of a limiter. */
export function createAuthRateLimits(limiter: RateLimiter, perWindow: number): AuthRateLimits {
  async function check(key: string, limit: number): Promise<void> {
    const result = await limiter.hit(key, { limit, windowSeconds: WINDOW_SECONDS });
    if (!result.allowed) throw overRequestRateLimit(result.retryAfterSeconds);
  }
  return {
    async attempt(action, { ip, email }) {
      await check(`auth:${action}:ip:${ip}`, perWindow);
      if (email) await check(`auth:${action}:email:${email.trim().toLowerCase()}`, perWindow);
    },
    refresh: (ip) => check(`auth:refresh:ip:${ip}`, perWindow * REFRESH_FACTOR),
  };
}
