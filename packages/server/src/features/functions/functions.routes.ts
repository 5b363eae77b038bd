import {
  type FunctionInvocation,
  type FunctionStats,
  type FunctionTestResult,
  functionInvocationsQuerySchema,
  functionStatsQuerySchema,
  testEdgeFunctionSchema,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { ApiError } from '../../http/errors.js';
import { idOf } from '../../http/ids.js';
import { answer, type Call, type Method, type Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import {
  createFunction,
  deleteFunction,
  deployFunction,
  findOwnFunction,
  listFunctions,
  listFunctionVersions,
  rollbackFunction,
  updateFunction,
} from './functions.service.js';
import { listInvocationsOf, listUsageHours } from './invocations.store.js';
import { runFunction } from './invoke.service.js';
import type { RuntimeHandle } from './runtime/functions-runtime.js';
import { relayErrorBody } from './runtime/relay-errors.js';

// The console's edge-function calls; a signed-in user only:
//   GET    /api/edge-functions                 the actor's functions
//   POST   /api/edge-functions                 {name, code, route?, isActive?, verifyJwt?} → 201 (userId ignored)
//   PATCH  /api/edge-functions/:id             any of those fields
//   DELETE /api/edge-functions/:id             → {success, message}
//   POST   /api/edge-functions/:id/deploy      bundle and run the current code; 400 with line and column on errors
//   GET    /api/edge-functions/:id/versions    the kept versions, newest first
//   POST   /api/edge-functions/:id/rollback    {version}: run that version again
//   GET    /api/edge-functions/:id/invocations ?limit: the newest invocations with their output
//   GET    /api/edge-functions/:id/stats       ?hours: invocations and errors per hour, for the chart
//   POST   /api/edge-functions/:id/test        {method, headers, body}: one call to the deployed version
// Calling functions is in invoke.routes.ts; the runtime they run on is the context's (`ctx.functions`).

const HOUR_MS = 3_600_000;

/** FunctionsRouteDeps is what the edge functions' console routes use of the server. */
export interface FunctionsRouteDeps {
  db: Db;
  callers: Callers;
  functions: RuntimeHandle;
}

/** functionsRoutes are the console's edge-function routes. */
export function functionsRoutes(ctx: FunctionsRouteDeps): Route[] {
  const { db, functions: runtime } = ctx;
  const route = (method: Method, url: string, handler: (call: Call) => Promise<unknown>): Route => ({
    method,
    url,
    family: 'console',
    admit: [ctx.callers.user],
    handler,
  });
  const one = '/api/edge-functions/:id';
  return [
    route('GET', '/api/edge-functions', (call) => listFunctions(db, call.actor)),
    route('POST', '/api/edge-functions', async (call) =>
      answer(await createFunction(db, call.actor, call.body), { status: 201 }),
    ),
    route('PATCH', one, (call) => updateFunction(db, call.actor, idOf(call), call.body)),
    route('DELETE', one, async (call) => {
      await deleteFunction(db, call.actor, idOf(call));
      return { success: true, message: 'Edge function deleted successfully' };
    }),
    route('POST', `${one}/deploy`, (call) => deployFunction(db, call.actor, idOf(call))),
    route('GET', `${one}/versions`, (call) => listFunctionVersions(db, call.actor, idOf(call))),
    route('POST', `${one}/rollback`, (call) => rollbackFunction(db, call.actor, idOf(call), call.body)),
    route('GET', `${one}/invocations`, (call) => invocationsOf(ctx, runtime, call)),
    route('GET', `${one}/stats`, (call) => statsOf(ctx, runtime, call)),
    {
      method: 'POST',
      url: `${one}/test`,
      family: 'console',
      admit: [ctx.callers.user],
      handler: (call, request) => testCall(ctx, runtime, call, { host: request.host, protocol: request.protocol }),
    },
  ];
}

async function invocationsOf(
  ctx: FunctionsRouteDeps,
  runtime: RuntimeHandle,
  call: Call,
): Promise<FunctionInvocation[]> {
  const { limit } = parseInput(functionInvocationsQuerySchema, call.query);
  const fn = await findOwnFunction(ctx.db, call.actor, idOf(call));
  // What ended a moment ago is shown too.
  await (await runtime.peek())?.recorder.flush();
  const rows = await listInvocationsOf(ctx.db.kysely, Number(fn.id), limit);
  return rows.map((row) => ({
    id: Number(row.id),
    method: row.method,
    status: Number(row.status),
    durationMs: Number(row.duration_ms),
    cpuMs: Number(row.cpu_ms),
    memoryMb: Number(row.memory_mb),
    error: row.error,
    logs: JSON.parse(row.logs),
    createdAt: row.created_at,
  }));
}

async function statsOf(ctx: FunctionsRouteDeps, runtime: RuntimeHandle, call: Call): Promise<FunctionStats> {
  const { hours } = parseInput(functionStatsQuerySchema, call.query);
  const fn = await findOwnFunction(ctx.db, call.actor, idOf(call));
  await (await runtime.peek())?.recorder.flush();
  const first = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;
  const counted = new Map(
    (await listUsageHours(ctx.db.kysely, Number(fn.id), new Date(first).toISOString())).map((h) => [h.hour, h]),
  );
  return {
    hours: Array.from({ length: hours }, (_, i) => {
      const hour = new Date(first + i * HOUR_MS).toISOString();
      const found = counted.get(hour);
      return { hour, invocations: found?.invocations ?? 0, errors: found?.errors ?? 0 };
    }),
  };
}

// One call to the deployed version, addressed like a call at its route (the function sees that URL as req.url).
async function testCall(
  ctx: FunctionsRouteDeps,
  runtime: RuntimeHandle,
  call: Call,
  via: { host: string; protocol: string },
): Promise<FunctionTestResult> {
  const input = parseInput(testEdgeFunctionSchema, call.body);
  const fn = await findOwnFunction(ctx.db, call.actor, idOf(call));
  if (fn.deployed_version === null) {
    throw new ApiError(409, 'function_not_deployed', 'Deploy the function before testing it');
  }
  const result = await runFunction(
    await runtime.get(),
    {
      id: Number(fn.id),
      accountId: fn.account_id,
      name: fn.name,
      route: fn.route,
      isActive: fn.is_active === 1,
      verifyJwt: fn.verify_jwt === 1,
      version: Number(fn.deployed_version),
    },
    {
      method: input.method,
      path: fn.route,
      headers: {
        ...lowerCased(input.headers),
        host: via.host,
        'x-forwarded-host': via.host,
        'x-forwarded-proto': via.protocol,
      },
      body: input.body && input.method !== 'GET' ? Buffer.from(input.body) : null,
    },
  );
  const cost = await result.cost;
  const error = result.error;
  return {
    status: error ? error.status : result.status,
    headers: error ? { 'content-type': 'application/json' } : Object.fromEntries(result.headers),
    body: error ? JSON.stringify(relayErrorBody(error)) : result.body.toString('utf8'),
    logs: result.logs,
    durationMs: result.durationMs,
    cpuMs: cost.cpuMs,
    memoryMb: cost.memoryMb,
    error: error?.code ?? null,
  };
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
