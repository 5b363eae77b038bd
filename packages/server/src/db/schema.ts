import type { Generated } from 'kysely';

// System tables. Timestamps are ISO-8601 UTC strings and JSON is text on both engines, so that
// stores read the same values from SQLite and PostgreSQL; booleans are 0/1 integers for the same reason.

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

/** InstanceSettingsTable holds instance-wide values created at first start. */
export interface InstanceSettingsTable {
  key: string;
  value: string;
}

/** RateLimitsTable holds fixed-window counters shared by every server process. */
export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

/** ActivityLogsTable holds the per-account activity feed. */
export interface ActivityLogsTable {
  id: Generated<number>;
  account_id: string;
  action: string;
  resource: string;
  details: string | null;
  created_at: string;
}

/** UserTablesTable holds table definitions; each one's rows live in the real table `t_<id>`. */
export interface UserTablesTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  /** Lower-cased name, unique per account, so that table names clash case-insensitively. */
  name_key: string;
  description: string | null;
  /** JSON object of the user's columns (name → {type, required, unique}), in order; system columns implied. */
  schema: string;
  /** Incremented by every change of the definition, so a cached copy can tell it is stale. */
  schema_version: number;
  created_at: string;
  updated_at: string;
}

/** ChangeHistoryTable holds every schema and record change; it outlives the table it describes. */
export interface ChangeHistoryTable {
  id: Generated<number>;
  account_id: string;
  table_id: number;
  table_name: string;
  record_id: number | null;
  change_type: string;
  /** JSON of the state before the change (null for creations). */
  previous_state: string | null;
  /** JSON of the state after the change (null for deletions). */
  new_state: string | null;
  actor_id: string | null;
  created_at: string;
  /** The change a revert undid; null for every other change (migration 0004). */
  revert_of: number | null;
}

/** CheckpointsTable holds named checkpoints: a table's latest change when each was made (null: it had none). */
export interface CheckpointsTable {
  id: Generated<number>;
  account_id: string;
  table_id: number;
  name: string;
  description: string | null;
  change_id: number | null;
  created_by: string | null;
  created_at: string;
}

/** ApiKeysTable holds the public record API's keys: a hash of each secret, never the secret itself. */
export interface ApiKeysTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  /** sha256 (hex) of the whole secret; unique, looked up by every API-key request. */
  key_hash: string;
  /** The secret's first characters (`bsk_` + 8), shown in the console to tell keys apart. */
  prefix: string;
  created_at: string;
  /** When the key was last used, to the minute (refreshed at most once a minute per process). */
  last_used_at: string | null;
}

/** SystemLogsTable holds Basalt's own log: requests, auth events, unexpected errors, background jobs (features/logs). */
export interface SystemLogsTable {
  id: Generated<number>;
  created_at: string;
  /** debug, info, warn or error. */
  level: string;
  /** api, auth or jobs (the logs page's service). */
  source: string;
  message: string;
  /** The request's path without its query string, when the entry is about a request. */
  path: string | null;
  /** The account whose request it was; null for entries only an administrator sees. */
  account_id: string | null;
  /** JSON object of facts about the entry (method, status, duration…), never secrets. */
  context: string;
}

/** SystemDatabase is the Kysely view of every system table. */
export interface SystemDatabase {
  accounts: AccountsTable;
  auth_sessions: AuthSessionsTable;
  refresh_tokens: RefreshTokensTable;
  one_time_tokens: OneTimeTokensTable;
  signing_keys: SigningKeysTable;
  instance_settings: InstanceSettingsTable;
  rate_limits: RateLimitsTable;
  activity_logs: ActivityLogsTable;
  user_tables: UserTablesTable;
  change_history: ChangeHistoryTable;
  api_keys: ApiKeysTable;
  checkpoints: CheckpointsTable;
  system_logs: SystemLogsTable;
}
