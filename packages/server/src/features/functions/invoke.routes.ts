import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { sendApiError } from '../../http/error-handler.js';
import { ApiError } from '../../http/errors.js';
import { functionDirectoryOf, type LiveFunction } from './function-directory.js';
import { safeResponseHeaders, withoutConsoleCookies } from './function-origin.js';
import { type DeployedFunction, runFunction } from './invoke.service.js';
import { invokerAccountOf, refusalOf } from './invoke-access.js';
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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** cors overrides @fastify/cors's options for one route (the plugin reads it; its types do not declare it). */
    cors?: { allowedHeaders?: string | null; exposedHeaders?: string };
  }
}

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

/** functionInvokeRoutes registers the two ways of calling a function. */
export async function functionInvokeRoutes(
  app: FastifyInstance,
  { ctx, runtime }: { ctx: AppContext; runtime: RuntimeHandle },
): Promise<void> {
  const limits = ctx.config.functions;
  const directory = functionDirectoryOf(ctx.db);

  // Bodies stay bytes, whatever their type, up to the functions' own limit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limits.requestBytes }, (_request, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendRelayError(reply, relayErrors.requestSize(limits.requestBytes));
    }
    if (error instanceof ApiError) return sendApiError(request, reply, error);
    throw error;
  });

  async function invoke(request: FastifyRequest, reply: FastifyReply, fn: LiveFunction | null, path: string) {
    if (!fn?.isActive || fn.version === null) return sendRelayError(reply, notFoundError());
    const refusal = refusalOf(request.principal, fn);
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

  // Preflights allow whatever headers they ask for: a function decides what it reads.
  const exposed = HEADERS_EXPOSED.join(', ');
  const config = { cors: { allowedHeaders: null, exposedHeaders: exposed }, corsExposedHeaders: exposed };
  const meter = async (request: FastifyRequest) => {
    if (request.call) await ctx.meter.functions(request.call);
  };
  const options = { config, bodyLimit: limits.requestBytes, onRequest: meter };

  app.all('/api/edge/*', options, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    return invoke(request, reply, await directory.byPath(path, invokerAccountOf(request.principal)), request.url);
  });

  const byName = async (request: FastifyRequest, reply: FastifyReply) => {
    const { name } = request.params as { name: string };
    const fn = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(name)
      ? await directory.byName(name, invokerAccountOf(request.principal))
      : null;
    return invoke(request, reply, fn, request.url.slice('/functions/v1'.length));
  };
  app.all('/functions/v1/:name', options, byName);
  app.all('/functions/v1/:name/*', options, byName);
}
