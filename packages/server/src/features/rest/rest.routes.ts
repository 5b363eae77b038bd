import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { FastReads } from '../../http/fast-reads.js';
import { matchAppKey } from '../apps/apps.service.js';
import { type RestMethod, type RestReply, rpcNotFound, serveRest, unsupportedMethod } from './rest.service.js';
import { restActorOf, restApiKeyGateway, restKeyNow } from './rest-gateway.js';
import { parseRestQuery, queryPairs } from './rest-query.parse.js';

// The PostgREST-compatible data API:
//   GET|HEAD|POST|PATCH|DELETE /rest/v1/<table>   the actor's table of that name (`tables`: their definitions)
//   PUT /rest/v1/<table>                           405 PGRST117
//   * /rest/v1/rpc/<fn>                            404 PGRST202
// Every route wants an apikey of this instance or of an app (the gateway hook) and a caller it admits (restActorOf).

const rawQuery = (url: string) => {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
};

function send(reply: FastifyReply, result: RestReply): FastifyReply {
  reply.status(result.status).headers(result.headers);
  return result.body === undefined ? reply.send() : reply.send(result.body);
}

function paramsOf(request: FastifyRequest): { table: string; fn: string } {
  const { table = '', fn = '' } = request.params as { table?: string; fn?: string };
  return { table, fn };
}

// A table's name in a path: what the fast reads take (anything else, rpc/ included, is Fastify's).
const TABLE_PATH = /^\/rest\/v1\/([A-Za-z_][A-Za-z0-9_]*)$/;

/** restRoutes registers /rest/v1. */
export async function restRoutes(
  app: FastifyInstance,
  { ctx, fastReads }: { ctx: AppContext; fastReads?: FastReads },
): Promise<void> {
  const appKeyOf = (key: string) => matchAppKey(ctx.db, key);
  app.decorateRequest('restKey', null);
  app.addHook('onRequest', restApiKeyGateway(ctx.tokens, appKeyOf));

  fastReads?.add({
    route: '/rest/v1/:table',
    params(path) {
      const table = TABLE_PATH.exec(path)?.[1];
      return table ? { table } : null;
    },
    async read({ principal, params, rawQuery, headers }) {
      // The key as a query parameter is the gateway's to parse.
      const apikey = headers.apikey;
      if (typeof apikey !== 'string' || !apikey || rawQuery.includes('apikey=')) return null;
      const key = restKeyNow(ctx.tokens, appKeyOf, apikey);
      if (!key) return null;
      const table = params.table ?? '';
      const actor = restActorOf(principal, key, table);
      const query = parseRestQuery(rawQuery, headers, { method: 'GET' });
      const result = await serveRest(ctx.db, actor, { method: 'GET', resource: table, query, body: undefined });
      const { status, headers: replyHeaders, body } = result;
      return (status === 200 || status === 206) && body !== undefined ? { status, headers: replyHeaders, body } : null;
    },
  });

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    url: '/rest/v1/:table',
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const { table } = paramsOf(request);
      const actor = restActorOf(request.principal, request.restKey, table);
      const method = request.method as RestMethod;
      const query = parseRestQuery(rawQuery(request.url), request.headers, { method });
      return send(reply, await serveRest(ctx.db, actor, { method, resource: table, query, body: request.body }));
    },
  });

  app.put('/rest/v1/:table', async (request) => {
    restActorOf(request.principal, request.restKey, paramsOf(request).table);
    throw unsupportedMethod('PUT');
  });

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/rest/v1/rpc/:fn',
    exposeHeadRoute: false,
    handler: async (request) => {
      const { fn } = paramsOf(request);
      restActorOf(request.principal, request.restKey, fn);
      const body = request.body;
      const parameters =
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? Object.keys(body)
          : queryPairs(rawQuery(request.url))
              .map(([key]) => key)
              .filter((key) => key !== 'apikey');
      throw rpcNotFound(fn, parameters);
    },
  });
}
