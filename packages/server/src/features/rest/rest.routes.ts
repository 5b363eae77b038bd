import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { matchAppKey } from '../apps/apps.service.js';
import { type RestMethod, type RestReply, rpcNotFound, serveRest, unsupportedMethod } from './rest.service.js';
import { restActorOf, restApiKeyGateway } from './rest-gateway.js';
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

/** restRoutes registers /rest/v1. */
export async function restRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.decorateRequest('restKey', null);
  app.addHook(
    'onRequest',
    restApiKeyGateway(ctx.tokens, (key) => matchAppKey(ctx.db, key)),
  );

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
