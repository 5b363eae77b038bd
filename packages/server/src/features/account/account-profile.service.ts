import { type UpdateProfileResult, type UserProfile, updateProfileSchema } from '@basalt/shared';
import { ApiError, conflict } from '../../http/errors.js';
import { publicSiteUrl } from '../../http/public-origin.js';
import { parseInput } from '../../http/validation.js';
import { recordActivity } from '../activity/activity.service.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import {
  type AccountChanges,
  type AccountRow,
  findAccountWithEmail,
  mergeMetadata,
  normalizeEmail,
  parseMetadata,
  UniqueViolation,
  updateAccount,
  usernameOf,
} from '../auth/users/accounts.service.js';

// The profile of Settings › Profile: username, email and the
// marketing-emails switch. A new email goes through GoTrue's email_change: with mail configured, the address
// changes only once the link mailed to it is followed (GET /auth/v1/verify); without mail it changes at once,
// like sign-ups are confirmed at once (DESIGN.md "Configuration", SMTP_URL).

/** PROFILE_CLASHES are the 409 messages for a username or email another account holds (as on sign-up). */
const PROFILE_CLASHES = {
  email: 'An account with this email already exists',
  username: 'This username is already taken',
} as const;

const clash = (column: keyof typeof PROFILE_CLASHES) =>
  conflict(PROFILE_CLASHES[column], `${column}_exists`, { fieldErrors: { [column]: [PROFILE_CLASHES[column]] } });

/** toUserProfile renders an account as Settings › Profile shows it. */
export function toUserProfile(account: AccountRow): UserProfile {
  return {
    id: account.id,
    username: usernameOf(account),
    email: account.email,
    marketingEmails: account.marketing_emails === 1,
    pendingEmail: account.new_email,
  };
}

/**
 * updateProfile applies PATCH /api/user/profile: the fields sent change, the others stay. A username or email
 * another account holds is a 409 and changes nothing. The username and the switch (and, without mail, the
 * email) commit together; then, with mail, the confirmation goes to the new address.
 */
export async function updateProfile(deps: AuthDeps, account: AccountRow, input: unknown): Promise<UpdateProfileResult> {
  const request = parseInput(updateProfileSchema, input);
  const { db } = deps.ctx;
  const changes: AccountChanges = {};
  const changed: string[] = [];

  // Compared with the stored username: an account without one (signed up by email alone) gets it stored.
  if (request.username !== undefined && request.username !== account.username) {
    changes.userMetadata = mergeMetadata(parseMetadata(account.user_metadata), { username: request.username });
    changed.push('username');
  }
  if (request.marketingEmails !== undefined && request.marketingEmails !== (account.marketing_emails === 1)) {
    changes.marketing_emails = request.marketingEmails ? 1 : 0;
    changed.push('marketingEmails');
  }
  let pendingEmail: string | null = null;
  const email = request.email === undefined ? null : normalizeEmail(request.email);
  if (email !== null && email !== account.email) {
    if (await findAccountWithEmail(db.kysely, email)) throw clash('email');
    if (deps.autoconfirm) {
      Object.assign(changes, { email, new_email: null, email_change_sent_at: null });
      changed.push('email');
    } else {
      pendingEmail = email;
    }
  }

  let updated = account;
  if (changed.length > 0) {
    const now = deps.now();
    updated = await db
      .transaction(async ({ kysely: trx }) => {
        const row = await updateAccount(trx, account.id, changes, now);
        await recordActivity(
          trx,
          { accountId: account.id, action: 'UPDATE', resource: 'profile', details: { fields: changed } },
          now,
        );
        return row ?? account;
      })
      .catch((error: unknown) => {
        throw error instanceof UniqueViolation ? clash(error.column) : error;
      });
  }
  if (pendingEmail) await sendEmailChange(deps, updated, pendingEmail);
  return { profile: toUserProfile(updated), emailChangePending: pendingEmail !== null };
}

// The link leads back to the settings page; the verification service refuses any other origin anyway.
async function sendEmailChange(deps: AuthDeps, account: AccountRow, newEmail: string): Promise<void> {
  try {
    await deps.verification.send(account, 'email_change', {
      redirectTo: `${publicSiteUrl(deps.ctx.config)}/settings`,
      newEmail,
    });
  } catch (error) {
    // The mail server refused or is down: a failure of the server's mail, not of the request.
    if (error instanceof ApiError && error.status === 500) {
      throw new ApiError(503, 'mail_unavailable', 'The confirmation email could not be sent. Please try again later.');
    }
    throw error;
  }
}
