import type { RateLimiter } from '../../../lib/rate-limit/rate-limiter.js';
import { overEmailSendRateLimit, overRequestRateLimit } from './gotrue-errors.js';

// DESIGN.md "Configuration": AUTH_RATE_LIMIT attempts per 5 minutes. Sign-up, recovery and verification count
// every attempt, per IP and per email. Refreshing is routine (every open tab, every hour), so it gets ten times
// that, per IP only.
//
// Sign-in counts only wrong passwords, per IP over every email, as Supabase Auth does (30 per 5 minutes by
// default): one address guessing one password or spraying one over many emails meets the same wall. Never per email
// alone: then anyone could lock an owner out of their account by failing on purpose from elsewhere. A sign-in is
// counted before its password is checked (so that parallel guesses cannot all slip under the limit) and taken back
// when the password was right, so the owner's right password never counts.
const WINDOW_SECONDS = 300;
const REFRESH_FACTOR = 10;
const WINDOW = { windowSeconds: WINDOW_SECONDS };
// One mail per address and purpose a minute (verification.service.ts keeps the same for addresses with accounts).
const MAIL_INTERVAL_SECONDS = 60;

/**
 * LimitedAction names the counted auth actions (`password`: a password change's check; `otp`: magic links and codes;
 * `mfa`: factor challenges and verifications, counted per IP and per factor; `id_token`: ID-token sign-ins, per IP);
 * each has its own counters.
 */
export type LimitedAction =
  | 'signup'
  | 'recover'
  | 'verify'
  | 'password'
  | 'otp'
  | 'resend'
  | 'mfa'
  | 'anonymous'
  | 'id_token';

/** SignInAttempt is a sign-in being counted; `passwordMatched` takes it back. */
export interface SignInAttempt {
  passwordMatched(): Promise<void>;
}

/** AuthRateLimits throws GoTrue's 429 over_request_rate_limit (with Retry-After) once a limit is passed. */
export interface AuthRateLimits {
  /** attempt counts one attempt per IP and, when known, per email (or per factor, `subject`). */
  attempt(action: LimitedAction, who: { ip: string; email?: string | null; subject?: string }): Promise<void>;
  /** signIn counts a password sign-in per IP, until its password turns out right. */
  signIn(who: { ip: string }): Promise<SignInAttempt>;
  /** refresh counts one token refresh per IP. */
  refresh(ip: string): Promise<void>;
  /**
   * unsentMail is the one-mail-a-minute limit of an address that gets no mail (no account): a second request within
   * the minute answers 429 over_email_send_rate_limit as it would for an account, so that it tells nothing.
   */
  unsentMail(email: string, slot: 'recovery'): Promise<void>;
}

/**
 * createAuthRateLimits applies `perWindow` attempts per five minutes on top of a limiter; `prefix` names the user
 * pool whose counters these are (`auth` for console accounts, one per app).
 */
export function createAuthRateLimits(limiter: RateLimiter, perWindow: number, prefix = 'auth'): AuthRateLimits {
  async function check(key: string, limit: number): Promise<void> {
    const result = await limiter.hit(key, { limit, windowSeconds: WINDOW_SECONDS });
    if (!result.allowed) throw overRequestRateLimit(result.retryAfterSeconds);
  }
  return {
    async attempt(action, { ip, email, subject }) {
      await check(`${prefix}:${action}:ip:${ip}`, perWindow);
      if (email) await check(`${prefix}:${action}:email:${email.trim().toLowerCase()}`, perWindow);
      if (subject) await check(`${prefix}:${action}:subject:${subject}`, perWindow);
    },
    async signIn({ ip }) {
      const key = `${prefix}:signin:ip:${ip}`;
      const takeBack = async () => {
        await limiter.undo(key, WINDOW);
      };
      const result = await limiter.hit(key, { limit: perWindow, windowSeconds: WINDOW_SECONDS });
      if (!result.allowed) {
        // A refused sign-in checks no password, so it is no failure either: the counter stays at the limit.
        await takeBack();
        throw overRequestRateLimit(result.retryAfterSeconds);
      }
      return { passwordMatched: takeBack };
    },
    refresh: (ip) => check(`${prefix}:refresh:ip:${ip}`, perWindow * REFRESH_FACTOR),
    async unsentMail(email, slot) {
      // A minute since the last mail, as an account's own limit counts it (not per clock minute, which would let a
      // second request through across a minute's edge where an account's gets 429, telling the two apart).
      const result = await limiter.spaced(
        `${prefix}:mail:${slot}:${email.trim().toLowerCase()}`,
        MAIL_INTERVAL_SECONDS,
      );
      if (!result.allowed) throw overEmailSendRateLimit(result.retryAfterSeconds);
    },
  };
}
