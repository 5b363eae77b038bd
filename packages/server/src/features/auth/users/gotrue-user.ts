import { randomUUID } from 'node:crypto';
import { type Metadata, parseMetadata } from './accounts.service.js';
import type { IdentityRow } from './identities.store.js';
import type { FactorRow } from './mfa.store.js';
import type { UserRow } from './user-pool.js';

// GoTrue's User, Identity and Session objects. Unset *_at fields are omitted, never null.

/** GoTrueUser is the User object supabase-js receives. */
export type GoTrueUser = Record<string, unknown> & { id: string; email: string };

/** IssuedSession is a freshly signed access token with its refresh token and session. */
export interface IssuedSession {
  accessToken: string;
  expiresIn: number;
  expiresAt: number;
  refreshToken: string;
  sessionId: string;
}

/** UserRelations are what a User shows besides its own row: its identities and MFA factors. */
export interface UserRelations {
  identities: IdentityRow[];
  factors: FactorRow[];
}

/**
 * appMetadataOf is the server-controlled app_metadata as stored; users stored before identities were (all email
 * users) get GoTrue's email provider keys. Anonymous users have none (GoTrue's).
 */
export function appMetadataOf(account: UserRow): Metadata {
  const stored = parseMetadata(account.app_metadata);
  if (account.is_anonymous === 1 || 'provider' in stored) return stored;
  return { ...stored, provider: 'email', providers: ['email'] };
}

/** userMetadataOf is user_metadata exactly as stored (sign-ups store the identity's keys in it, as GoTrue). */
export function userMetadataOf(account: UserRow): Metadata {
  return parseMetadata(account.user_metadata);
}

/** emailOf is the address a user shows: "" for an anonymous user. */
export const emailOf = (account: UserRow) => (account.is_anonymous === 1 ? '' : account.email);

function optional(fields: Record<string, string | null>): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== null) present[key] = value;
  return present;
}

/** toGoTrueIdentity renders one identity as GoTrue's Identity. */
export function toGoTrueIdentity(identity: IdentityRow): Record<string, unknown> {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.account_id,
    identity_data: parseMetadata(identity.identity_data),
    provider: identity.provider,
    ...optional({ email: identity.email, last_sign_in_at: identity.last_sign_in_at }),
    created_at: identity.created_at,
    updated_at: identity.updated_at,
  };
}

/** toGoTrueFactor renders one MFA factor as GoTrue's Factor (never its secret). */
export function toGoTrueFactor(factor: FactorRow): Record<string, unknown> {
  return {
    id: factor.id,
    ...optional({ friendly_name: factor.friendly_name || null }),
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: factor.created_at,
    updated_at: factor.updated_at,
    last_challenged_at: factor.last_challenged_at,
  };
}

/** toGoTrueUser renders a user as GoTrue's User, with its identities and (when it has any) factors. */
export function toGoTrueUser(account: UserRow, related: UserRelations): GoTrueUser {
  return {
    id: account.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: emailOf(account),
    ...optional({ email_confirmed_at: account.email_confirmed_at }),
    phone: '',
    ...optional({
      confirmed_at: account.email_confirmed_at,
      confirmation_sent_at: account.confirmation_sent_at,
      recovery_sent_at: account.recovery_sent_at,
      email_change_sent_at: account.email_change_sent_at,
      new_email: account.new_email,
      invited_at: account.invited_at,
      reauthentication_sent_at: account.reauthentication_sent_at,
      last_sign_in_at: account.last_sign_in_at,
      banned_until: account.banned_until,
    }),
    app_metadata: appMetadataOf(account),
    user_metadata: userMetadataOf(account),
    identities: related.identities.map(toGoTrueIdentity),
    ...(related.factors.length > 0 ? { factors: related.factors.map(toGoTrueFactor) } : {}),
    created_at: account.created_at,
    updated_at: account.updated_at,
    is_anonymous: account.is_anonymous === 1,
  };
}

/**
 * fakeGoTrueUser is the answer to a sign-up with an already confirmed email when confirmation is on:
 * a random id and no identities, so the response does not reveal that the account exists.
 */
export function fakeGoTrueUser(email: string, now: Date): GoTrueUser {
  const at = now.toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    confirmation_sent_at: at,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    identities: [],
    created_at: at,
    updated_at: at,
    is_anonymous: false,
  };
}

/** toGoTrueSession renders GoTrue's Session (the /token, /signup and /verify response). */
export function toGoTrueSession(
  issued: IssuedSession,
  account: UserRow,
  related: UserRelations,
): Record<string, unknown> {
  return {
    access_token: issued.accessToken,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    expires_at: issued.expiresAt,
    refresh_token: issued.refreshToken,
    user: toGoTrueUser(account, related),
  };
}
