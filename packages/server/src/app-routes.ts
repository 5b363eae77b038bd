import type { AppContext } from './app-context.js';
import { activityRoutes } from './features/activity/activity.routes.js';
import { keysRoutes } from './features/keys/keys.routes.js';
import { publicApiRoutes } from './features/public-api/public-api.routes.js';
import { restRoutes } from './features/rest/rest.routes.js';
import { statsRoutes } from './features/stats/stats.routes.js';
import type { CsrfTokens } from './http/csrf.js';
import type { Route } from './http/routes/route.js';

// The whole API in one place: every feature's routes, in one table. app.ts mounts it on Fastify and gives it to the
// early runner; the API fuzz test and the OpenAPI document read it too.

/** routeTable lists every route of Basalt. */
export function routeTable(ctx: AppContext, _services: { csrf: CsrfTokens }): Route[] {
  return [
    ...statsRoutes(ctx),
    ...activityRoutes(ctx),
    ...keysRoutes(ctx),
    ...restRoutes(ctx),
    // Last: its short form /api/:name takes only what no route above claims.
    ...publicApiRoutes(ctx),
  ];
}
