import {
  type FunctionInvocation,
  type FunctionStats,
  type FunctionTestResult,
  functionInvocationsQuerySchema,
  functionStatsQuerySchema,
  testEdgeFunctionSchema,
} from '@basalt/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { ApiError } from '../../http/errors.js';
import { requireUser } from '../../http/legacy-principal.js';
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
import { functionInvokeRoutes } from './invoke.routes.js';
import { runFunction } from './invoke.service.js';
import { createRuntimeHandle } from './runtime/functions-runtime.js';
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
// Calling functions is in invoke.routes.ts.

function functionIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : -1;
}

const HOUR_MS = 3_600_000;

/** functionsRoutes registers the edge-function endpoints and the calls of functions. */
export async function functionsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;
  const runtime = createRuntimeHandle(app, ctx);
  app.addHook('onClose', () => runtime.close());

  app.get('/api/edge-functions', async (request) => listFunctions(db, requireUser(request)));

  app.post('/api/edge-functions', async (request, reply) => {
    const created = await createFunction(db, requireUser(request), request.body);
    return reply.status(201).send(created);
  });

  app.patch('/api/edge-functions/:id', async (request) =>
    updateFunction(db, requireUser(request), functionIdOf(request), request.body),
  );

  app.delete('/api/edge-functions/:id', async (request) => {
    await deleteFunction(db, requireUser(request), functionIdOf(request));
    return { success: true, message: 'Edge function deleted successfully' };
  });

  app.post('/api/edge-functions/:id/deploy', async (request) =>
    deployFunction(db, requireUser(request), functionIdOf(request)),
  );

  app.get('/api/edge-functions/:id/versions', async (request) =>
    listFunctionVersions(db, requireUser(request), functionIdOf(request)),
  );

  app.post('/api/edge-functions/:id/rollback', async (request) =>
    rollbackFunction(db, requireUser(request), functionIdOf(request), request.body),
  );

  app.get('/api/edge-functions/:id/invocations', async (request): Promise<FunctionInvocation[]> => {
    const actor = requireUser(request);
    const { limit } = parseInput(functionInvocationsQuerySchema, request.query);
    const fn = await findOwnFunction(db, actor, functionIdOf(request));
    // What ended a moment ago is shown too.
    await (await runtime.peek())?.recorder.flush();
    const rows = await listInvocationsOf(db.kysely, Number(fn.id), limit);
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
  });

  app.get('/api/edge-functions/:id/stats', async (request): Promise<FunctionStats> => {
    const actor = requireUser(request);
    const { hours } = parseInput(functionStatsQuerySchema, request.query);
    const fn = await findOwnFunction(db, actor, functionIdOf(request));
    await (await runtime.peek())?.recorder.flush();
    const first = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;
    const counted = new Map(
      (await listUsageHours(db.kysely, Number(fn.id), new Date(first).toISOString())).map((h) => [h.hour, h]),
    );
    return {
      hours: Array.from({ length: hours }, (_, i) => {
        const hour = new Date(first + i * HOUR_MS).toISOString();
        const found = counted.get(hour);
        return { hour, invocations: found?.invocations ?? 0, errors: found?.errors ?? 0 };
      }),
    };
  });

  app.post('/api/edge-functions/:id/test', async (request): Promise<FunctionTestResult> => {
    const actor = requireUser(request);
    const input = parseInput(testEdgeFunctionSchema, request.body);
    const fn = await findOwnFunction(db, actor, functionIdOf(request));
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
        // Addressed like a call at its route (the function sees that URL as req.url).
        headers: {
          ...lowerCased(input.headers),
          host: request.host,
          'x-forwarded-host': request.host,
          'x-forwarded-proto': request.protocol,
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
  });

  await app.register(functionInvokeRoutes, { ctx, runtime });
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
