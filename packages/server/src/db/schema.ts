import type { ColumnType, Generated } from 'kysely';

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
  /** JSON of the access rules (migration 0013); null: the default, nobody but the owner. */
  access: string | null;
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

/** DatabaseConnectionsTable holds a project's SQL targets (features/sql); secrets only sealed. */
export interface DatabaseConnectionsTable {
  id: Generated<number>;
  project_id: string;
  user_id: string;
  name: string;
  provider: string;
  engine: string;
  /** The connection string with its password masked, or null when given by details. */
  connection_string: string | null;
  /** JSON of the details without the password, or null when given by a string. */
  connection_details: string | null;
  /** The connection string or details in full, sealed (features/sql/connection-secrets.ts). */
  secret_sealed: string;
  is_active: number;
  last_connected: string | null;
  created_at: string;
  updated_at: string;
}

/** FileStorageTable holds uploaded files; their bytes are in the file storage under file_path (lib/storage). */
export interface FileStorageTable {
  id: Generated<number>;
  project_id: string;
  user_id: string;
  file_name: string;
  file_type: string;
  file_path: string;
  file_size: number;
  public_url: string | null;
  /** JSON object: {description}. */
  metadata: string;
  created_at: string;
}

/** QueryHistoryTable holds one row per SQL run (features/sql). */
export interface QueryHistoryTable {
  id: Generated<number>;
  project_id: string;
  user_id: string;
  connection_id: number | null;
  file_id: number | null;
  query: string;
  execution_time: number;
  rows_affected: number;
  successful: number;
  error_message: string | null;
  dry_run: number;
  executed_at: string;
}

/** EdgeFunctionsTable holds edge functions (features/functions): the code being edited and the version that runs. */
export interface EdgeFunctionsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  /** Lower-cased name, unique per account. */
  name_key: string;
  code: string;
  /** The URL under /api/edge/ it answers at; unique on the instance. */
  route: string;
  is_active: number;
  /** 1: only a signed-in caller of the account may invoke it (Supabase's verify_jwt). */
  verify_jwt: number;
  /** The edge_function_versions.version that runs; null: never deployed. */
  deployed_version: number | null;
  last_deployed: string | null;
  created_at: string;
  updated_at: string;
}

/** EdgeFunctionVersionsTable holds every deployed version: its source and the bundle Deno runs. */
export interface EdgeFunctionVersionsTable {
  id: Generated<number>;
  function_id: number;
  version: number;
  code: string;
  bundle: string;
  created_at: string;
}

/** FunctionInvocationsTable holds each invocation of a function (its log), kept for a few days. */
export interface FunctionInvocationsTable {
  id: Generated<number>;
  account_id: string;
  function_id: number;
  method: string;
  status: number;
  duration_ms: number;
  cpu_ms: number;
  memory_mb: number;
  error: string | null;
  /** JSON array of {level, message}: the function's console output. */
  logs: string;
  created_at: string;
}

/** FunctionUsageTable counts invocations, errors and compute per function and hour (what billing reads). */
export interface FunctionUsageTable {
  function_id: number;
  /** The hour's start, ISO 8601 UTC. */
  hour: string;
  account_id: string;
  /** bigint columns: PostgreSQL answers them as strings, so stores convert. */
  invocations: number | string;
  errors: number | string;
  cpu_ms: number | string;
  duration_ms: number | string;
}

/** SecretsTable holds the secrets functions read: an encrypted value is AES-256-GCM ciphertext (lib/crypto). */
export interface SecretsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  value: string;
  is_encrypted: number;
  created_at: string;
}

/** AccountDataKeysTable holds each account's secrets key, wrapped by the master key named by master_key_id. */
export interface AccountDataKeysTable {
  account_id: string;
  wrapped_key: string;
  master_key_id: string;
  created_at: string;
}

/** ProjectsTable holds projects, the team workspaces accounts are members of (migration 0010). */
export interface ProjectsTable {
  id: string;
  name: string;
  description: string | null;
  owner_id: string;
  icon: string | null;
  color: string | null;
  is_active: number;
  created_at: string;
  updated_at: string;
}

/** ProjectMembershipsTable holds who is a member of which project, with which role. */
export interface ProjectMembershipsTable {
  id: Generated<number>;
  project_id: string;
  account_id: string;
  /** OWNER, ADMIN, DEVELOPER, EDITOR or VIEWER. */
  role: string;
  joined_at: string;
  invited_by: string | null;
  created_at: string;
}

/** TableProjectsTable links tables to projects (no foreign key to user_tables: a restored table keeps its links). */
export interface TableProjectsTable {
  id: Generated<number>;
  table_id: number;
  project_id: string;
  created_at: string;
}

