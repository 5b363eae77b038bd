import querystring from 'fast-querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError } from '../errors.js';
import { ANONYMOUS, type Principal } from '../principal.js';
import { withCallOrigin } from '../public-origin.js';
import { admitFrom, admitRest, type Handover, takeHandover, type Waiting } from './admission.js';
import { Answer, Call, methodsOf, type Route } from './route.js';

const FORM = 'application/x-www-form-urlencoded';

// Mounting the route table on Fastify: every route becomes a Fastify route whose onRequest hook runs its
// admission steps (or goes on from where the early runner handed the request over) and whose handler calls the
// route's handler with the call and turns what it returns into the reply.

declare module 'fastify' {
  interface FastifyRequest {
    /** call is the request as its route sees it, made by the admission hook (null for a request of no route). */
    call: Call | null;
    /** handover is what the early runner did before handing the request to Fastify, if it did. */
    handover: Handover | null;
    /** principal is who calls, as the route's caller step found (anonymous before it, or on no route). */
    readonly principal: Principal;
  }
  interface FastifyContextConfig {
    /** corsExposedHeaders replace the API's exposed headers on the route's answers (http/api-headers.ts). */
    corsExposedHeaders?: string;
    /** routeTable marks a route mounted from the route table. */
    routeTable?: boolean;
  }
}

/** installRouteTable prepares Fastify's requests for the route table; call it once, before mountRoutes. */
export function installRouteTable(app: FastifyInstance): void {
  app.decorateRequest('call', null);
  app.decorateRequest('handover', null);
  // Fastify forbids object defaults on request decorators: a getter over the call (a plain property read).
  app.decorateRequest('principal', {
    getter(this: FastifyRequest) {
      return this.call?.principal ?? ANONYMOUS;
    },
  });
}

/** mountRoutes registers every route of a table on Fastify. */
export function mountRoutes(app: FastifyInstance, routes: readonly Route[]): void {
  // A URL whose HEAD some route answers itself gets no HEAD made from its GET.
  const ownHead = new Set(routes.filter((route) => methodsOf(route).includes('HEAD')).map((route) => route.url));
  const forms = routes.filter((route) => route.body === 'form');
  const raw = routes.filter((route) => route.body === 'raw');
  const streams = routes.filter((route) => route.body === 'stream');
  for (const route of routes) if (!route.body || route.body === 'json') mountRoute(app, route, !ownHead.has(route.url));
  // HTML forms are read as Fastify reads a query string, beside JSON, for the routes that take them.
  void app.register(async (withForms) => {
    withForms.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) =>
      done(null, querystring.parse(body as string)),
    );
    for (const route of forms) mountRoute(withForms, route, !ownHead.has(route.url));
  });
  // Bodies kept as bytes need a parser of their own: Fastify's parsers belong to a context, so these routes get one.
  void app.register(async (bytes) => {
    bytes.removeAllContentTypeParsers();
    bytes.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    for (const route of raw) mountRoute(bytes, route, !ownHead.has(route.url));
  });
  // Streamed bodies are not read at all: every type passes untouched, except multipart, whose parser (registered
  // once in app.ts) only marks the request for `request.parts()`.
  void app.register(async (passthrough) => {
    for (const type of ['application/json', 'text/plain']) {
      if (passthrough.hasContentTypeParser(type)) passthrough.removeContentTypeParser(type);
    }
    passthrough.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const route of streams) mountRoute(passthrough, route, !ownHead.has(route.url));
  });
}

function mountRoute(app: FastifyInstance, route: Route, headFromGet: boolean): void {
  const methods = methodsOf(route);
  const config = {
    routeTable: true,
    errorFamily: route.family,
    ...(route.corsExposedHeaders ? { corsExposedHeaders: route.corsExposedHeaders } : {}),
    ...(route.bodyTooLarge ? { bodyTooLarge: route.bodyTooLarge } : {}),
    // @fastify/cors reads a route's own options from its config (for the preflights the route answers).
    ...(route.corsAnyRequestHeaders
      ? { cors: { allowedHeaders: null, exposedHeaders: route.corsExposedHeaders } }
      : {}),
  };
  const common = {
    ...route.fastify,
    method: methods,
    url: route.url,
    // Fastify answers HEAD like the GET, unless a route answers it itself.
    exposeHeadRoute: headFromGet,
    config,
    onRequest: admissionHook(route),
  };
  if (route.socket) {
    const open = route.socket;
    app.route({
      ...common,
      handler: async () => {
        throw new ApiError(426, 'upgrade_required', 'This address answers WebSocket connections only', {
          headers: { Upgrade: 'websocket' },
        });
      },
      wsHandler: (socket, request) => open(socket, request.call as Call, request),
    });
    return;
  }
  app.route({ ...common, handler: handlerOf(route) });
}

// Runs the route's admission: from the start, or from where the early runner handed the request over.
function admissionHook(route: Route) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const handover = takeHandover(request.raw, route);
    let call: Call;
    let waiting: Waiting | null;
    if (handover) {
      request.handover = handover;
      call = handover.call;
      request.call = call;
      if (handover.refused !== undefined) {
        done(asError(handover.refused));
        return;
      }
      waiting = handover.waiting ?? null;
    } else {
      call = new Call(
        request.method,
        request.url,
        request.params as Record<string, string>,
        request.headers,
        () => request.ip,
      );
      request.call = call;
      try {
        waiting = admitFrom(route.admit, call, 0);
      } catch (error) {
        done(asError(error));
        return;
      }
    }
    if (!waiting) {
      done();
      return;
    }
    admitRest(route.admit, call, waiting).then(
      () => done(),
      (error: unknown) => done(asError(error)),
    );
  };
}

function handlerOf(route: Exclude<Route, { socket: object }>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const call = request.call as Call;
    call.body = request.body;
    const outcome = request.handover?.outcome;
    let result: unknown;
    if (outcome) {
      if ('error' in outcome) throw outcome.error;
      result = outcome.value;
    } else {
      // The request's own address, for what SITE_URL would name when it is unset (http/public-origin.ts).
      result = await withCallOrigin(call.headers, () =>
        route.early ? route.handler(call) : route.handler(call, request, reply),
      );
    }
    return replyWith(reply, result);
  };
}

/** replyWith sends what a handler returned: an Answer, the reply itself (already sent), or a value as JSON. */
function replyWith(reply: FastifyReply, result: unknown): unknown {
  if (result === reply) return reply;
  if (!(result instanceof Answer)) return result;
  reply.status(result.status).headers(result.headers);
  return result.body === undefined ? reply.send() : reply.send(result.body);
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
