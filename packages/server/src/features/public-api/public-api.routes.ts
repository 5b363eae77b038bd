import { isReservedTableName } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { ApiError, tooManyRequests } from '../../http/errors.js';
import { type AdmissionStep, answer, type Call, type Route, type RouteDocs } from '../../http/routes/route.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { MeterSteps } from '../billing/usage-metering.js';
import {
  createPublicRecord,
  deletePublicRecord,
  getPublicRecord,
  listPublicRecords,
  updatePublicRecord,
} from './public-api.service.js';
import type { KeyRateLimiter } from './public-api-rate-limit.js';

// The public record API, with `Authorization: Bearer <API key>`
// (a signed-in user's token or session works too), errors as {error: {code, message, details}}:
//   GET    /api/table/:name        ?limit&offset&orderBy&order&col=op.value → array; X-Total-Count,
//                                  X-Page-Limit, X-Page-Offset
//   POST   /api/table/:name        {fields} → 201 the record
//   GET    /api/table/:name/:id    the record (404 when missing)
//   PUT    /api/table/:name/:id    {fields}: replaces every user column → the record
//   PATCH  /api/table/:name/:id    {fields}: changes the fields sent → the record
//   DELETE /api/table/:name/:id    → {success: true, message: "Record deleted successfully"}
// The same under the short form /api/:name[/:id]. Fastify prefers static routes, so /api/keys and every other
// route of Basalt's own wins; a reserved name (RESERVED_TABLE_NAMES, which no table may take) that reaches
// the short form anyway (GET /api/keys/1) answers the ordinary "no route" 404. The gets under /api/table may be
// answered early (http/routes/early-runner.ts).

// The per-minute limit counts a key's requests, or an account's made without a key (a session or token).
const limitKeyOf = (actor: Actor) => (actor.keyId === undefined ? `account:${actor.accountId}` : `key:${actor.keyId}`);

/** keyRateLimit is the admission step of API_RATE_LIMIT: each key's (or account's) requests per minute. */
export function keyRateLimit(limiter: KeyRateLimiter): AdmissionStep {
  return (call) => {
    const wait = limiter.take(limitKeyOf(call.actor));
    if (wait > 0) throw tooManyRequests(`Rate limit exceeded: try again in ${wait} seconds`, wait);
  };
}

// A reserved name reaching the short form is no route of this API (GET /api/keys/1): the ordinary 404.
const notReserved: AdmissionStep = (call) => {
  if (isReservedTableName(call.params.name ?? '')) {
    throw new ApiError(404, 'route_not_found', `No route for ${call.method} ${call.path}`, { family: 'console' });
  }
};

const name = (call: Call) => call.params.name ?? '';

// What the account's OpenAPI document says each route is (features/openapi describes the operation per table).
const docsOf = {
  list: { summary: 'List records of a table', operation: 'list' },
  get: { summary: 'Get one record', operation: 'get' },
  create: { summary: 'Create a record', operation: 'create' },
  replace: { summary: 'Replace a record', operation: 'replace' },
  update: { summary: 'Update columns of a record', operation: 'update' },
  delete: { summary: 'Delete a record', operation: 'delete' },
} satisfies Record<string, RouteDocs>;
const id = (call: Call) => call.params.id ?? '';

/** PublicApiRouteDeps is what the public record API's routes use of the server. */
export interface PublicApiRouteDeps {
  db: Db;
  callers: Callers;
  keyLimiter: KeyRateLimiter;
  meter: Pick<MeterSteps, 'data'>;
}

/** publicApiRoutes are the public record API's routes, under /api/table/:name and /api/:name. */
export function publicApiRoutes(ctx: PublicApiRouteDeps): Route[] {
  const { db } = ctx;
  const limit = keyRateLimit(ctx.keyLimiter);
  const routes: Route[] = [];
  for (const prefix of ['/api/table', '/api']) {
    const admit = [...(prefix === '/api' ? [notReserved] : []), ctx.callers.account, limit, ctx.meter.data];
    const early = prefix === '/api/table';
    const common = { family: 'public', admit } as const;
    const collection = `${prefix}/:name`;
    const one = `${prefix}/:name/:id`;
    const list = async (call: Call) => {
      const page = await listPublicRecords(db, call.actor, name(call), call.rawQuery);
      const headers = {
        'x-total-count': String(page.total),
        'x-page-limit': String(page.limit),
        'x-page-offset': String(page.offset),
      };
      return answer(page.records, { headers });
    };
    const get = (call: Call) => getPublicRecord(db, call.actor, name(call), id(call));
    routes.push(
      early
        ? { ...common, method: 'GET', url: collection, docs: docsOf.list, early: true, handler: list }
        : { ...common, method: 'GET', url: collection, docs: docsOf.list, handler: list },
      early
        ? { ...common, method: 'GET', url: one, docs: docsOf.get, early: true, handler: get }
        : { ...common, method: 'GET', url: one, docs: docsOf.get, handler: get },
      {
        ...common,
        method: 'POST',
        url: collection,
        docs: docsOf.create,
        handler: async (call) => {
          const record = await createPublicRecord(db, call.actor, name(call), call.body);
          const location = `${prefix}/${encodeURIComponent(name(call))}/${record.id}`;
          return answer(record, { status: 201, headers: { Location: location } });
        },
      },
      {
        ...common,
        method: 'PUT',
        url: one,
        docs: docsOf.replace,
        handler: (call) => updatePublicRecord(db, call.actor, name(call), id(call), call.body, { merge: false }),
      },
      {
        ...common,
        method: 'PATCH',
        url: one,
        docs: docsOf.update,
        handler: (call) => updatePublicRecord(db, call.actor, name(call), id(call), call.body, { merge: true }),
      },
      {
        ...common,
        method: 'DELETE',
        url: one,
        docs: docsOf.delete,
        handler: async (call) => {
          await deletePublicRecord(db, call.actor, name(call), id(call));
          return { success: true, message: 'Record deleted successfully' };
        },
      },
    );
  }
  return routes;
}
