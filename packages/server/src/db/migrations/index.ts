import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';
import { accountsMigration } from './0001_accounts.js';
import { tablesMigration } from './0002_tables.js';
import { apiKeysMigration } from './0003_api_keys.js';
import { checkpointsMigration } from './0004_checkpoints.js';
import { logsMigration } from './0005_logs.js';
import { logsSearchMigration } from './0006_logs_search.js';
import { eventOutboxMigration } from './0007_event_outbox.js';
import { edgeFunctionsMigration } from './0008_edge_functions.js';
import { secretsMigration } from './0009_secrets.js';
import { projectsMigration } from './0010_projects.js';
import { changeHistoryCountsMigration } from './0011_change_history_counts.js';
import { appsMigration } from './0012_apps.js';
import { tableAccessMigration } from './0013_table_access.js';
import { sqlExecutionMigration } from './0014_sql_execution.js';
import { changeHistoryIndexesMigration } from './0015_change_history_indexes.js';
import { tableRowCountsMigration } from './0016_table_row_counts.js';
import { billingMigration } from './0017_billing.js';
import { usageStorageMigration } from './0018_usage_storage.js';
import { authProtocolMigration } from './0020_auth_protocol.js';
import { functionRoutesPerAccountMigration } from './0021_function_routes_per_account.js';
import { backupsMigration } from './0032_backups.js';
import { storageMigration } from './0033_storage.js';
import { monitoringMigration } from './0036_monitoring.js';
import { performanceInsightsMigration } from './0037_performance_insights.js';
import { userAchievementsMigration } from './0038_user_achievements.js';
import { sqlFunctionsMigration } from './0039_sql_functions.js';
import { storageUsageMigration } from './0040_storage_usage.js';
import { sqlFunctionOverloadsMigration } from './0041_sql_function_overloads.js';
import { changeCascadesMigration } from './0042_change_cascades.js';
import { queryShapesMigration } from './0043_query_shapes.js';

/** systemMigrations lists every numbered system migration, oldest first; names never change. */
export function systemMigrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001_accounts': accountsMigration(dialect),
    '0002_tables': tablesMigration(dialect),
    '0003_api_keys': apiKeysMigration(dialect),
    '0004_checkpoints': checkpointsMigration(dialect),
    '0005_logs': logsMigration(dialect),
    '0006_logs_search': logsSearchMigration(dialect),
    '0007_event_outbox': eventOutboxMigration(dialect),
    '0008_edge_functions': edgeFunctionsMigration(dialect),
    '0009_secrets': secretsMigration(dialect),
    '0010_projects': projectsMigration(dialect),
    '0011_change_history_counts': changeHistoryCountsMigration(),
    '0012_apps': appsMigration(dialect),
    '0013_table_access': tableAccessMigration(),
    '0014_sql_execution': sqlExecutionMigration(dialect),
    '0015_change_history_indexes': changeHistoryIndexesMigration(),
    '0016_table_row_counts': tableRowCountsMigration(dialect),
    '0017_billing': billingMigration(dialect),
    '0018_usage_storage': usageStorageMigration(),
    '0020_auth_protocol': authProtocolMigration(),
    '0032_backups': backupsMigration(),
    '0021_function_routes_per_account': functionRoutesPerAccountMigration(),
    '0036_monitoring': monitoringMigration(dialect),
    '0037_performance_insights': performanceInsightsMigration(dialect),
    '0033_storage': storageMigration(),
    '0040_storage_usage': storageUsageMigration(),
    '0038_user_achievements': userAchievementsMigration(),
    '0043_query_shapes': queryShapesMigration(),
    '0039_sql_functions': sqlFunctionsMigration(dialect),
    '0041_sql_function_overloads': sqlFunctionOverloadsMigration(),
    '0042_change_cascades': changeCascadesMigration(),
  };
}
