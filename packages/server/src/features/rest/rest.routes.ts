import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { type RestMethod, type RestReply, rpcNotFound, serveRest, unsupportedMethod } from './rest.service.js';
import { restApiKeyGateway, restCallerOf } from './rest-gateway.js';
import { parseRestQuery, queryPairs } from './rest-query.parse.js';

// The PostgREST-compatible data API (protocol §3):
//   GET|HEAD|POST|PATCH|DELETE /rest/v1/<table>   the caller's table of that name (`tables`: their definitions)
//   PUT /rest/v1/<table>                           405 PGRST117
//   * /rest/v1/rpc/<fn>                            404 PGRST202
// Every route wants this instance's apikey (the gateway hook) and a signed-in user (restCallerOf).

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

/** restRoutes registers /rest/v1. */
export async function restRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addHook('onRequest', restApiKeyGateway(ctx.tokens));

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    url: '/rest/v1/:table',
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const { table } = paramsOf(request);
      const caller = restCallerOf(request.principal, table);
      const method = request.method as RestMethod;
      const query = parseRestQuery(rawQuery(request.url), request.headers, { method });
      return send(reply, await serveRest(ctx.db, caller, { method, resource: table, query, body: request.body }));
    },
  });

  app.put('/rest/v1/:table', async (request) => {
    restCallerOf(request.principal, paramsOf(request).table);
    throw unsupportedMethod('PUT');
  });

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/rest/v1/rpc/:fn',
    exposeHeadRoute: false,
    handler: async (request) => {
      const { fn } = paramsOf(request);
      restCallerOf(request.principal, fn);
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
