import { z } from 'zod';

// Edge functions. A function is a
// Supabase-style module (`Deno.serve(handler)` or `export default { fetch }`) that Basalt runs on Deno; see
// docs/functions.md. The console and the server validate with these schemas, so both say the same thing.

/** FUNCTION_LIMITS are the sizes the console and the server accept. */
export const FUNCTION_LIMITS = {
  nameMax: 64,
  /** The longest source accepted, in characters (Supabase's bundle limit is 20 MB; source is far smaller). */
  codeMax: 512 * 1024,
  routeMax: 200,
  /** The code preview of a card. */
  previewChars: 150,
  /** Invocations one GET of a function's log returns at most. */
  invocationsMax: 200,
  /** Test requests: the largest body and the most headers the test panel sends. */
  testBodyMax: 256 * 1024,
  testHeadersMax: 50,
} as const;

/** EDGE_ROUTE_PREFIX starts every function's route. */
export const EDGE_ROUTE_PREFIX = '/api/edge/';

/** DEFAULT_FUNCTION_ROUTE is the Create dialog's route. */
export const DEFAULT_FUNCTION_ROUTE = '/api/edge/my-function';

/** DEFAULT_FUNCTION_CODE is the Create dialog's template: a handler replying with a JSON hello message. */
export const DEFAULT_FUNCTION_CODE = `// Runs on Deno with the Web Request/Response API, as on Supabase.
Deno.serve(async (req: Request) => {
  const { name } = await req.json().catch(() => ({ name: 'world' }));
  return new Response(JSON.stringify({ message: \`Hello \${name ?? 'world'}!\` }), {
    headers: { 'Content-Type': 'application/json' },
  });
});
`;

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;
const ROUTE_PATTERN = /^\/api\/edge(\/[A-Za-z0-9_-]+)+$/;

const text = (required: string, wrongType: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? required : wrongType) });

const nameSchema = text('Function name is required', 'Function name must be text')
  .trim()
  .min(1, 'Function name is required')
  .max(FUNCTION_LIMITS.nameMax, `Function name must be at most ${FUNCTION_LIMITS.nameMax} characters`)
  .regex(NAME_PATTERN, 'Function name must start with a letter and use only letters, numbers, - and _');

const codeSchema = text('Function code is required', 'Function code must be text')
  .max(FUNCTION_LIMITS.codeMax, `Function code must be at most ${FUNCTION_LIMITS.codeMax / 1024} KiB`)
  .refine((code) => code.trim().length > 0, 'Function code is required')
  .refine((code) => !code.includes('\u0000'), 'Function code cannot contain NUL characters');

const routeSchema = text('Route is required', 'Route must be text')
  .trim()
  .max(FUNCTION_LIMITS.routeMax, `Route must be at most ${FUNCTION_LIMITS.routeMax} characters`)
  .regex(ROUTE_PATTERN, 'Route must start with /api/edge/ and use only letters, numbers, - and _ between slashes');

const flag = (field: string) => z.boolean({ error: `${field} must be true or false` });

/** createEdgeFunctionSchema is the body of POST /api/edge-functions; a sent userId is ignored. */
export const createEdgeFunctionSchema = z.object({
  name: nameSchema,
  code: codeSchema,
  /** Defaults to /api/edge/<name>. */
  route: routeSchema.optional(),
  isActive: flag('isActive').default(true),
  /** Require a signed-in caller (Supabase's verify_jwt); default on. */
  verifyJwt: flag('verifyJwt').default(true),
});
export type CreateEdgeFunctionInput = z.input<typeof createEdgeFunctionSchema>;

/** updateEdgeFunctionSchema is the body of PATCH /api/edge-functions/:id: any of the fields, at least one. */
export const updateEdgeFunctionSchema = z
  .object({
    name: nameSchema.optional(),
    code: codeSchema.optional(),
    route: routeSchema.optional(),
    isActive: flag('isActive').optional(),
    verifyJwt: flag('verifyJwt').optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'Send at least one of name, code, route, isActive, verifyJwt',
  });
export type UpdateEdgeFunctionInput = z.input<typeof updateEdgeFunctionSchema>;

/** edgeFunctionSchema is a function as the API returns it. */
export const edgeFunctionSchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  route: z.string(),
  isActive: z.boolean(),
  verifyJwt: z.boolean(),
  /** When it was last deployed (or rolled back); null: never. */
  lastDeployed: z.string().nullable(),
  /** The version that runs; null: never deployed. */
  deployedVersion: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EdgeFunction = z.infer<typeof edgeFunctionSchema>;

