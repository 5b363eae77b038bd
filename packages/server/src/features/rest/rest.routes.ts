import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { Answer, type Call, type Route } from '../../http/routes/route.js';
import type { TokenVerifier } from '../../lib/crypto/token-verifier.js';
import { matchAppKey } from '../apps/apps.service.js';
import type { Apps } from '../apps/apps-config.js';
import type { MeterSteps } from '../billing/usage-metering.js';
import { type RestMethod, serveRest, unsupportedMethod } from './rest.service.js';
import { restCaller, restKeyStep } from './rest-gateway.js';
import { parseRestQuery } from './rest-query.parse.js';
import { serveRpc } from './rest-rpc.js';

// The PostgREST-compatible data API:
//   GET|HEAD|POST|PATCH|DELETE /rest/v1/<table>   the actor's table of that name (`tables`: their definitions)
//   PUT /rest/v1/<table>                           405 PGRST117
//   GET|HEAD|POST /rest/v1/rpc/<fn>                a call of the account's SQL function (rest-rpc.ts)
// Every route wants an apikey of this instance or of an app (the gateway step) and a caller it admits
// (restCaller); the gets may be answered early (http/routes/early-runner.ts).

/** RestRouteDeps is what the data API's routes use of the server: the caller steps, keys, apps and meter. */
export interface RestRouteDeps {
  db: Db;
  callers: Callers;
  tokens: TokenVerifier;
  apps: Apps;
  meter: Pick<MeterSteps, 'data'>;
}

/** restRoutes are the data API's routes. */
export function restRoutes(ctx: RestRouteDeps): Route[] {
  const admit = [
    ctx.callers.anyone,
    restKeyStep(ctx.tokens, (key) => matchAppKey(ctx.apps, key)),
    restCaller,
    ctx.meter.data,
  ];
  const common = { family: 'rest', admit } as const;
  const serve = async (call: Call) => {
    const method = call.method as RestMethod;
    const query = parseRestQuery(call.rawQuery, call.headers, { method });
    const resource = call.params.table ?? '';
    const { status, headers, body } = await serveRest(ctx.db, call.actor, { method, resource, query, body: call.body });
    return new Answer(status, body, headers);
  };
  return [
    { ...common, method: 'GET', url: '/rest/v1/:table', early: true, handler: serve },
    { ...common, method: ['HEAD', 'POST', 'PATCH', 'DELETE'], url: '/rest/v1/:table', handler: serve },
    {
      ...common,
      method: 'PUT',
      url: '/rest/v1/:table',
      handler: () => {
        throw unsupportedMethod('PUT');
      },
    },
    {
      ...common,
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/rest/v1/rpc/:fn',
      handler: async (call) => {
        const request = {
          method: call.method,
          name: call.params.fn ?? '',
          rawQuery: call.rawQuery,
          headers: call.headers,
          body: call.body,
        };
        const { status, headers, body } = await serveRpc(ctx.db, call.actor, request);
        return new Answer(status, body, headers);
      },
    },
  ];
}
