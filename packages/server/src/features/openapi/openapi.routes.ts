import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireAccount } from '../../http/legacy-principal.js';
import { listTables } from '../tables/tables.service.js';
import { buildOpenApiDocument } from './openapi.service.js';

// GET /api/openapi.json: the OpenAPI 3.1 document of the actor's public record API, made from their tables at
// each request. A signed-in user (bearer token or session cookie) or an API key may read it; it is never cached
// by a browser or proxy, since it is one account's and changes with every table.

/** openapiRoutes serves the actor's OpenAPI document. */
export async function openapiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.get('/api/openapi.json', async (request, reply) => {
    const actor = requireAccount(request);
    const tables = await listTables(ctx.db, actor);
    reply.header('Cache-Control', 'private, no-store');
    return buildOpenApiDocument(tables, { serverUrl: ctx.config.siteUrl });
  });
}
