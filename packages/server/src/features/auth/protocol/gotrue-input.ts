import { emailSchema } from '@basalt/shared';
import { z } from 'zod';
import { validationFailed } from './gotrue-errors.js';

// Request shapes of the GoTrue endpoints. Unknown fields (gotrue_meta_security,
// code_challenge, …) are ignored and null means absent; each message is the `msg` of a 400 validation_failed.

const BODY_MESSAGE = 'Request body must be a JSON object';
const metadata = (field: string) =>
  z.record(z.string(), z.unknown(), { error: `${field} must be a JSON object` }).nullish();
const text = (message: string) => z.string({ error: message }).nullish();
// PKCE: code_challenge and its method (both or neither; pkce.service.ts checks them).
const pkce = {
  code_challenge: text('code_challenge must be a string'),
  code_challenge_method: text('code_challenge_method must be a string'),
};

/** signupBodySchema is POST /signup. */
export const signupBodySchema = z.object(
  {
    email: text('Unable to validate email address: invalid format'),
    phone: text('Invalid phone number format'),
    password: text('Signup requires a valid password'),
    data: metadata('data'),
    ...pkce,
  },
  { error: BODY_MESSAGE },
);

/** passwordGrantSchema is POST /token?grant_type=password. */
export const passwordGrantSchema = z.object(
  {
    email: text('Unable to validate email address: invalid format'),
    phone: text('Invalid phone number format'),
    password: text('Password must be a string'),
  },
  { error: BODY_MESSAGE },
);

/** refreshGrantSchema is POST /token?grant_type=refresh_token. */
export const refreshGrantSchema = z.object(
  { refresh_token: z.string({ error: 'refresh_token required' }).min(1, 'refresh_token required') },
  { error: BODY_MESSAGE },
);

/** updateUserBodySchema is PUT /user. */
export const updateUserBodySchema = z.object(
  {
    email: text('Unable to validate email address: invalid format'),
    phone: text('Invalid phone number format'),
    password: text('Password must be a string'),
    current_password: text('current_password must be a string'),
    nonce: text('nonce must be a string'),
    data: metadata('data'),
    app_metadata: z.unknown().optional(),
    ...pkce,
  },
  { error: BODY_MESSAGE },
);

/** recoverBodySchema is POST /recover. */
export const recoverBodySchema = z.object(
  {
    email: z.string({ error: 'Password recovery requires an email' }).min(1, 'Password recovery requires an email'),
    ...pkce,
  },
  { error: BODY_MESSAGE },
);

/** otpBodySchema is POST /otp (signInWithOtp). */
export const otpBodySchema = z.object(
  {
    email: text('Unable to validate email address: invalid format'),
    phone: text('Invalid phone number format'),
    data: metadata('data'),
    create_user: z.boolean({ error: 'create_user must be a boolean' }).nullish(),
    channel: text('channel must be a string'),
    ...pkce,
  },
  { error: BODY_MESSAGE },
);

/** resendBodySchema is POST /resend. */
export const resendBodySchema = z.object(
  {
    type: text('type must be a string'),
    email: text('Unable to validate email address: invalid format'),
    phone: text('Invalid phone number format'),
    ...pkce,
  },
  { error: BODY_MESSAGE },
);

/** inviteBodySchema is POST /invite (inviteUserByEmail). */
export const inviteBodySchema = z.object(
  { email: text('Unable to validate email address: invalid format'), data: metadata('data') },
  { error: BODY_MESSAGE },
);

/** generateLinkBodySchema is POST /admin/generate_link. */
export const generateLinkBodySchema = z.object(
  {
    type: text('type must be a string'),
    email: text('Unable to validate email address: invalid format'),
    new_email: text('Unable to validate email address: invalid format'),
    password: text('Password must be a string'),
    data: metadata('data'),
    redirect_to: text('redirect_to must be a string'),
    redirectTo: text('redirect_to must be a string'),
  },
  { error: BODY_MESSAGE },
);

/** pkceGrantSchema is POST /token?grant_type=pkce (exchangeCodeForSession). */
export const pkceGrantSchema = z.object(
  {
    auth_code: z.string({ error: 'auth_code must be a string' }).nullish(),
    code_verifier: z.string({ error: 'code_verifier must be a string' }).nullish(),
  },
  { error: BODY_MESSAGE },
);

/** idTokenGrantSchema is POST /token?grant_type=id_token (signInWithIdToken, linkIdentity with a token). */
export const idTokenGrantSchema = z.object(
  {
    id_token: text('id_token must be a string'),
    provider: text('provider must be a string'),
    nonce: text('nonce must be a string'),
    access_token: text('access_token must be a string'),
    client_id: text('client_id must be a string'),
    issuer: text('issuer must be a string'),
    link_identity: z.boolean({ error: 'link_identity must be a boolean' }).nullish(),
  },
  { error: BODY_MESSAGE },
);

/** factorEnrollSchema is POST /factors. */
export const factorEnrollSchema = z.object(
  {
    factor_type: text('factor_type must be a string'),
    friendly_name: text('friendly_name must be a string'),
    issuer: text('issuer must be a string'),
    phone: text('Invalid phone number format'),
  },
  { error: BODY_MESSAGE },
);

/** factorVerifySchema is POST /factors/{id}/verify. */
export const factorVerifySchema = z.object(
  {
    challenge_id: text('challenge_id must be a UUID'),
    code: z.union([z.string(), z.number()], { error: 'code must be a string' }).nullish(),
  },
  { error: BODY_MESSAGE },
);

/** verifyBodySchema is POST /verify. */
export const verifyBodySchema = z.object(
  {
    type: z.string({ error: 'Verify requires a verification type' }).min(1, 'Verify requires a verification type'),
    token: text('token must be a string'),
    token_hash: text('token_hash must be a string'),
    email: text('Unable to validate email address: invalid format'),
    phone: text('Invalid phone number format'),
  },
  { error: BODY_MESSAGE },
);

/** adminUserBodySchema is POST and PUT /admin/users[/{id}] (AdminUserAttributes). */
export const adminUserBodySchema = z.object(
  {
    id: text('id must be a UUID'),
    email: text('Unable to validate email address: invalid format'),
    phone: text('Invalid phone number format'),
    password: text('Password must be a string'),
    password_hash: text('password_hash must be a string'),
    email_confirm: z.boolean({ error: 'email_confirm must be a boolean' }).nullish(),
    user_metadata: metadata('user_metadata'),
    app_metadata: metadata('app_metadata'),
    ban_duration: text('ban_duration must be a string'),
  },
  { error: BODY_MESSAGE },
);

/** parseGoTrue validates a GoTrue body (an absent body reads as {}); the first problem's message is the `msg`. */
export function parseGoTrue<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw validationFailed(result.error.issues[0]?.message ?? 'Invalid request body');
}

/** gotrueEmail validates and lower-cases an email with the shared rule (at most 100 characters). */
export function gotrueEmail(email: string): string {
  const result = emailSchema.safeParse(email);
  if (result.success) return result.data.toLowerCase();
  const tooLong = result.error.issues.some((i) => i.code === 'too_big');
  throw validationFailed(
    tooLong ? 'Email cannot exceed 100 characters' : 'Unable to validate email address: invalid format',
  );
}

/** UUID_PATTERN matches the lower- or upper-case textual form of a UUID. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** queryOf reads a request's query string as string values (arrays keep their first value). */
export function queryOf(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (!query || typeof query !== 'object') return out;
  for (const [key, value] of Object.entries(query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}
