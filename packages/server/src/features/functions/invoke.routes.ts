import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { sendApiError } from '../../http/error-handler.js';
import { ApiError } from '../../http/errors.js';
import type { Call, Method, Route } from '../../http/routes/route.js';
import type { UsageMeter } from '../billing/usage-meter.js';
import type { MeterSteps } from '../billing/usage-metering.js';
import { functionDirectoryOf, type LiveFunction } from './function-directory.js';
import { safeResponseHeaders, withoutConsoleCookies } from './function-origin.js';
import { type DeployedFunction, runFunction } from './invoke.service.js';
import { functionCaller, invokerAccountOf, refusalOf } from './invoke-access.js';
import type { RuntimeHandle } from './runtime/functions-runtime.js';
import { type RelayError, relayErrorBody, relayErrorHeaders, relayErrors } from './runtime/relay-errors.js';

// Calling a function (any method), of the account the caller's key or token names (invokerAccountOf), or, for a
// caller that names none, the only one of the instance that answers:
//   /api/edge/<route>[/…]         the function whose route is the path (or its longest prefix); it sees the path
//   /functions/v1/<name>[/…]      supabase.functions.invoke(name): the function of that name; it sees /<name>/…,
//                                 as on Supabase
// Bodies of any type reach the function as sent, up to FUNCTIONS_REQUEST_BYTES. Browsers get CORS: the preflight
// is answered here, allowing the headers it asks for; a function may set its own CORS headers on its answers.
// Errors are JSON {code, message[, limit]}; the relay's own carry x-relay-error: true (relay-errors.ts).

const HEADERS_EXPOSED = ['x-relay-error', 'sb-error-code', 'content-type', 'content-length', 'x-request-id'];

const notFoundError = (): RelayError => ({
  status: 404,
  code: 'NOT_FOUND',
  message: 'Function not found',
  relay: false,
});

function sendRelayError(reply: FastifyReply, error: RelayError): FastifyReply {
  return reply.status(error.status).headers(relayErrorHeaders(error)).send(relayErrorBody(error));
}

function forwardedHeaders(request: FastifyRequest): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = value;
  if (typeof headers.cookie === 'string') {
    const kept = withoutConsoleCookies(headers.cookie);
    if (kept === null) delete headers.cookie;
    else headers.cookie = kept;
  }
  headers['x-forwarded-for'] = request.ip;
  headers['x-forwarded-proto'] = request.protocol;
  headers['x-forwarded-host'] = request.host;
  return headers;
}

// Every method a function may answer, OPTIONS (a browser's preflight) included.
const ANY: Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** relayError is a relay error as an ApiError of the functions family, with its headers. */
function relayError(error: RelayError): ApiError {
  return new ApiError(error.status, error.code, error.message, {
    family: 'functions',
    headers: relayErrorHeaders(error),
    ...(error.limit ? { extra: { limit: error.limit } } : {}),
  });
}

/** InvokeRouteDeps is what calling a function uses of the server. */
export interface InvokeRouteDeps {
  db: Db;
  config: Pick<Config, 'functions'>;
  callers: Callers;
  functions: RuntimeHandle;
  /** usage refuses a call of an account over its compute minutes; null with METERING=off. */
  usage: Pick<UsageMeter, 'refusal'> | null;
  meter: Pick<MeterSteps, 'functions'>;
}

/** functionInvokeRoutes are the two ways of calling a function. */
export function functionInvokeRoutes(ctx: InvokeRouteDeps): Route[] {
  const limits = ctx.config.functions;
  const runtime = ctx.functions;
  const directory = functionDirectoryOf(ctx.db);

  async function invoke(
    call: Call,
    request: FastifyRequest,
    reply: FastifyReply,
    fn: LiveFunction | null,
    path: string,
  ) {
    if (!fn?.isActive || fn.version === null) return sendRelayError(reply, notFoundError());
    const refusal = refusalOf(call, fn);
    if (refusal) return sendRelayError(reply, { ...refusal, relay: false });
    // The owner's plan pays for the call: once its compute minutes are used up, its functions are not run.
    const overCompute = ctx.usage ? await ctx.usage.refusal(fn.accountId, 'computeMinutes') : null;
    if (overCompute) return sendApiError(request, reply, overCompute);
    let ready: Awaited<ReturnType<RuntimeHandle['get']>>;
    try {
      ready = await runtime.get();
    } catch (error) {
      request.log.error({ err: error }, 'the functions runtime could not start');
      return sendRelayError(reply, relayErrors.unavailable('it could not start; the server log has the details'));
    }
    const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : null;
    const result = await runFunction(ready, fn as DeployedFunction, {
      method: request.method,
      path,
      headers: forwardedHeaders(request),
      body,
    });
    if (result.error) return sendRelayError(reply, result.error);
    const cookies: string[] = [];
    for (const [name, value] of safeResponseHeaders(result.headers)) {
      if (name === 'set-cookie') cookies.push(value);
      else reply.header(name, value);
    }
    // Several Set-Cookie headers stay several.
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    return reply.status(result.status).send(result.body);
  }

  const byName = async (call: Call, request: FastifyRequest, reply: FastifyReply) => {
    const name = call.params.name ?? '';
    const fn = NAME.test(name) ? await directory.byName(name, invokerAccountOf(call)) : null;
    return invoke(call, request, reply, fn, call.url.slice('/functions/v1'.length));
  };
  // Bodies stay bytes, whatever their type, up to the functions' own limit; preflights allow whatever headers
  // they ask for: a function decides what it reads.
  const common = {
    method: ANY,
    family: 'console',
    admit: [ctx.callers.anyone, functionCaller, ctx.meter.functions],
    body: 'raw',
    fastify: { bodyLimit: limits.requestBytes },
    bodyTooLarge: () => relayError(relayErrors.requestSize(limits.requestBytes)),
    corsExposedHeaders: HEADERS_EXPOSED.join(', '),
    corsAnyRequestHeaders: true,
  } as const;
  return [
    {
      ...common,
      url: '/api/edge/*',
      handler: async (call, request, reply) =>
        invoke(call, request, reply, await directory.byPath(call.path, invokerAccountOf(call)), call.url),
    },
    { ...common, url: '/functions/v1/:name', handler: byName },
    { ...common, url: '/functions/v1/:name/*', handler: byName },
  ];
}
