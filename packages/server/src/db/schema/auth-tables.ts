import type { Generated } from 'kysely';

// The console accounts' and apps' end users' auth: accounts, sessions, tokens, identities, MFA, flows, keys.
// Timestamps are ISO-8601 UTC strings and JSON is text on both engines, so that stores read the same values from
// SQLite and PostgreSQL; booleans are 0/1 integers for the same reason.

/** AccountsTable holds sign-in accounts (GoTrue users) and the application user's fields. */
export interface AccountsTable {
  id: string;
  email: string;
  username: string | null;
  /** Lower-cased username, unique, so that usernames clash case-insensitively. */
  username_key: string | null;
  password_hash: string | null;
  is_admin: number;
  email_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  recovery_sent_at: string | null;
  new_email: string | null;
  email_change_sent_at: string | null;
  last_sign_in_at: string | null;
  banned_until: string | null;
  user_metadata: string;
  app_metadata: string;
  marketing_emails: number;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_status: string | null;
  subscription_plan: string | null;
  subscription_renewal_date: string | null;
  cancel_at_period_end: number | null;
  /** Start of the Stripe subscription's current period; null: the calendar month (migration 0017). */
  subscription_period_start: string | null;
  /** `created` (Unix seconds) of the newest Stripe event applied to the subscription fields. */
  subscription_event_at: number | string | null;
  /** 1 for an anonymous user (signInAnonymously); its email column holds `anonymous:<id>`. */
  is_anonymous: number;
  invited_at: string | null;
  reauthentication_sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** AuthSessionsTable holds server-side sessions (the access token's session_id). */
export interface AuthSessionsTable {
  id: string;
  account_id: string;
  /** JSON array of {method, timestamp}, kept across refreshes. */
  amr: string;
  /** Hash of the console's session cookie when the session came from /api/auth/login. */
  cookie_token_hash: string | null;
  user_agent: string | null;
  ip: string | null;
  /** The session's authenticator assurance level: aal1, or aal2 once an MFA factor was verified in it. */
  aal: string;
  /** The factor that raised the session to aal2. */
  factor_id: string | null;
  created_at: string;
  updated_at: string;
}

/** RefreshTokensTable holds hashed, rotating refresh tokens. */
export interface RefreshTokensTable {
  id: Generated<number>;
  token_hash: string;
  session_id: string;
  account_id: string;
  parent_id: number | null;
  revoked: number;
  revoked_at: string | null;
  created_at: string;
}

/** OneTimeTokensTable holds hashed confirmation, recovery and email-change tokens. */
export interface OneTimeTokensTable {
  id: Generated<number>;
  account_id: string;
  kind: string;
  email: string;
  token_hash: string;
  otp_hash: string;
  created_at: string;
  expires_at: string;
  /** The PKCE flow a mail link belongs to (auth_flow_states): its link leads to `?code=`. */
  flow_state_id: string | null;
}

/** IdentitiesTable holds users' identities (email and OAuth/OIDC providers); the same columns in both pools. */
export interface IdentitiesTable {
  id: string;
  account_id: string;
  /** The app whose user this is (its owner's account id); '' in the console accounts' table. */
  app_id: string;
  provider: string;
  /** The provider's subject (the user's id for the email identity). */
  provider_id: string;
  identity_data: string;
  email: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

/** MfaFactorsTable holds MFA factors (TOTP); the secret is sealed. */
export interface MfaFactorsTable {
  id: string;
  account_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  secret: string;
  last_challenged_at: string | null;
  /** The last TOTP time step accepted (bigint: a string from PostgreSQL). */
  last_used_step: number | string | null;
  created_at: string;
  updated_at: string;
}

/** MfaChallengesTable holds the challenges of MFA factors. */
export interface MfaChallengesTable {
  id: string;
  factor_id: string;
  ip: string;
  created_at: string;
  verified_at: string | null;
}

/** AuthFlowStatesTable holds PKCE and OAuth flows of every user pool ('' app_ref: the console accounts). */
export interface AuthFlowStatesTable {
  id: string;
  app_ref: string;
  kind: string;
  provider: string | null;
  user_id: string | null;
  link_user_id: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  auth_code_hash: string | null;
  auth_code_issued_at: string | null;
  redirect_to: string;
  nonce: string | null;
  provider_verifier: string | null;
  provider_token: string | null;
  provider_refresh_token: string | null;
  created_at: string;
}

/** SigningKeysTable holds the instance's JWT signing keys (DESIGN.md "APIs"). */
export interface SigningKeysTable {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created_at: string;
  retired_at: string | null;
}

/** AppsTable holds each account's app (migration 0012): its ref, its two key JWTs and its auth settings. */
export interface AppsTable {
  account_id: string;
  /** The `ref` claim of the app's keys and of its users' tokens: 20 lower-case letters, unique. */
  ref: string;
  anon_key: string;
  service_key: string;
  /** JSON of AppSettings; missing keys take their defaults. */
  settings: string;
  created_at: string;
  updated_at: string;
}

/** AppUsersTable holds the end users of apps: the GoTrue columns of AccountsTable, per app. */
export interface AppUsersTable {
  id: string;
  app_id: string;
  email: string;
  username: string | null;
  username_key: string | null;
  password_hash: string | null;
  email_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  recovery_sent_at: string | null;
  new_email: string | null;
  email_change_sent_at: string | null;
  last_sign_in_at: string | null;
  banned_until: string | null;
  user_metadata: string;
  app_metadata: string;
  /** 1 for an anonymous user (signInAnonymously); its email column holds `anonymous:<id>`. */
  is_anonymous: number;
  invited_at: string | null;
  reauthentication_sent_at: string | null;
  created_at: string;
  updated_at: string;
}
