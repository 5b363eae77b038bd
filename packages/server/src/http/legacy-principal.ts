import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../lib/actor/actor.js';
import { isApiPath } from './api-headers.js';
import { type Callers, consoleAccountOf, keyOrAccountOf } from './caller.js';
import { bearerOfHeader, cookiesOfHeaders } from './principal.js';
import { Call } from './routes/route.js';

// Routes not yet in the route table read their caller from the request, as before; this resolves it for them.

/** SignedInAccount is the account of a console request and the session it signed in with. */
export interface SignedInAccount extends Actor {
  sessionId: string | null;
}

/** installLegacyPrincipal resolves the principal of requests to routes outside the route table. */
export function installLegacyPrincipal(app: FastifyInstance, callers: Callers): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config?.routeTable || (!isApiPath(request.url) && !request.url.startsWith('/ws'))) {
      return done();
    }
    const call = new Call(
      request.method,
      request.url,
      (request.params ?? {}) as Record<string, string>,
      request.headers,
      () => request.ip,
    );
    request.call = call;
    const socket = request.url === '/ws' || request.url.startsWith('/ws?');
    let waiting: void | Promise<void>;
    try {
      waiting = socket ? socketPrincipal(callers, call) : callers.anyone(call);
    } catch (error) {
      return done(error instanceof Error ? error : new Error(String(error)));
    }
    if (!waiting) return done();
    waiting.then(() => done(), done);
  });
}

// The socket's caller step refuses; here only the principal is wanted.
function socketPrincipal(callers: Callers, call: Call): void | Promise<void> {
  try {
    const waiting = callers.socketUser(call);
    return waiting?.catch(() => {});
  } catch {
    return;
  }
}

/** requireUser returns the signed-in account of a console request, or throws the console's 401. */
export function requireUser(request: FastifyRequest): SignedInAccount {
  const actor = consoleAccountOf(request.principal);
  const p = request.principal;
  return {
    ...actor,
    ...(request.call?.hasActor ? request.call.actor : {}),
    sessionId: p.kind === 'user' ? p.sessionId : null,
  };
}

/** requireAccount returns the account of a public-API request. */
export function requireAccount(request: FastifyRequest): Actor {
  return keyOrAccountOf(request.principal);
}

/** bearerOf returns the token of a request's `Authorization: Bearer …` header. */
export const bearerOf = (request: FastifyRequest): string | null => bearerOfHeader(request.headers.authorization);

/** cookiesOf returns a request's cookies. */
export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  return cookiesOfHeaders(request.headers);
}
