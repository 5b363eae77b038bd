import type { TableResponse } from '@basalt/shared';
import type { QueryClient } from '@tanstack/react-query';
import { authKeys } from './auth/auth.keys';
import { dashboardKeys } from './dashboard/dashboard.keys';
import { functionKeys } from './functions/functions.keys';
import { checkpointKeys, historyKeys } from './history/history.keys';
import { keyKeys } from './keys/keys.keys';
import { achievementKeys } from './profile/achievements.keys';
import { projectKeys } from './projects/projects.keys';
import { isRecordsKey, recordKeys } from './records/records.keys';
import { secretKeys } from './secrets/secrets.keys';
import { sqlFunctionKeys } from './sql-functions/sql-functions.keys';
import { tableKeys } from './tables/tables.keys';
import { userKeys } from './users/users.keys';

// What each kind of write makes stale, across features, in one place: a mutation calls the function for its
// write and never names another feature's queries itself. The server records an activity entry for every write
// below, so each refreshes the dashboard's stat cards and activity too.

/** TableRef names a table by id (its definition, history) and by name (its records' data API path). */
export type TableRef = Pick<TableResponse, 'id' | 'name'>;

function refreshDashboard(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.stats });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.activityAll });
  // A write may reach a milestone.
  void queryClient.invalidateQueries({ queryKey: achievementKeys.list });
}

function refreshTableLists(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: tableKeys.list });
  void queryClient.invalidateQueries({ queryKey: tableKeys.apiList });
}

/** refreshAfterRecordWrite: a record created, changed or deleted changes its table's pages and count and history. */
export function refreshAfterRecordWrite(queryClient: QueryClient, table: TableRef): void {
  void queryClient.invalidateQueries({ queryKey: recordKeys.table(table.id) });
  void queryClient.invalidateQueries({ queryKey: recordKeys.count(table.name) });
  void queryClient.invalidateQueries({ queryKey: historyKeys.ofTable(table.id) });
  refreshDashboard(queryClient);
}

/** refreshAfterTableCreate: a new table joins both table lists. */
export function refreshAfterTableCreate(queryClient: QueryClient): void {
  refreshTableLists(queryClient);
  refreshDashboard(queryClient);
}

/**
 * refreshAfterDesignApply: tables created from a project's design join both lists and the project's, and the
 * tables it changed (new columns) are read again.
 */
export function refreshAfterDesignApply(queryClient: QueryClient, projectId: string, changedIds: number[]): void {
  refreshAfterTableCreate(queryClient);
  void queryClient.invalidateQueries({ queryKey: projectKeys.tables(projectId) });
  for (const id of changedIds) void queryClient.invalidateQueries({ queryKey: tableKeys.detail(id) });
}

/** refreshAfterTableDelete: the table leaves the list at once, and its definition and records are forgotten. */
export function refreshAfterTableDelete(queryClient: QueryClient, table: TableRef): void {
  queryClient.setQueryData<TableResponse[]>(tableKeys.list, (list) => list?.filter((t) => t.id !== table.id));
  queryClient.removeQueries({ queryKey: tableKeys.detail(table.id) });
  queryClient.removeQueries({ queryKey: recordKeys.table(table.id) });
  queryClient.removeQueries({ queryKey: recordKeys.count(table.name) });
  refreshTableLists(queryClient);
  refreshDashboard(queryClient);
}

/**
 * refreshAfterSchemaChange: the saved definition replaces the cached one; records are read again under the new
 * name (those under an old name are forgotten: a rename leaves nothing at that path), and the history has a
 * new change.
 */
export function refreshAfterSchemaChange(queryClient: QueryClient, before: TableRef, after: TableResponse): void {
  queryClient.setQueryData(tableKeys.detail(before.id), after);
  refreshTableLists(queryClient);
  queryClient.removeQueries({ queryKey: recordKeys.count(before.name) });
  void queryClient.invalidateQueries({ queryKey: recordKeys.table(after.id) });
  void queryClient.invalidateQueries({ queryKey: historyKeys.ofTable(before.id) });
  refreshDashboard(queryClient);
}

