// System tables, one file per area (db/schema/), and the Kysely view of them all. Timestamps are ISO-8601 UTC
// strings and JSON is text on both engines, so that stores read the same values from SQLite and PostgreSQL;
// booleans are 0/1 integers for the same reason.

import type {
  AccountsTable,
  AppsTable,
  AppUsersTable,
  AuthFlowStatesTable,
  AuthSessionsTable,
  IdentitiesTable,
  MfaChallengesTable,
  MfaFactorsTable,
  OneTimeTokensTable,
  RefreshTokensTable,
  SigningKeysTable,
} from './schema/auth-tables.js';
import type { BackupLeasesTable, BackupSettingsTable, DatabaseBackupsTable } from './schema/backup-tables.js';
import type {
  InvoicesTable,
  NotificationsTable,
  StripeEventsTable,
  UsageBatchesTable,
  UserUsageTable,
} from './schema/billing-tables.js';
import type {
  ActivityLogsTable,
  ApiKeysTable,
  ChangeHistoryCountsTable,
  ChangeHistoryTable,
  CheckpointsTable,
  TableRowCountsTable,
  UserTablesTable,
} from './schema/data-tables.js';
import type {
  AccountDataKeysTable,
  EdgeFunctionsTable,
  EdgeFunctionVersionsTable,
  FunctionInvocationsTable,
  FunctionUsageTable,
  SecretsTable,
  SqlFunctionsTable,
} from './schema/function-tables.js';
import type { PerformanceInsightsTable, QueryShapesTable, UserAchievementsTable } from './schema/insight-tables.js';
import type { InstanceSettingsTable, RateLimitsTable, SystemLogsTable } from './schema/instance-tables.js';
import type {
  DatabaseHealthTable,
  RequestMetricBatchesTable,
  RequestMetricsTable,
} from './schema/monitoring-tables.js';
import type {
  DatabaseConnectionsTable,
  FileStorageTable,
  ProjectMembershipsTable,
  ProjectsTable,
  QueryHistoryTable,
  SchemaLayoutsTable,
  SchemaLayoutVersionsTable,
  TableProjectsTable,
} from './schema/project-tables.js';
import type {
  StorageBucketsTable,
  StorageObjectsTable,
  StorageResumableUploadsTable,
  StorageUsageTable,
} from './schema/storage-tables.js';

export type {
  AccountsTable,
  AppsTable,
  AppUsersTable,
  AuthFlowStatesTable,
  AuthSessionsTable,
  IdentitiesTable,
  MfaChallengesTable,
  MfaFactorsTable,
  OneTimeTokensTable,
  RefreshTokensTable,
  SigningKeysTable,
} from './schema/auth-tables.js';
export type { BackupLeasesTable, BackupSettingsTable, DatabaseBackupsTable } from './schema/backup-tables.js';
export type {
  InvoicesTable,
  NotificationsTable,
  StripeEventsTable,
  UsageBatchesTable,
  UserUsageTable,
} from './schema/billing-tables.js';
export type {
  ActivityLogsTable,
  ApiKeysTable,
  ChangeHistoryCountsTable,
  ChangeHistoryTable,
  CheckpointsTable,
  TableRowCountsTable,
  UserTablesTable,
} from './schema/data-tables.js';
export type {
  AccountDataKeysTable,
  EdgeFunctionsTable,
  EdgeFunctionVersionsTable,
  FunctionInvocationsTable,
  FunctionUsageTable,
  SecretsTable,
} from './schema/function-tables.js';
export type { InstanceSettingsTable, RateLimitsTable, SystemLogsTable } from './schema/instance-tables.js';
export type {
  DatabaseConnectionsTable,
  FileStorageTable,
  ProjectMembershipsTable,
  ProjectsTable,
  QueryHistoryTable,
  SchemaLayoutsTable,
  SchemaLayoutVersionsTable,
  TableProjectsTable,
} from './schema/project-tables.js';

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
  sql_functions: SqlFunctionsTable;
  account_data_keys: AccountDataKeysTable;
  user_usage: UserUsageTable;
  usage_batches: UsageBatchesTable;
  invoices: InvoicesTable;
  stripe_events: StripeEventsTable;
  notifications: NotificationsTable;
  database_backups: DatabaseBackupsTable;
  backup_settings: BackupSettingsTable;
  backup_leases: BackupLeasesTable;
  request_metrics: RequestMetricsTable;
  request_metric_batches: RequestMetricBatchesTable;
  database_health: DatabaseHealthTable;
  performance_insights: PerformanceInsightsTable;
  query_shapes: QueryShapesTable;
  user_achievements: UserAchievementsTable;
  storage_buckets: StorageBucketsTable;
  storage_objects: StorageObjectsTable;
  storage_usage: StorageUsageTable;
  storage_resumable_uploads: StorageResumableUploadsTable;
}