/** SchemaLayoutsTable holds a project's Schema Editor layout: its elements (JSON), version and deleted ids. */
export interface SchemaLayoutsTable {
  id: Generated<number>;
  project_id: string;
  name: string;
  layout: string;
  version: number;
  /** JSON array of the element ids deleted in the room (so a late update cannot bring one back). */
  deleted_ids: string;
  is_default: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** SchemaLayoutVersionsTable keeps a project's recent layout versions, the bases editors' updates merge against. */
export interface SchemaLayoutVersionsTable {
  project_id: string;
  version: number;
  layout: string;
  created_at: string;
}

/** ChangeHistoryCountsTable holds how many history entries each account has of each table, in shards (db/history-counts.ts). */
export interface ChangeHistoryCountsTable {
  account_id: string;
  table_id: number;
  shard: number;
  change_count: number;
}

/** TableRowCountsTable holds each user table's exact row count and write versions, in shards (db/row-counts.ts). */
export interface TableRowCountsTable {
  table_id: number;
  shard: number;
  /** bigint: PostgreSQL returns it as text. */
  row_count: number | string;
  version: number | string;
}

/** SystemDatabase is the Kysely view of every system table. */
/** UserUsageTable counts each account's metered API calls per UTC day, and its storage that day (features/billing). */
export interface UserUsageTable {
  account_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** bigint: PostgreSQL answers it as a string. */
  api_calls: number | string;
  /** The day's highest storage measurement in bytes; null: not measured that day. bigint as api_calls. */
  storage_bytes: ColumnType<number | string | null, number | null | undefined, number | null>;
  last_updated: string;
}

/** UsageBatchesTable holds the ids of metering batches already added, so that a retried one is not added twice. */
export interface UsageBatchesTable {
  id: string;
  created_at: string;
}

/** InvoicesTable holds an account's Stripe invoices; amount in cents. */
export interface InvoicesTable {
  id: Generated<number>;
  account_id: string;
  stripe_invoice_id: string;
  amount: number | string;
  currency: string;
  status: string;
  pdf_url: string | null;
  invoice_date: string;
  /** `created` (Unix seconds) of the newest Stripe event applied to it. */
  event_at: number | string;
  created_at: string;
}

/** StripeEventsTable holds the ids of Stripe webhook events already handled (a replay changes nothing). */
export interface StripeEventsTable {
  id: string;
  type: string;
  processed_at: string;
}

/** NotificationsTable holds messages to an account (usage warnings); dedupe_key makes each one appear once. */
export interface NotificationsTable {
  id: Generated<number>;
  account_id: string;
  dedupe_key: string;
  title: string;
  message: string;
  read_at: string | null;
  created_at: string;
}

/** DatabaseBackupsTable is the catalogue of instance backups (features/backups); a restore keeps it as it is. */
export interface DatabaseBackupsTable {
  id: string;
  project_id: string | null;
  name: string;
  description: string | null;
  /** The archive's size in bytes once written (bigint: a string from PostgreSQL). */
  size: number | string | null;
  /** The archive's file name inside the backups directory. */
  file_path: string | null;
  /** IN_PROGRESS, COMPLETED or FAILED. */
  status: string;
  completed_at: string | null;
  created_by: string | null;
  created_at: string;
  /** manual, scheduled, pre-restore, uploaded or cli. */
  origin: string;
  include_files: number;
  engine: string | null;
  /** The database part's format: sqlite-file, pg-dump or logical. */
  format: string | null;
  migration_level: string | null;
  duration_ms: number | string | null;
  progress_rows: number | string;
  progress_bytes: number | string;
  /** Why the backup failed. */
  error: string | null;
  /** The last restore from this archive: IN_PROGRESS, COMPLETED or FAILED (null: never restored). */
  restore_status: string | null;
  restore_step: string | null;
  restore_error: string | null;
  restore_started_at: string | null;
  restore_finished_at: string | null;
}

/** BackupSettingsTable holds the backup schedule (key `schedule`, JSON). */
export interface BackupSettingsTable {
  key: string;
  value: string;
}

/** BackupLeasesTable holds the lease of the node that backs up or restores (one row, `instance`). */
export interface BackupLeasesTable {
  name: string;
  holder: string;
  /** backup or restore: while a restore holds it, every node refuses writes. */
  operation: string;
  backup_id: string | null;
  expires_at: string;
}

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
  table_row_counts: TableRowCountsTable;
  change_history_counts: ChangeHistoryCountsTable;
  change_history: ChangeHistoryTable;
  api_keys: ApiKeysTable;
  checkpoints: CheckpointsTable;
  system_logs: SystemLogsTable;
  apps: AppsTable;
  app_users: AppUsersTable;
  /** End users' sessions; the same columns as auth_sessions (account_id: the end user). */
  app_sessions: AuthSessionsTable;
  /** End users' refresh tokens; the same columns as refresh_tokens (account_id: the end user). */
  app_refresh_tokens: RefreshTokensTable;
  /** End users' mail tokens; the same columns as one_time_tokens (account_id: the end user). */
  app_one_time_tokens: OneTimeTokensTable;
  identities: IdentitiesTable;
  app_identities: IdentitiesTable;
  mfa_factors: MfaFactorsTable;
  app_mfa_factors: MfaFactorsTable;
  mfa_challenges: MfaChallengesTable;
  app_mfa_challenges: MfaChallengesTable;
  auth_flow_states: AuthFlowStatesTable;
  database_connections: DatabaseConnectionsTable;
  file_storage: FileStorageTable;
  query_history: QueryHistoryTable;
  projects: ProjectsTable;
  project_memberships: ProjectMembershipsTable;
  table_projects: TableProjectsTable;
  schema_layouts: SchemaLayoutsTable;
  schema_layout_versions: SchemaLayoutVersionsTable;
  edge_functions: EdgeFunctionsTable;
  edge_function_versions: EdgeFunctionVersionsTable;
  function_invocations: FunctionInvocationsTable;
  function_usage: FunctionUsageTable;
  secrets: SecretsTable;
  account_data_keys: AccountDataKeysTable;
  user_usage: UserUsageTable;
  usage_batches: UsageBatchesTable;
  invoices: InvoicesTable;
  stripe_events: StripeEventsTable;
  notifications: NotificationsTable;
  database_backups: DatabaseBackupsTable;
  backup_settings: BackupSettingsTable;
  backup_leases: BackupLeasesTable;
}
