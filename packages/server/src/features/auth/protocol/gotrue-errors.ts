import { ApiError } from '../../../http/errors.js';
import { UniqueViolation } from '../users/accounts.store.js';
import type { PasswordWeakness } from '../users/passwords.js';

// The GoTrue error codes and texts supabase-js knows, in one place. The auth error family renders them
// as {code: status, error_code, msg, ...extra}.

/** validationFailed is a 400 for a missing or malformed field. */
export const validationFailed = (msg: string) => new ApiError(400, 'validation_failed', msg);

/** invalidCredentials is the one answer for an unknown email and a wrong password. */
export const invalidCredentials = (msg = 'Invalid login credentials') => new ApiError(400, 'invalid_credentials', msg);

/** emailNotConfirmed refuses a password sign-in before the email is confirmed. */
export const emailNotConfirmed = () => new ApiError(400, 'email_not_confirmed', 'Email not confirmed');

/** userBanned refuses a banned user (400 on /token, 403 with a JWT). */
export const userBanned = (status: 400 | 403 = 400) => new ApiError(status, 'user_banned', 'User is banned');

/** weakPassword lists every failed password rule, one sentence each. */
export const weakPassword = (weakness: PasswordWeakness) =>
  new ApiError(422, 'weak_password', weakness.message, { extra: { weak_password: { reasons: weakness.reasons } } });

/** userAlreadyExists answers a sign-up with a registered email (autoconfirm on). */
export const userAlreadyExists = () => new ApiError(422, 'user_already_exists', 'User already registered');

/** emailExists answers an admin create or email change to a taken address. */
export const emailExists = () =>
  new ApiError(422, 'email_exists', 'A user with this email address has already been registered');

/** usernameExists (Basalt) answers a taken user_metadata.username. */
const usernameExists = () => new ApiError(422, 'username_exists', 'Username is already taken');

/** samePassword refuses a password change to the current password. */
export const samePassword = () =>
  new ApiError(422, 'same_password', 'New password should be different from the old password.');

/** refreshTokenNotFound answers an unknown or malformed refresh token. */
export const refreshTokenNotFound = () =>
  new ApiError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

/** refreshTokenAlreadyUsed answers a rotated token reused after the reuse window. */
export const refreshTokenAlreadyUsed = () =>
  new ApiError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');

/** sessionNotFound answers a token whose session has ended (400 on refresh, 403 with a JWT). */
export const sessionNotFound = (status: 400 | 403) =>
  new ApiError(
    status,
    'session_not_found',
    status === 400
      ? 'Invalid Refresh Token: No Valid Session Found'
      : 'Session from session_id claim in JWT does not exist',
  );

/** noAuthorization answers a missing bearer token. */
export const noAuthorization = () =>
  new ApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');

/** badJwt answers an invalid, expired or subject-less bearer token. */
export const badJwt = (detail: string) => new ApiError(403, 'bad_jwt', detail);

/** userNotFound answers a deleted user's token (403) or an unknown admin id (404). */
export const userNotFound = (status: 403 | 404) =>
  new ApiError(
    status,
    'user_not_found',
    status === 403 ? 'User from sub claim in JWT does not exist' : 'User not found',
  );

/** notAdmin refuses /admin/* to anything but the service key, and app_metadata from a user. */
export const notAdmin = () => new ApiError(403, 'not_admin', 'User not allowed');

/** otpExpired answers a wrong or expired verification token. */
export const otpExpired = (msg = 'Token has expired or is invalid') => new ApiError(403, 'otp_expired', msg);

/** overRequestRateLimit is the 429 of the sign-in, sign-up, recover, verify and refresh limits. */
export const overRequestRateLimit = (retryAfterSeconds: number) =>
  new ApiError(429, 'over_request_rate_limit', 'Request rate limit reached', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

/** overEmailSendRateLimit refuses another mail to the same address too soon. */
export const overEmailSendRateLimit = (seconds: number) =>
  new ApiError(
    429,
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${seconds} seconds.`,
    { headers: { 'Retry-After': String(seconds) } },
  );

/** featureDisabled answers an out-of-scope GoTrue endpoint. */
export const featureDisabled = (code: string, msg: string) => new ApiError(422, code, msg);

/** clashError turns an account clash into GoTrue's 422 (`emailError` for the email); other errors pass through. */
export function clashError(error: unknown, emailError: () => ApiError = emailExists): unknown {
  if (error instanceof UniqueViolation) return error.column === 'email' ? emailError() : usernameExists();
  return error;
}
