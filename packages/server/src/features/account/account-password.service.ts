import { changePasswordSchema } from '@basalt/shared';
import { ApiError, badRequest, invalid, tooManyRequests } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import { recordActivity } from '../activity/activity.service.js';
import type { AuthDeps, ClientInfo } from '../auth/auth-deps.js';
import { type AccountRow, updateAccount } from '../auth/users/accounts.service.js';
import { hashPassword, verifyPassword } from '../auth/users/passwords.js';

// POST /api/user/change-password. The new password
// follows the sign-up policy (shared passwordSchema). Attempts count against AUTH_RATE_LIMIT per 5 minutes, per
// IP and per account, like sign-ins: a stolen session must not become a way to guess the password. A wrong
// current password is a 400, not a 401: the caller is signed in, only the form is wrong.

/** WRONG_CURRENT_PASSWORD is the message of a current password that does not match. */
const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

// No stored password is longer than the policy allows; do not spend argon2 time on megabyte inputs.
const MAX_PASSWORD_INPUT = 1024;

/** PasswordChanger is the account changing its password, from one session that stays signed in. */
export interface PasswordChanger {
  account: AccountRow;
  sessionId: string;
  client: ClientInfo;
}

/**
 * changePassword checks the current password, stores the new one and ends every other session of the account
 * (their refresh tokens and console cookies) in one transaction; the caller's session stays. Pending recovery
 * and sign-up mail tokens are dropped, as GoTrue does after a password change. Returns how many sessions ended.
 */
export async function changePassword(deps: AuthDeps, who: PasswordChanger, input: unknown): Promise<number> {
  const { currentPassword, newPassword } = parseInput(changePasswordSchema, input);
  const { account } = who;
  try {
    await deps.limits.attempt('password', { ip: who.client.ip, email: account.id });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 429) throw error;
    const seconds = Number(error.details.headers?.['Retry-After'] ?? 60);
    throw tooManyRequests(
      `Too many password attempts. Please try again in ${seconds} seconds.`,
      seconds,
      'over_request_rate_limit',
    );
  }
  const matches =
    currentPassword.length <= MAX_PASSWORD_INPUT && (await verifyPassword(account.password_hash, currentPassword));
  if (!matches) throw invalid({ currentPassword: [WRONG_CURRENT_PASSWORD] }, 'invalid_current_password');
  if (newPassword === currentPassword) {
    throw badRequest('same_password', 'The new password must be different from the current password', {
      fieldErrors: { newPassword: ['The new password must be different from the current password'] },
    });
  }

  const passwordHash = await hashPassword(newPassword);
  const now = deps.now();
  const ended = await deps.ctx.db.transaction(async (scope) => {
    const trx = scope.kysely;
    await updateAccount(trx, account.id, { password_hash: passwordHash }, now);
    const count = await deps.sessions.endAll(scope, account.id, who.sessionId);
    await recordActivity(
      trx,
      { accountId: account.id, action: 'UPDATE', resource: 'password', details: { otherSessionsEnded: count } },
      now,
    );
    return count;
  });
  await deps.verification.clear(account.id, ['recovery', 'signup']);
  return ended;
}
