import { SITE_NAME } from '@basalt/shared';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { randomToken } from '../../lib/crypto/tokens.js';
import { createMailer, type Mailer, mailFromAddress } from '../../lib/mail/mailer.js';
import { createRateLimiter } from '../../lib/rate-limit/rate-limiter.js';
import { type AuthRateLimits, createAuthRateLimits } from './auth-rate-limits.js';
import { createSessionService, type SessionService } from './sessions.service.js';
import { readSetting, writeSettingOnce } from './signing-keys.store.js';
import { createVerificationService, type VerificationService } from './verification.service.js';

/** AuthDeps is what every auth flow works with; built once when the auth routes are registered. */
export interface AuthDeps {
  ctx: AppContext;
  sessions: SessionService;
  verification: VerificationService;
  limits: AuthRateLimits;
  mailer: Mailer;
  /** autoconfirm: without SMTP, sign-ups are confirmed at once (GoTrue's mailer_autoconfirm). */
  autoconfirm: boolean;
  now: () => Date;
}

/** ClientInfo identifies the caller of an auth request for rate limits and the session row. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/** clientOf reads the caller's address and user agent. */
export function clientOf(request: FastifyRequest): ClientInfo {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : null };
}

/** createAuthDeps builds the auth services over the instance's context; `now` is injectable for tests. */
export async function createAuthDeps(ctx: AppContext, options: { now?: () => Date } = {}): Promise<AuthDeps> {
  const now = options.now ?? (() => new Date());
  const { config, db } = ctx;
  // The secret rotated refresh tokens derive from; created at first start and shared by every process.
  const refreshSecret =
    (await readSetting(db.kysely, 'refresh_token_secret')) ??
    (await writeSettingOnce(db.kysely, 'refresh_token_secret', randomToken(32)));
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: mailFromAddress(SITE_NAME, config.siteUrl),
    log: ctx.log,
  });
  return {
    ctx,
    sessions: createSessionService({ db, tokens: ctx.tokens, refreshSecret, now }),
    verification: createVerificationService({ db, mailer, siteUrl: config.siteUrl, log: ctx.log, now }),
    limits: createAuthRateLimits(createRateLimiter(db.kysely, { now }), config.authRateLimit),
    mailer,
    autoconfirm: !mailer.delivers,
    now,
  };
}
