import { SITE_NAME } from '@basalt/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.js';
import { ApiError } from '../../../http/errors.js';
import { randomDigits, randomToken, sha256 } from '../../../lib/crypto/tokens.js';
import type { Mailer } from '../../../lib/mail/mailer.js';
import { emailExists, otpExpired, overEmailSendRateLimit, validationFailed } from '../protocol/gotrue-errors.js';
import { type AccountRow, normalizeEmail, parseMetadata, UniqueViolation } from '../users/accounts.service.js';
import type { UserChanges, UserPool, UserRow } from '../users/user-pool.js';
import {
  deleteExpiredOneTimeTokens,
  deleteOneTimeToken,
  deleteOneTimeTokens,
  findOneTimeTokenByCode,
  findOneTimeTokenByHash,
  insertOneTimeToken,
  type OneTimeTokenRow,
} from './one-time-tokens.store.js';

// Mailed one-time tokens: a link (its token hashed in the database) and a 6-digit code, for one purpose each.
// Limits: a token lives one hour; one mail per address and purpose per minute (magic links and recovery share
// GoTrue's recovery slot, sign-up and invitation its confirmation slot).
const TOKEN_TTL_MS = 3600_000;
const MAIL_INTERVAL_SECONDS = 60;

/** MailKind is what a one-time token proves. */
export type MailKind = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change' | 'reauthentication';

/** VERIFY_TYPES maps each `type` of /verify to the token kinds it accepts (GoTrue's token slots). */
const VERIFY_TYPES: Record<string, MailKind[]> = {
  signup: ['signup', 'invite'],
  invite: ['invite', 'signup'],
  email: ['signup', 'invite', 'magiclink', 'recovery'],
  magiclink: ['magiclink', 'recovery'],
  recovery: ['recovery', 'magiclink'],
  email_change: ['email_change'],
};

const SENT_AT = {
  signup: 'confirmation_sent_at',
  invite: 'confirmation_sent_at',
  magiclink: 'recovery_sent_at',
  recovery: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
  reauthentication: 'reauthentication_sent_at',
} as const;

// `product` is what the user signed up for: Basalt itself, or an app (named by its site's host).
const MAILS: Record<MailKind, (product: string) => { subject: string; intro: string }> = {
  signup: (product) => ({
    subject: 'Confirm your email address',
    intro: `Confirm your email address to finish signing up for ${product}.`,
  }),
  invite: (product) => ({
    subject: 'You have been invited',
    intro: `You have been invited to create an account on ${product}. Follow the link to accept, then choose a password.`,
  }),
  magiclink: (product) => ({
    subject: 'Your sign-in link',
    intro: `Follow this link to sign in to ${product}.`,
  }),
  recovery: (product) => ({
    subject: 'Reset your password',
    intro: `Someone asked to reset the password of your ${product} account.`,
  }),
  email_change: (product) => ({
    subject: 'Confirm your new email address',
    intro: `Confirm this address as the new email of your ${product} account.`,
  }),
  reauthentication: (product) => ({
    subject: 'Confirm it is you',
    intro: `Enter this code in ${product} to confirm a change to your account.`,
  }),
};

/** IssuedMail is a token made for a user: the link, the 6-digit code, the link's token and where it leads. */
export interface IssuedMail {
  link: string;
  code: string;
  token: string;
  redirectTo: string;
}

/** IssueOptions say where a link leads, the new address of an email change and the PKCE flow of the link. */
export interface IssueOptions {
  redirectTo: string | null;
  newEmail?: string;
  flowStateId?: string | null;
  /** Administrators' generated links are not limited to one a minute. */
  unlimited?: boolean;
}

/** VerificationService mails one-time tokens and redeems them for one user pool. */
export interface VerificationService<R extends UserRow = AccountRow> {
  /**
   * issue stores a token of one kind for the account (to `newEmail` for an email change) and returns its link and
   * code without mailing them. Throws 429 over_email_send_rate_limit when the last one of that slot left less
   * than a minute ago.
   */
  issue(account: R, kind: MailKind, options: IssueOptions): Promise<IssuedMail>;
  /** send issues a token and mails it; the log line of a mail without SMTP carries the link and the code. */
  send(account: R, kind: MailKind, options: IssueOptions): Promise<void>;
  /** redeem checks a link token or an address and code and applies its effect; returns the updated account. */
  redeem(
    type: string,
    proof: { tokenHash: string } | { email: string; code: string },
  ): Promise<{ account: R; kind: MailKind; flowStateId: string | null }>;
  /** checkNonce redeems a reauthentication code of the account; throws 422 reauthentication_not_valid. */
  checkNonce(account: R, nonce: string): Promise<void>;
  /** clear forgets an account's pending tokens (after a password change). */
  clear(accountId: string, kinds: MailKind[]): Promise<void>;
  /** redirectTarget is `redirectTo` when the pool allows it, else the pool's site URL (no open redirects). */
  redirectTarget(redirectTo: string | null | undefined): string;
}

