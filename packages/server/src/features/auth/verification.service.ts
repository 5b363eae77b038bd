import { SITE_NAME } from '@basalt/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import { randomDigits, randomToken, sha256 } from '../../lib/crypto/tokens.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { type AccountRow, normalizeEmail, UniqueViolation, updateAccount } from './accounts.service.js';
import { emailExists, otpExpired, overEmailSendRateLimit, validationFailed } from './gotrue-errors.js';
import {
  deleteExpiredOneTimeTokens,
  deleteOneTimeToken,
  deleteOneTimeTokens,
  findOneTimeTokenByCode,
  findOneTimeTokenByHash,
  insertOneTimeToken,
  type OneTimeTokenRow,
} from './one-time-tokens.store.js';

// Limits of protocol §2.6.7: a mail token lives one hour; one mail per address and kind per minute.
const TOKEN_TTL_MS = 3600_000;
const MAIL_INTERVAL_SECONDS = 60;

/** MailKind is what a one-time token proves: a sign-up, a password recovery or a new email address. */
export type MailKind = 'signup' | 'recovery' | 'email_change';

/** VERIFY_TYPES maps each `type` of /verify to the token kinds it accepts (magiclink and invite are never issued). */
export const VERIFY_TYPES: Record<string, MailKind[]> = {
  signup: ['signup'],
  email: ['signup'],
  recovery: ['recovery'],
  email_change: ['email_change'],
  magiclink: [],
  invite: [],
};

const SENT_AT = {
  signup: 'confirmation_sent_at',
  recovery: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
} as const;

const MAILS: Record<MailKind, { subject: string; intro: string }> = {
  signup: {
    subject: 'Confirm your email address',
    intro: `Confirm your email address to finish signing up for ${SITE_NAME}.`,
  },
  recovery: {
    subject: 'Reset your password',
    intro: `Someone asked to reset the password of your ${SITE_NAME} account.`,
  },
  email_change: {
    subject: 'Confirm your new email address',
    intro: `Confirm this address as the new email of your ${SITE_NAME} account.`,
  },
};

/** VerificationService mails one-time tokens and redeems them (protocol §2.6.7–§2.6.8). */
export interface VerificationService {
  /**
   * send mails a link and a 6-digit code of one kind to the account (to `newEmail` for an email change).
   * Throws 429 over_email_send_rate_limit when the previous mail of that kind left less than a minute ago.
   */
  send(account: AccountRow, kind: MailKind, options: { redirectTo: string | null; newEmail?: string }): Promise<void>;
  /** redeem checks a link token or an address and code and applies its effect; returns the updated account. */
  redeem(
    type: string,
    proof: { tokenHash: string } | { email: string; code: string },
  ): Promise<{ account: AccountRow; kind: MailKind }>;
  /** clear forgets an account's pending tokens (after a password change). */
  clear(accountId: string, kinds: MailKind[]): Promise<void>;
  /** redirectTarget is `redirectTo` when it is on the site's origin, else the site URL (no open redirects). */
  redirectTarget(redirectTo: string | null | undefined): string;
}

