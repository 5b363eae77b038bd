import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { answer, type Route } from '../../http/routes/route.js';
import { describeSqlFunctions } from '../sql-functions/sql-functions.service.js';
import { listTables } from '../tables/tables.service.js';
import { buildOpenApiDocument } from './openapi.service.js';
import { buildTypeScriptTypes } from './typescript-types.js';

// GET /api/openapi.json: the OpenAPI 3.1 document of the actor's public record API, made at each request from
// their tables and the route table's public routes. A signed-in user (bearer token or session cookie) or an API
// key may read it; it is never cached by a browser or proxy, since it is one account's and changes with every table.

/** openapiRoutes serve the actor's OpenAPI document. */
export function openapiRoutes(
  ctx: { db: Db; config: Pick<Config, 'siteUrl'>; callers: Callers },
  table: () => readonly Route[],
): Route[] {
  return [
    {
      method: 'GET',
      url: '/api/openapi.json',
      family: 'console',
      admit: [ctx.callers.account],
      handler: async (call) => {
        const tables = await listTables(ctx.db, call.actor);
        const document = buildOpenApiDocument(tables, { serverUrl: ctx.config.siteUrl, routes: table() });
        return answer(document, { headers: { 'Cache-Control': 'private, no-store' } });
      },
    },
    {
      // The `Database` type for supabase-js, from the same tables (typescript-types.ts).
      method: 'GET',
      url: '/api/types.ts',
      family: 'console',
      admit: [ctx.callers.account],
      handler: async (call) => {
        const [tables, functions] = await Promise.all([
          listTables(ctx.db, call.actor),
          describeSqlFunctions(ctx.db, call.actor),
        ]);
        const text = buildTypeScriptTypes(tables, functions);
        return answer(text, {
          headers: {
            'Content-Type': 'text/plain; charset=utf-8',
            'Content-Disposition': 'attachment; filename="database.types.ts"',
            'Cache-Control': 'private, no-store',
          },
        });
      },
    },
  ];
}
