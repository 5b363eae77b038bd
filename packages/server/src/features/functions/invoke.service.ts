import type { FunctionLogLine } from '@basalt/shared';
import type { LiveFunction } from './function-directory.js';
import type { InvokeResult } from './runtime/function-process.js';
import type { FunctionsRuntime } from './runtime/functions-runtime.js';
import type { InvokeRequest } from './runtime/process-exchange.js';

// One call of a deployed function: run it on its process and record it (the recorder stores it once its cost is
// known). Callers decide who may call (invoke-access.ts) and shape the HTTP answer.

/** DeployedFunction is a function with the version that runs. */
export type DeployedFunction = LiveFunction & { version: number };

/** runFunction calls a deployed function and records the call; it never throws for the function's failures. */
export async function runFunction(
  runtime: FunctionsRuntime,
  fn: DeployedFunction,
  request: InvokeRequest,
): Promise<InvokeResult> {
  const result = await runtime.pool.invoke({ id: fn.id, accountId: fn.accountId, version: fn.version }, request);
  const status = result.error ? result.error.status : result.status;
  const logs: FunctionLogLine[] = result.error?.relay
    ? [...result.logs, { level: 'error', message: result.error.message }]
    : result.logs;
  runtime.recorder.record({
    accountId: fn.accountId,
    functionId: fn.id,
    name: fn.name,
    version: fn.version,
    route: fn.route,
    method: request.method,
    status,
    durationMs: result.durationMs,
    error: result.error?.code ?? null,
    logs,
    cost: result.cost,
  });
  return { ...result, logs };
}
