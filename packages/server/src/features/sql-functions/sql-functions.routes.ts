import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { answer, type Call, type Method, type Route } from '../../http/routes/route.js';
import {
  defineSqlFunction,
  deleteSqlFunction,
  getSqlFunction,
  listSqlFunctions,
  replaceSqlFunction,
} from './sql-functions.service.js';

// The owner's SQL functions, called by the app at /rest/v1/rpc/<name> (features/rest/rest-rpc.ts):
//   GET    /api/functions/sql         the account's functions
//   POST   /api/functions/sql         {name, params, returns, body, callRule, description?} → 201 (409: that name with those parameters exists)
//   GET    /api/functions/sql/:name   one function (:name is its name, or its id when overloads share the name)
//   PUT    /api/functions/sql/:name   its whole definition (a new name renames it)
//   DELETE /api/functions/sql/:name   → 204
// Each change of a definition is recorded in history (FUNCTION_CREATE / _UPDATE / _DELETE) and revertable.

/** sqlFunctionsRoutes are the definition API of SQL functions. */
export function sqlFunctionsRoutes(ctx: { db: Db; callers: Callers }): Route[] {
  const { db } = ctx;
  const route = (method: Method, url: string, handler: (call: Call) => Promise<unknown>): Route => ({
    method,
    url,
    family: 'console',
    admit: [ctx.callers.user],
    handler,
  });
  const nameOf = (call: Call) => call.params.name ?? '';
  const one = '/api/functions/sql/:name';
  return [
    route('GET', '/api/functions/sql', (call) => listSqlFunctions(db, call.actor)),
    route('POST', '/api/functions/sql', async (call) =>
      answer(await defineSqlFunction(db, call.actor, call.body), { status: 201 }),
    ),
    route('GET', one, (call) => getSqlFunction(db, call.actor, nameOf(call))),
    route('PUT', one, (call) => replaceSqlFunction(db, call.actor, nameOf(call), call.body)),
    route('DELETE', one, async (call) => {
      await deleteSqlFunction(db, call.actor, nameOf(call));
      return answer(undefined, { status: 204 });
    }),
  ];
}
