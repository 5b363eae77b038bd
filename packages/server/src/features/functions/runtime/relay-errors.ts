// How an invocation ends when the function itself did not answer it: the relay's errors. Each is JSON
// {code, message, limit?} with `x-relay-error: true` (supabase-js turns that into a FunctionsRelayError) and
// Supabase's `sb-error-code` header, and its status follows Supabase's (docs "Edge Functions status codes"):
// 546 for a resource limit, 504 for the wall clock, 503 when the function could not start.

/** LimitName names the limit an invocation ran into. */
export type LimitName = 'cpu_time' | 'memory' | 'wall_clock' | 'request_size' | 'response_size';

/** RelayError is an invocation's end that the runtime decided. */
export interface RelayError {
  status: number;
  code: string;
  message: string;
  limit?: LimitName;
  /** false for the function's own failure (it threw): supabase-js then reports a FunctionsHttpError. */
  relay: boolean;
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** relayErrors builds every relay error; the limits are the instance's. */
export const relayErrors = {
  cpuTime: (limitMs: number): RelayError => ({
    status: 546,
    code: 'WORKER_RESOURCE_LIMIT',
    limit: 'cpu_time',
    message: `CPU time limit exceeded: the request used more than ${limitMs} ms of CPU`,
    relay: true,
  }),
  memory: (limitMb: number): RelayError => ({
    status: 546,
    code: 'WORKER_RESOURCE_LIMIT',
    limit: 'memory',
    message: `Memory limit exceeded: the function used more than ${limitMb} MB`,
    relay: true,
  }),
  wallClock: (limitMs: number): RelayError => ({
    status: 504,
    code: 'IDLE_TIMEOUT',
    limit: 'wall_clock',
    message: `Wall-clock limit exceeded: the function did not answer within ${seconds(limitMs)}`,
    relay: true,
  }),
  requestSize: (limitBytes: number): RelayError => ({
    status: 413,
    code: 'REQUEST_TOO_LARGE',
    limit: 'request_size',
    message: `Request size limit exceeded: a function accepts bodies of at most ${megabytes(limitBytes)}`,
    relay: true,
  }),
  responseSize: (limitBytes: number): RelayError => ({
    status: 546,
    code: 'WORKER_RESOURCE_LIMIT',
    limit: 'response_size',
    message: `Response size limit exceeded: a function may answer at most ${megabytes(limitBytes)}`,
    relay: true,
  }),
  crashed: (detail: string): RelayError => ({
    status: 502,
    code: 'WORKER_CRASHED',
    message: `The function's process ended unexpectedly${detail ? `: ${detail}` : ''}`,
    relay: true,
  }),
  stoppedForAnother: (limit: LimitName): RelayError => ({
    status: 503,
    code: 'WORKER_RESTARTED',
    message: `The function's process was stopped because another request to it exceeded the ${limit.replace('_', ' ')} limit; try again`,
    relay: true,
  }),
  boot: (detail: string): RelayError => ({
    status: 503,
    code: 'BOOT_ERROR',
    message: `The function failed to start${detail ? `: ${detail}` : ''}`,
    relay: true,
  }),
  busy: (maxProcesses: number): RelayError => ({
    status: 503,
    code: 'WORKER_LIMIT',
    message: `All ${maxProcesses} function processes of this server are busy; try again`,
    relay: true,
  }),
  crowded: (maxCalls: number): RelayError => ({
    status: 503,
    code: 'WORKER_LIMIT',
    message: `This function is already answering ${maxCalls} calls at once; try again`,
    relay: true,
  }),
  unavailable: (detail: string): RelayError => ({
    status: 503,
    code: 'RUNTIME_UNAVAILABLE',
    message: `The functions runtime is not available: ${detail}`,
    relay: true,
  }),
  threw: (): RelayError => ({
    status: 500,
    code: 'EDGE_FUNCTION_ERROR',
    message: 'The function threw an error; its log has the details',
    relay: false,
  }),
};

/** relayErrorBody is the JSON body of a relay error. */
export function relayErrorBody(error: RelayError): Record<string, unknown> {
  return { code: error.code, message: error.message, ...(error.limit ? { limit: error.limit } : {}) };
}

/** relayErrorHeaders are the headers of a relay error. */
export function relayErrorHeaders(error: RelayError): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'sb-error-code': error.code,
    ...(error.relay ? { 'x-relay-error': 'true' } : {}),
  };
}
