import type { AppContext } from './app-context.js';
import { accountRoutes } from './features/account/account.routes.js';
import { achievementsRoutes } from './features/achievements/achievements.routes.js';
import { activityRoutes } from './features/activity/activity.routes.js';
import { appsRoutes } from './features/apps/apps.routes.js';
import { authRoutes } from './features/auth/routes/auth.routes.js';
import { backupsRoutes } from './features/backups/backups.routes.js';
import { billingRoutes } from './features/billing/billing.routes.js';
import { configRoutes } from './features/config/config.routes.js';
import { functionsRoutes } from './features/functions/functions.routes.js';
import { functionInvokeRoutes } from './features/functions/invoke.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { checkpointsRoutes } from './features/history/checkpoints.routes.js';
import { historyRoutes } from './features/history/history.routes.js';
import { insightsRoutes } from './features/insights/insights.routes.js';
import { instanceRoutes } from './features/instance/instance.routes.js';
import { keysRoutes } from './features/keys/keys.routes.js';
import { logsRoutes } from './features/logs/logs.routes.js';
import { monitoringRoutes } from './features/monitoring/monitoring.routes.js';
import { openapiRoutes } from './features/openapi/openapi.routes.js';
import { portabilityRoutes } from './features/portability/portability.routes.js';
import { projectsRoutes } from './features/projects/projects.routes.js';
import { schemaRoomRoutes } from './features/projects/schema-room.routes.js';
import { publicApiRoutes } from './features/public-api/public-api.routes.js';
import { realtimeRoutes } from './features/realtime/realtime.routes.js';
import { recordsGridRoutes } from './features/records-grid/records-grid.routes.js';
import { restRoutes } from './features/rest/rest.routes.js';
import { secretsRoutes } from './features/secrets/secrets.routes.js';
import { sqlRoutes } from './features/sql/sql.routes.js';
import { sqlFunctionsRoutes } from './features/sql-functions/sql-functions.routes.js';
import { statsRoutes } from './features/stats/stats.routes.js';
import { storageRoutes } from './features/storage/storage.routes.js';
import { storageObjectRoutes } from './features/storage/storage-objects.routes.js';
import { resumableRoutes } from './features/storage/storage-resumable.js';
import { tableRecordsRoutes } from './features/tables/table-records.routes.js';
import { tablesRoutes } from './features/tables/tables.routes.js';
import { consoleAccountsRoutes } from './features/users/console-accounts.routes.js';
import { usersRoutes } from './features/users/users.routes.js';
import type { CsrfTokens } from './http/csrf.js';
import { csrfRoutes } from './http/csrf.routes.js';
import type { Route } from './http/routes/route.js';

// The whole API in one place: every feature's routes, in one table. app.ts mounts it on Fastify and gives it to the
// early runner; the API fuzz test and the OpenAPI document (its public routes) read it too.

/** routeTable lists every route of Basalt. */
export function routeTable(ctx: AppContext, { csrf }: { csrf: CsrfTokens }): Route[] {
  const table: Route[] = [
    ...healthRoutes(ctx),
    ...csrfRoutes(csrf, ctx.config.siteUrl),
    ...authRoutes(ctx),
    ...accountRoutes(ctx),
    ...usersRoutes(ctx),
    ...consoleAccountsRoutes(ctx),
    ...configRoutes(ctx),
    ...instanceRoutes(ctx),
    ...statsRoutes(ctx),
    ...activityRoutes(ctx),
    ...tablesRoutes(ctx),
    ...tableRecordsRoutes(ctx),
    ...recordsGridRoutes(ctx),
    ...historyRoutes(ctx),
    ...checkpointsRoutes(ctx),
    ...projectsRoutes(ctx),
    ...schemaRoomRoutes(ctx),
    ...sqlRoutes(ctx),
    ...keysRoutes(ctx),
    ...appsRoutes(ctx),
    ...logsRoutes(ctx),
    ...monitoringRoutes(ctx),
    ...openapiRoutes(ctx, () => table),
    ...secretsRoutes(ctx),
    ...achievementsRoutes(ctx),
    ...insightsRoutes(ctx),
    ...billingRoutes(ctx),
    ...functionsRoutes(ctx),
    ...sqlFunctionsRoutes(ctx),
    ...backupsRoutes(ctx),
    ...portabilityRoutes(ctx),
    ...functionInvokeRoutes(ctx),
    ...restRoutes(ctx),
    ...realtimeRoutes(ctx),
    ...storageRoutes(ctx, ctx.storage),
    ...storageObjectRoutes(ctx, ctx.storage),
    ...resumableRoutes(ctx, ctx.storage),
    // Last: its short form /api/:name takes only what no route above claims.
    ...publicApiRoutes(ctx),
  ];
  return table;
}
