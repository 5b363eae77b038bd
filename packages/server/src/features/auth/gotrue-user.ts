import { randomUUID } from 'node:crypto';
import { uuidFromHash } from '../../lib/crypto/tokens.js';
import { type AccountRow, type Metadata, parseMetadata } from './accounts.service.js';

// The User, Identity and Session objects of protocol §2.2. Unset *_at fields are omitted, never null.

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

/** appMetadataOf is the server-controlled app_metadata: stored keys plus the email provider. */
export function appMetadataOf(account: AccountRow): Metadata {
  return { ...parseMetadata(account.app_metadata), provider: 'email', providers: ['email'] };
}

/** userMetadataOf is user_metadata with the identity's keys mirrored, as GoTrue does. */
export function userMetadataOf(account: AccountRow): Metadata {
  return { ...parseMetadata(account.user_metadata), ...identityData(account) };
}

function identityData(account: AccountRow): Metadata {
  return {
    email: account.email,
    email_verified: account.email_confirmed_at !== null,
    phone_verified: false,
    sub: account.id,
  };
}

function optional(fields: Record<string, string | null>): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== null) present[key] = value;
  return present;
}

/** toGoTrueUser renders an account as GoTrue's User (one `email` identity). */
export function toGoTrueUser(account: AccountRow): GoTrueUser {
  const identity = {
    // Basalt keeps no identities table: the email identity's id is derived from the account id.
    identity_id: uuidFromHash(`email-identity:${account.id}`),
    id: account.id,
    user_id: account.id,
    identity_data: identityData(account),
    provider: 'email',
    email: account.email,
    ...optional({ last_sign_in_at: account.last_sign_in_at }),
    created_at: account.created_at,
    updated_at: account.updated_at,
  };
  return {
    id: account.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: account.email,
    ...optional({ email_confirmed_at: account.email_confirmed_at }),
    phone: '',
    ...optional({
      confirmed_at: account.email_confirmed_at,
      confirmation_sent_at: account.confirmation_sent_at,
      recovery_sent_at: account.recovery_sent_at,
      email_change_sent_at: account.email_change_sent_at,
      new_email: account.new_email,
      last_sign_in_at: account.last_sign_in_at,
      banned_until: account.banned_until,
    }),
    app_metadata: appMetadataOf(account),
    user_metadata: userMetadataOf(account),
    identities: [identity],
    created_at: account.created_at,
    updated_at: account.updated_at,
    is_anonymous: false,
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
export function toGoTrueSession(issued: IssuedSession, account: AccountRow): Record<string, unknown> {
  return {
    access_token: issued.accessToken,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    expires_at: issued.expiresAt,
    refresh_token: issued.refreshToken,
    user: toGoTrueUser(account),
  };
}