/**
 * refreshAfterTimeTravel: a revert, a version restore or a checkpoint restore rewrote a table's data and maybe
 * its definition. Record queries are keyed by table name and a restore may rename the table, so every data API
 * query goes, the table list among them.
 */
export function refreshAfterTimeTravel(queryClient: QueryClient, tableId: number): void {
  void queryClient.invalidateQueries({ queryKey: tableKeys.detail(tableId) });
  void queryClient.invalidateQueries({ predicate: (query) => isRecordsKey(query.queryKey) });
  void queryClient.invalidateQueries({ queryKey: historyKeys.ofTable(tableId) });
  void queryClient.invalidateQueries({ queryKey: checkpointKeys.ofTable(tableId) });
  // A SQL function's entries are kept under the negative of its id: its definition changed.
  if (tableId < 0) refreshAfterSqlFunctionWrite(queryClient, -tableId);
  refreshDashboard(queryClient);
}

/** refreshAfterSqlFunctionWrite: a SQL function defined, changed, deleted or reverted changes its list and history. */
export function refreshAfterSqlFunctionWrite(queryClient: QueryClient, id: number): void {
  void queryClient.invalidateQueries({ queryKey: sqlFunctionKeys.list });
  void queryClient.invalidateQueries({ queryKey: historyKeys.ofTable(-id) });
  void queryClient.invalidateQueries({ queryKey: historyKeys.functions });
}

/** refreshAfterAccessChange: the saved rules replace the cached definition; the lists and the history change. */
export function refreshAfterAccessChange(queryClient: QueryClient, saved: TableResponse): void {
  queryClient.setQueryData(tableKeys.detail(saved.id), saved);
  refreshTableLists(queryClient);
  void queryClient.invalidateQueries({ queryKey: historyKeys.ofTable(saved.id) });
}

/** refreshAfterUserWrite: an app user added, changed, banned or deleted changes the user lists and the activity. */
export function refreshAfterUserWrite(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: userKeys.all });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.activityAll });
}

/** refreshAfterFunctionWrite: a function created, edited, deployed, rolled back or deleted changes the list. */
export function refreshAfterFunctionWrite(queryClient: QueryClient, id?: number): void {
  void queryClient.invalidateQueries({ queryKey: functionKeys.list });
  if (id !== undefined) void queryClient.invalidateQueries({ queryKey: functionKeys.versions(id) });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.activityAll });
}

/** refreshAfterSecretWrite: a secret added or deleted changes the list and the activity. */
export function refreshAfterSecretWrite(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: secretKeys.list });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.activityAll });
}

/** refreshAfterCheckpointCreate: a new checkpoint joins its table's list; the data itself did not change. */
export function refreshAfterCheckpointCreate(queryClient: QueryClient, tableId: number): void {
  void queryClient.invalidateQueries({ queryKey: checkpointKeys.ofTable(tableId) });
}

/** refreshAfterKeyWrite: a key created or deleted changes the key list. */
export function refreshAfterKeyWrite(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: keyKeys.list });
  refreshDashboard(queryClient);
}

/** refreshAfterProfileUpdate: the sidebar and the account menu show the username and email from /api/auth/me. */
export function refreshAfterProfileUpdate(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: authKeys.me });
}

/** refreshTable reloads what a table's page shows (its Refresh button): the definition, records and history. */
export function refreshTable(queryClient: QueryClient, table: TableRef): void {
  void queryClient.invalidateQueries({ queryKey: tableKeys.detail(table.id) });
  void queryClient.invalidateQueries({ queryKey: recordKeys.table(table.id) });
  void queryClient.invalidateQueries({ queryKey: historyKeys.ofTable(table.id) });
}
