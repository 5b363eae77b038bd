import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { UsageMeter } from './usage-meter.js';

// Where metering meets the requests. A request to the data and function APIs (/rest/v1, /api/table and its short
// form /api/<name>, /functions/v1, /api/edge) made for an account (its keys, its console session, its app's keys
// and users) is one API call. Over the plan's calls it is refused with 429; a write to the data APIs is refused
// with 413 once storage is used up (reads and deletes go on). The hook is attached to those routes only, as they
// are registered, so that no other route pays for it and no path is matched per request.

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

type Kind = 'data' | 'functions';

function meteredKind(route: RouteOptions): Kind | null {
  const url = route.url;
  if (url.startsWith('/rest/v1/')) return 'data';
  if (url.startsWith('/functions/v1/') || url.startsWith('/api/edge/')) return 'functions';
  return route.config?.errorFamily === 'public' ? 'data' : null;
}

type Hook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

function meteringHook(meter: UsageMeter, kind: Kind): Hook {
  return (request, _reply, done) => {
    const principal = request.principal;
    if (!('accountId' in principal) || request.method === 'OPTIONS') return done();
    const refused = meter.admit(principal.accountId, kind === 'data' && WRITES.has(request.method));
    if (refused === null) return done();
    if (refused instanceof Promise) {
      refused.then((error) => (error ? done(error) : done()), done);
      return;
    }
    done(refused);
  };
}

/**
 * installMetering counts each metered request of an account and refuses those over its plan's caps; call it
 * before the metered routes are registered. The hook runs after the route's own (a route may refuse first).
 */
export function installMetering(app: FastifyInstance, meter: UsageMeter): void {
  const hooks: Record<Kind, Hook> = { data: meteringHook(meter, 'data'), functions: meteringHook(meter, 'functions') };
  app.addHook('onRoute', (route) => {
    const kind = meteredKind(route);
    if (kind === null) return;
    const own = route.onRequest;
    route.onRequest = own ? [...(Array.isArray(own) ? own : [own]), hooks[kind]] : [hooks[kind]];
  });
}