/** VerificationOptions: where accounts live, how mails leave, the site URL for links, a clock. */
export interface VerificationOptions {
  db: Db;
  mailer: Mailer;
  siteUrl: string;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** createVerificationService builds the verification service. */
export function createVerificationService({
  db,
  mailer,
  siteUrl,
  log,
  now = () => new Date(),
}: VerificationOptions): VerificationService {
  const siteOrigin = new URL(siteUrl).origin;
  const otpHashOf = (email: string, code: string) => sha256(`${email}:${code}`);

  function redirectTarget(redirectTo: string | null | undefined): string {
    if (!redirectTo) return siteUrl;
    try {
      const url = new URL(redirectTo);
      return url.origin === siteOrigin ? url.toString() : siteUrl;
    } catch {
      return siteUrl;
    }
  }

  async function redeemRow(row: OneTimeTokenRow, kind: MailKind): Promise<AccountRow> {
    return db.transaction(async (trx) => {
      const at = now();
      // Single use, also under concurrency: only the request that deletes the row goes on.
      if (!(await deleteOneTimeToken(trx, row.id))) throw otpExpired();
      await deleteOneTimeTokens(trx, row.account_id, [kind]);
      const confirmed = { email_confirmed_at: at.toISOString() };
      const changes =
        kind === 'email_change'
          ? { ...confirmed, email: row.email, new_email: null, email_change_sent_at: null }
          : kind === 'signup'
            ? { ...confirmed, confirmation_sent_at: null }
            : confirmed;
      // A recovery also proves the address, so it confirms an unconfirmed account (as GoTrue does).
      const account = await updateAccount(trx, row.account_id, changes, at);
      if (!account) throw otpExpired();
      return account;
    });
  }

  return {
    redirectTarget,

    async send(account, kind, { redirectTo, newEmail }) {
      const at = now();
      const column = SENT_AT[kind];
      const previous = account[column];
      const previousNewEmail = account.new_email;
      const elapsed = previous ? (at.getTime() - new Date(previous).getTime()) / 1000 : Number.POSITIVE_INFINITY;
      if (elapsed < MAIL_INTERVAL_SECONDS) throw overEmailSendRateLimit(Math.ceil(MAIL_INTERVAL_SECONDS - elapsed));

      const to = kind === 'email_change' && newEmail ? normalizeEmail(newEmail) : account.email;
      const token = randomToken(32);
      const code = randomDigits(6);
      await db.transaction(async (trx) => {
        await deleteExpiredOneTimeTokens(trx, at.toISOString());
        await deleteOneTimeTokens(trx, account.id, [kind]);
        await insertOneTimeToken(trx, {
          account_id: account.id,
          kind,
          email: to,
          token_hash: sha256(token),
          otp_hash: otpHashOf(to, code),
          created_at: at.toISOString(),
          expires_at: new Date(at.getTime() + TOKEN_TTL_MS).toISOString(),
        });
        const changes =
          kind === 'email_change' ? { [column]: at.toISOString(), new_email: to } : { [column]: at.toISOString() };
        const updated = await updateAccount(trx, account.id, changes, at);
        if (updated) Object.assign(account, updated);
      });

      const query = new URLSearchParams({ token, type: kind, redirect_to: redirectTarget(redirectTo) });
      const link = `${siteUrl}/auth/v1/verify?${query.toString()}`;
      const { subject, intro } = MAILS[kind];
      const text = `${intro}\n\nOpen this link:\n${link}\n\nOr enter this code: ${code}\n\nThe link and the code expire in one hour. If you did not ask for this, ignore this mail.\n`;
      try {
        await mailer.send({ to, subject, text, link });
      } catch (error) {
        log.error({ err: error, mail: { to, subject } }, 'sending a mail failed');
        // The address was never asked: an email change is no longer pending either.
        const undo =
          kind === 'email_change' ? { [column]: previous, new_email: previousNewEmail } : { [column]: previous };
        await updateAccount(db.kysely, account.id, undo, at);
        throw new ApiError(
          500,
          'unexpected_failure',
          `Error sending ${kind === 'recovery' ? 'recovery' : 'confirmation'} email`,
        );
      }
    },

    async redeem(type, proof) {
      const kinds = Object.hasOwn(VERIFY_TYPES, type) ? VERIFY_TYPES[type] : undefined;
      if (!kinds) throw validationFailed(`Unsupported verification type: ${type}`);
      if (kinds.length === 0) throw otpExpired();
      const at = now().toISOString();
      const row =
        'tokenHash' in proof
          ? await findOneTimeTokenByHash(db.kysely, sha256(proof.tokenHash), kinds, at)
          : await findOneTimeTokenByCode(
              db.kysely,
              normalizeEmail(proof.email),
              otpHashOf(normalizeEmail(proof.email), proof.code),
              kinds,
              at,
            );
      if (!row) throw otpExpired();
      const kind = row.kind as MailKind;
      try {
        return { account: await redeemRow(row, kind), kind };
      } catch (error) {
        // The new address of an email change was taken by someone else meanwhile.
        if (error instanceof UniqueViolation) throw emailExists();
        throw error;
      }
    },

    async clear(accountId, kinds) {
      await deleteOneTimeTokens(db.kysely, accountId, kinds);
    },
  };
}