/** VerificationOptions: the database and pool, how mails leave, the instance's URL for links, a clock. */
export interface VerificationOptions<R extends UserRow> {
  db: Db;
  pool: UserPool<R>;
  mailer: Mailer;
  /** The instance's URL, read at each mail: links lead to its /auth/v1/verify. */
  siteUrl: () => string;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** redeemChanges are the user's columns a redeemed token of a kind changes. */
function redeemChanges(account: UserRow, row: OneTimeTokenRow, kind: MailKind, at: string): UserChanges {
  const changes: UserChanges = account.email_confirmed_at ? {} : { email_confirmed_at: at };
  if (kind === 'email_change') {
    Object.assign(changes, { email_confirmed_at: at, email: row.email, new_email: null, email_change_sent_at: null });
    // An anonymous user's first confirmed address makes it a permanent user (GoTrue's).
    if (account.is_anonymous === 1) changes.is_anonymous = 0;
  }
  if (kind === 'signup' || kind === 'invite') changes.confirmation_sent_at = null;
  // A sign-up's user_metadata mirrors its identity (registration.service.ts): the address is verified now.
  const metadata = parseMetadata(account.user_metadata);
  if (metadata.email_verified === false) changes.userMetadata = { ...metadata, email_verified: true };
  if (kind === 'email_change' && typeof metadata.email === 'string') {
    changes.userMetadata = { ...(changes.userMetadata ?? metadata), email: row.email, email_verified: true };
  }
  return changes;
}

/** createVerificationService builds the verification service. */
export function createVerificationService<R extends UserRow>({
  db,
  pool,
  mailer,
  siteUrl,
  log,
  now = () => new Date(),
}: VerificationOptions<R>): VerificationService<R> {
  const t = pool.tables;
  // Read at each use: without SITE_URL the pool's URL is the address of the request (http/public-origin.ts).
  const landingOf = () => pool.settings.siteUrl;
  const productOf = () => (pool.app ? new URL(landingOf()).host : SITE_NAME);
  // An app's salt keeps its codes from matching another app's for the same address.
  const otpHashOf = (email: string, code: string) => sha256(`${pool.otpSalt}${email}:${code}`);

  function redirectTarget(redirectTo: string | null | undefined): string {
    const landing = landingOf();
    if (!redirectTo) return landing;
    try {
      const url = new URL(redirectTo);
      return pool.settings.redirectAllowed(url) ? url.toString() : landing;
    } catch {
      return landing;
    }
  }

  async function redeemRow(row: OneTimeTokenRow, kind: MailKind): Promise<R> {
    return db.transaction(async ({ kysely: trx }) => {
      const at = now();
      // A token of another pool's user (an app's link used with another app's key) names nobody here.
      const account = await pool.users.findById(trx, row.account_id);
      if (!account) throw otpExpired();
      // Single use, also under concurrency: only the request that deletes the row goes on.
      if (!(await deleteOneTimeToken(trx, t, row.id))) throw otpExpired();
      // A redeemed link ends the other links of its slot (a recovery and a magic link share one).
      await deleteOneTimeTokens(
        trx,
        t,
        row.account_id,
        Object.keys(SENT_AT).filter((k) => SENT_AT[k as MailKind] === SENT_AT[kind]),
      );
      const updated = await pool.users.update(
        trx,
        row.account_id,
        redeemChanges(account, row, kind, at.toISOString()),
        at,
      );
      if (!updated) throw otpExpired();
      return updated;
    });
  }

  const service: VerificationService<R> = {
    redirectTarget,

    async issue(account, kind, { redirectTo, newEmail, flowStateId, unlimited }) {
      const at = now();
      const column = SENT_AT[kind];
      const previous = account[column];
      const elapsed = previous ? (at.getTime() - new Date(previous).getTime()) / 1000 : Number.POSITIVE_INFINITY;
      if (!unlimited && elapsed < MAIL_INTERVAL_SECONDS) {
        throw overEmailSendRateLimit(Math.ceil(MAIL_INTERVAL_SECONDS - elapsed));
      }
      const to = kind === 'email_change' && newEmail ? normalizeEmail(newEmail) : account.email;
      const token = randomToken(32);
      const code = randomDigits(6);
      await db.transaction(async ({ kysely: trx }) => {
        await deleteExpiredOneTimeTokens(trx, t, at.toISOString());
        await deleteOneTimeTokens(trx, t, account.id, [kind]);
        await insertOneTimeToken(trx, t, {
          account_id: account.id,
          kind,
          email: to,
          token_hash: sha256(token),
          otp_hash: otpHashOf(to, code),
          created_at: at.toISOString(),
          expires_at: new Date(at.getTime() + TOKEN_TTL_MS).toISOString(),
          flow_state_id: flowStateId ?? null,
        });
        const changes: UserChanges = { [column]: at.toISOString() };
        if (kind === 'email_change') changes.new_email = to;
        if (kind === 'invite') changes.invited_at = at.toISOString();
        const updated = await pool.users.update(trx, account.id, changes, at);
        if (updated) Object.assign(account, updated);
      });
      const target = redirectTarget(redirectTo);
      // An app's link names the app: the browser opens it without any key.
      const query = new URLSearchParams({
        token,
        type: kind,
        redirect_to: target,
        ...(pool.app ? { ref: pool.app.ref } : {}),
      });
      return { link: `${siteUrl()}/auth/v1/verify?${query.toString()}`, code, token, redirectTo: target };
    },

    async send(account, kind, options) {
      const column = SENT_AT[kind];
      const previous = account[column];
      const previousNewEmail = account.new_email;
      const issued = await service.issue(account, kind, options);
      const to = kind === 'email_change' && account.new_email ? account.new_email : account.email;
      const { subject, intro } = MAILS[kind](productOf());
      const reauth = kind === 'reauthentication';
      const text = reauth
        ? `${intro}\n\nYour code: ${issued.code}\n\nThe code expires in one hour. If you did not ask for this, ignore this mail.\n`
        : `${intro}\n\nOpen this link:\n${issued.link}\n\nOr enter this code: ${issued.code}\n\nThe link and the code expire in one hour. If you did not ask for this, ignore this mail.\n`;
      try {
        await mailer.send({ to, subject, text, link: reauth ? '' : issued.link, code: issued.code });
      } catch (error) {
        log.error({ err: error, mail: { to, subject } }, 'sending a mail failed');
        // The address was never asked: an email change is no longer pending either.
        const undo: UserChanges =
          kind === 'email_change' ? { [column]: previous, new_email: previousNewEmail } : { [column]: previous };
        await pool.users.update(db.kysely, account.id, undo, now());
        await deleteOneTimeTokens(db.kysely, t, account.id, [kind]);
        throw new ApiError(
          500,
          'unexpected_failure',
          `Error sending ${kind === 'recovery' ? 'recovery' : kind === 'magiclink' ? 'magic link' : 'confirmation'} email`,
        );
      }
    },

    async redeem(type, proof) {
      const kinds = Object.hasOwn(VERIFY_TYPES, type) ? VERIFY_TYPES[type] : undefined;
      if (!kinds) throw validationFailed(`Unsupported verification type: ${type}`);
      const at = now().toISOString();
      const row =
        'tokenHash' in proof
          ? await findOneTimeTokenByHash(db.kysely, t, sha256(proof.tokenHash), kinds, at)
          : await findOneTimeTokenByCode(
              db.kysely,
              t,
              normalizeEmail(proof.email),
              otpHashOf(normalizeEmail(proof.email), proof.code),
              kinds,
              at,
            );
      if (!row) throw 'tokenHash' in proof ? otpExpired('Email link is invalid or has expired') : otpExpired();
      const kind = row.kind as MailKind;
      try {
        return { account: await redeemRow(row, kind), kind, flowStateId: row.flow_state_id };
      } catch (error) {
        // The new address of an email change was taken by someone else meanwhile.
        if (error instanceof UniqueViolation) throw emailExists();
        throw error;
      }
    },

    async checkNonce(account, nonce) {
      const invalid = () => new ApiError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');
      const row = await findOneTimeTokenByCode(
        db.kysely,
        t,
        account.email,
        otpHashOf(account.email, nonce),
        ['reauthentication'],
        now().toISOString(),
      );
      if (!row || row.account_id !== account.id) throw invalid();
      if (!(await deleteOneTimeToken(db.kysely, t, row.id))) throw invalid();
    },

    async clear(accountId, kinds) {
      await deleteOneTimeTokens(db.kysely, t, accountId, kinds);
    },
  };
  return service;
}
