import type { IncomingHttpHeaders } from 'node:http';
import { ACCESS_TOKEN_TTL_SECONDS, SITE_NAME } from '@basalt/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { readSetting, writeSettingOnce } from '../../db/instance-settings.store.js';
import { publicSiteUrl } from '../../http/public-origin.js';
import { randomToken } from '../../lib/crypto/tokens.js';
import { createMailer, type Mailer, mailFromAddress } from '../../lib/mail/mailer.js';
import { createRateLimiter, type RateLimiter } from '../../lib/rate-limit/rate-limiter.js';
import type { InstanceSettingsService } from '../instance/instance-settings.js';
import type { LogWriter } from '../logs/log-writer.js';
import type { Vault } from '../secrets/secrets-vault.js';
import { type AuthRateLimits, createAuthRateLimits } from './protocol/auth-rate-limits.js';
import { createSessionService, type SessionService } from './sessions/sessions.service.js';
import type { TokenService } from './sessions/tokens.service.js';
import type { AccountRow } from './users/accounts.service.js';
import { consoleUserPool } from './users/console-pool.js';
import type { UserPool, UserRow } from './users/user-pool.js';
import { createVerificationService, type VerificationService } from './verification/verification.service.js';

/** SecretSealer seals and opens an account's secrets (TOTP secrets, OAuth client secrets) under its data key. */
export interface SecretSealer {
  seal(db: Db, accountId: string, label: string, value: string): Promise<string>;
  open(db: Db, accountId: string, label: string, sealed: string): Promise<string>;
}

/**
 * AuthContext is what auth needs of the server it runs in (the server's AppContext has all of it): auth names only
 * these, so that the context, which knows every feature, is never imported back by one.
 */
export interface AuthContext {
  db: Db;
  config: Pick<Config, 'siteUrl' | 'siteUrlConfigured' | 'authRateLimit' | 'smtpUrl' | 'smtpFrom' | 'oauthProviders'>;
  tokens: TokenService;
  log: FastifyBaseLogger;
  /** logs records auth events in the system log. */
  logs: LogWriter;
  vault: Vault;
  /** instance tells whether console sign-ups are open. */
  instance: InstanceSettingsService;
}

/** secretSealerOf seals with the instance's secrets vault (features/secrets), labelled per use. */
export function secretSealerOf(ctx: Pick<AuthContext, 'vault'>): SecretSealer {
  const vault = ctx.vault;
  return {
    seal: (db, accountId, label, value) => vault.seal(db, accountId, { id: 0, name: label }, value),
    open: (db, accountId, label, sealed) => vault.open(db, accountId, { id: 0, name: label }, sealed),
  };
}

/** AuthBase is what every pool's auth services share: the instance, its mailer, limiter and secrets. */
export interface AuthBase {
  ctx: AuthContext;
  mailer: Mailer;
  limiter: RateLimiter;
  /** The secret rotated refresh tokens derive from (created at first start, shared by every process). */
  refreshSecret: string;
  /** secrets seals TOTP secrets (features/secrets' vault). */
  secrets: SecretSealer;
  now: () => Date;
}

/**
 * AuthDeps is what every auth flow works with, for one user pool (user-pool.ts): the console accounts'
 * (built once) or an app's end users' (features/apps, per app).
 */
export interface AuthDeps<R extends UserRow = AccountRow> {
  ctx: AuthContext;
  base: AuthBase;
  pool: UserPool<R>;
  sessions: SessionService<R>;
  verification: VerificationService<R>;
  limits: AuthRateLimits;
  mailer: Mailer;
  /** autoconfirm: sign-ups are confirmed at once (GoTrue's mailer_autoconfirm); the pool's setting. */
  autoconfirm: boolean;
  now: () => Date;
}

/** ClientInfo identifies the caller of an auth request for rate limits and the session row. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/** clientOf reads the caller's address and user agent (of a route's call). */
export function clientOf(request: { ip: string; headers: IncomingHttpHeaders }): ClientInfo {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : null };
}

/**
 * poolDeps builds the auth services of one pool over the shared base; `limitsPrefix` keeps each pool's rate-limit
 * counters apart (an app's users do not use up the console's sign-in attempts, nor another app's).
 */
export function poolDeps<R extends UserRow>(base: AuthBase, pool: UserPool<R>, limitsPrefix: string): AuthDeps<R> {
  const { ctx, now } = base;
  return {
    ctx,
    base,
    pool,
    sessions: createSessionService({ db: ctx.db, pool, tokens: ctx.tokens, refreshSecret: base.refreshSecret, now }),
    verification: createVerificationService({
      db: ctx.db,
      pool,
      mailer: base.mailer,
      siteUrl: () => publicSiteUrl(ctx.config),
      log: ctx.log,
      now,
    }),
    limits: createAuthRateLimits(base.limiter, ctx.config.authRateLimit, limitsPrefix),
    mailer: base.mailer,
    autoconfirm: pool.settings.autoconfirm,
    now,
  };
}

/** createAuthDeps builds the console accounts' auth services over the instance's context; `now` is for tests. */
export async function createAuthDeps(
  ctx: AuthContext,
  options: { now?: () => Date; secrets?: SecretSealer } = {},
): Promise<AuthDeps<AccountRow>> {
  const now = options.now ?? (() => new Date());
  const { config, db } = ctx;
  const refreshSecret =
    (await readSetting(db.kysely, 'refresh_token_secret')) ??
    (await writeSettingOnce(db.kysely, 'refresh_token_secret', randomToken(32)));
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.smtpFrom ?? mailFromAddress(SITE_NAME, config.siteUrl),
    log: ctx.log,
  });
  const base: AuthBase = {
    ctx,
    mailer,
    limiter: createRateLimiter(db.kysely, { now }),
    refreshSecret,
    secrets: options.secrets ?? secretSealerOf(ctx),
    now,
  };
  const siteOrigin = new URL(config.siteUrl).origin;
  const pool = consoleUserPool({
    // Without SITE_URL, the address the console was opened at (http/public-origin.ts), read at each use.
    get siteUrl() {
      return publicSiteUrl(config);
    },
    // Without SMTP, sign-ups are confirmed at once.
    autoconfirm: !mailer.delivers,
    signupsAllowed: true,
    accessTokenTtl: ACCESS_TOKEN_TTL_SECONDS,
    redirectAllowed: (target) =>
      target.origin === siteOrigin || target.origin === new URL(publicSiteUrl(config)).origin,
    // Console accounts are people who run the instance: never anonymous.
    anonymousSignIns: false,
    mfaEnabled: true,
    passwordReauthentication: false,
    passwordPolicy: null,
    providers: config.oauthProviders.map(({ clientSecret, ...provider }) => ({
      ...provider,
      clientSecret: async () => clientSecret,
    })),
  });
  return poolDeps(base, pool, 'auth');
}