/** edgeFunctionVersionSchema is one deployed version of a function (GET /api/edge-functions/:id/versions). */
export const edgeFunctionVersionSchema = z.object({
  version: z.number(),
  createdAt: z.string(),
  /** Size of the bundle Deno runs, in bytes. */
  bundleBytes: z.number(),
  /** Whether this version is the one that runs. */
  live: z.boolean(),
  code: z.string(),
});
export type EdgeFunctionVersion = z.infer<typeof edgeFunctionVersionSchema>;

/** rollbackEdgeFunctionSchema is the body of POST /api/edge-functions/:id/rollback. */
export const rollbackEdgeFunctionSchema = z.object({
  version: z
    .number({ error: 'version must be a version number' })
    .int('version must be a version number')
    .min(1, 'version must be a version number'),
});

/** FUNCTION_LOG_LEVELS are the levels of a function's console output. */
export const FUNCTION_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** functionLogLineSchema is one line a function wrote with console.*. */
export const functionLogLineSchema = z.object({
  level: z.enum(FUNCTION_LOG_LEVELS),
  message: z.string(),
});
export type FunctionLogLine = z.infer<typeof functionLogLineSchema>;

/** functionInvocationSchema is one call of a function, as its invocation log lists it. */
export const functionInvocationSchema = z.object({
  id: z.number(),
  method: z.string(),
  status: z.number(),
  durationMs: z.number(),
  cpuMs: z.number(),
  memoryMb: z.number(),
  /** The relay or function error code (WORKER_RESOURCE_LIMIT, BOOT_ERROR, EDGE_FUNCTION_ERROR…); null: none. */
  error: z.string().nullable(),
  logs: z.array(functionLogLineSchema),
  createdAt: z.string(),
});
export type FunctionInvocation = z.infer<typeof functionInvocationSchema>;

/** functionStatsSchema is a function's invocations and errors per hour (the chart), oldest first. */
export const functionStatsSchema = z.object({
  hours: z.array(z.object({ hour: z.string(), invocations: z.number(), errors: z.number() })),
});
export type FunctionStats = z.infer<typeof functionStatsSchema>;

/** TEST_METHODS are the methods the test panel offers. */
export const TEST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** testEdgeFunctionSchema is the body of POST /api/edge-functions/:id/test: one request to the deployed version. */
export const testEdgeFunctionSchema = z.object({
  method: z.enum(TEST_METHODS, { error: `method must be one of ${TEST_METHODS.join(', ')}` }).default('POST'),
  headers: z
    .record(
      z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'Header names are letters, digits and -'),
      z.string().max(8192, 'A header value must be at most 8192 characters'),
      { error: 'headers must be an object of names to text values' },
    )
    .refine((headers) => Object.keys(headers).length <= FUNCTION_LIMITS.testHeadersMax, {
      message: `Send at most ${FUNCTION_LIMITS.testHeadersMax} headers`,
    })
    .default({}),
  body: z
    .string({ error: 'body must be text' })
    .max(FUNCTION_LIMITS.testBodyMax, `body must be at most ${FUNCTION_LIMITS.testBodyMax / 1024} KiB`)
    .default(''),
});
export type TestEdgeFunctionInput = z.input<typeof testEdgeFunctionSchema>;

/** functionTestResultSchema is what the test panel shows: the response, the function's output and its costs. */
export const functionTestResultSchema = z.object({
  status: z.number(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  logs: z.array(functionLogLineSchema),
  durationMs: z.number(),
  cpuMs: z.number(),
  memoryMb: z.number(),
  error: z.string().nullable(),
});
export type FunctionTestResult = z.infer<typeof functionTestResultSchema>;

const countParam = (name: string, max: number, fallback: number) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: `${name} must be a whole number from 1 to ${max}` })
      .int(`${name} must be a whole number from 1 to ${max}`)
      .min(1, `${name} must be a whole number from 1 to ${max}`)
      .max(max, `${name} must be a whole number from 1 to ${max}`)
      .default(fallback),
  );

/** functionInvocationsQuerySchema is the query of GET /api/edge-functions/:id/invocations. */
export const functionInvocationsQuerySchema = z.object({
  limit: countParam('limit', FUNCTION_LIMITS.invocationsMax, 50),
});

/** FUNCTION_STATS_HOURS_MAX is the longest chart: a week of hours. */
export const FUNCTION_STATS_HOURS_MAX = 168;

/** functionStatsQuerySchema is the query of GET /api/edge-functions/:id/stats. */
export const functionStatsQuerySchema = z.object({
  hours: countParam('hours', FUNCTION_STATS_HOURS_MAX, 24),
});
