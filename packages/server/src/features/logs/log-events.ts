import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../http/principal.js';
import type { LogInput, LogWriter } from './log-writer.js';
import type { RequestSample } from './request-summaries.js';

// What Basalt logs about itself, one function per kind of event. Each builds its entry from safe facts only:
// a path without its query string, never a header, a body, a password or a token.

// The APIs' paths; the console's pages and assets are not logged.
const LOGGED_PATH =
  /^\/(?:api\/|auth\/v1(?:[/?]|$)|rest\/v1(?:[/?]|$)|storage\/v1(?:[/?]|$)|realtime\/v1(?:[/?]|$)|functions\/v1(?:[/?]|$)|\.well-known\/)/;
// The liveness probe is polled by load balancers every few seconds; it would bury everything else.
const UNLOGGED_PATHS = new Set(['/api/health']);

const pathOf = (url: string) => {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
};

/** RequestFacts are what a request's own entry is made of. */
export interface RequestFacts {
  at: number;
  method: string;
  /** Without the query string. */
  path: string;
  status: number;
  accountId: string | null;
  durationMs: number;
  requestId: string;
  keyId?: number | undefined;
  /** early tells which path answered: the early runner, or Fastify. */
  early: boolean;
}

/** requestEntry is one request's own entry: 5xx are errors, 4xx warnings, the rest info. */
function requestEntry({
  at,
  method,
  path,
  status,
  accountId,
  durationMs,
  requestId,
  keyId,
  early,
}: RequestFacts): LogInput {
  return {
    at,
    level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
    source: 'api',
    message: `${method} ${path} ${status}`,
    path,
    accountId,
    context: {
      method,
      status,
      durationMs,
      requestId,
      answeredBy: early ? 'early' : 'fastify',
      ...(keyId !== undefined ? { keyId } : {}),
    },
  };
}

/** RequestLogOptions say how successful requests are stored: each on its own (LOG_REQUESTS=all), or summarised. */
export interface RequestLogOptions {
  everyRequest: boolean;
}

/** answeredOf is what Fastify's answer to a request tells the logs (the onResponse hook). */
export function answeredOf(request: FastifyRequest, reply: FastifyReply): AnsweredRequest {
  return {
    method: request.method,
    url: request.url,
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
    bytes: Number(reply.getHeader('content-length')) || 0,
    principal: request.principal,
    requestId: request.id,
    route: request.routeOptions.url,
    params: request.params as Record<string, string | undefined> | undefined,
    early: false,
  };
}

/** AnsweredRequest is what the request log keeps of an answered API request. */
export interface AnsweredRequest {
  method: string;
  /** With its query string, which is not stored. */
  url: string;
  status: number;
  durationMs: number;
  /** The answer's body length, where it was known (streamed answers count 0). */
  bytes: number;
  principal: Principal;
  requestId: string;
  /** The route's pattern, undefined when no route matched. */
  route: string | undefined;
  params: Record<string, string | undefined> | undefined;
  /** early tells that the early runner answered it (http/routes/early-runner.ts), not Fastify. */
  early: boolean;
}

/**
 * recordAnswered logs an answered request, on either path: 5xx are errors and 4xx warnings, each stored on its own;
 * a successful request is counted into its route's summary (request-summaries.ts) unless every request is stored.
 */
export function recordAnswered(logs: LogWriter, answered: AnsweredRequest, options: RequestLogOptions): void {
  // CORS preflights, the console's pages and the liveness probe are not logged.
  if (answered.method === 'OPTIONS' || !LOGGED_PATH.test(answered.url) || UNLOGGED_PATHS.has(pathOf(answered.url))) {
    return;
  }
  const sample = new AnsweredSample(answered, Date.now());
  if (options.everyRequest || answered.status >= 400 || answered.route === undefined) logs.write(sample.entry());
  else logs.countRequest(sample);
}

// One object per request, read by the summaries: its route and its own entry are only built when a summary asks
// (for its first request), which most requests never are. Closures and spreads per request cost a get measurably.
// Only the request's facts are kept, not the principal: a summary holds its first request's sample for a window.
class AnsweredSample implements RequestSample {
  readonly method: string;
  readonly routeKey: string;
  readonly status: number;
  // An app's callers are the owning account's traffic.
  readonly accountId: string | null;
  readonly keyId: number | undefined;
  readonly durationMs: number;
  readonly early: boolean;
  private readonly url: string;
  private readonly requestId: string;
  private readonly pattern: string | undefined;
  private readonly params: Record<string, string | undefined> | undefined;

  constructor(
    answered: AnsweredRequest,
    readonly at: number,
  ) {
    const { principal, route } = answered;
    this.method = answered.method;
    this.routeKey = route === undefined ? '' : routeKeyOf(route, answered.params);
    this.status = answered.status;
    this.accountId = 'accountId' in principal ? principal.accountId : null;
    this.keyId = principal.kind === 'apiKey' ? principal.keyId : undefined;
    this.durationMs = answered.durationMs;
    this.early = answered.early;
    this.url = answered.url;
    this.requestId = answered.requestId;
    this.pattern = route;
    this.params = answered.params;
  }

  route(): string {
    return this.pattern === undefined ? pathOf(this.url) : routeWithParams(this.pattern, this.params);
  }

  entry(): LogInput {
    const { at, method, status, accountId, durationMs, requestId, keyId, early } = this;
    return requestEntry({ at, method, path: pathOf(this.url), status, accountId, durationMs, requestId, keyId, early });
  }
}

// What tells two requests' routes apart: the pattern and its parameters but :id (one summary for every id).
function routeKeyOf(route: string, params: Record<string, string | undefined> | undefined): string {
  let key = route;
  for (const name in params) if (name !== 'id') key += `\u0000${params[name]}`;
  return key;
}

/** routeWithParams fills in a route pattern's parameters but :id: "/api/table/:name/:id" → "/api/table/items/:id". */
export function routeWithParams(route: string, params: Record<string, string | undefined> | undefined): string {
  if (!route.includes(':')) return route;
  return route.replace(/:(\w+)/g, (whole, name: string) => (name === 'id' ? whole : (params?.[name] ?? whole)));
}

/**
 * recordUnexpectedError logs an error that became a bare 500 (http/error-handler.ts), with its stack. Only
 * administrators see it: the account that made the request sees its request's 500, not the server's internals.
 */
export function recordUnexpectedError(logs: LogWriter, request: FastifyRequest, error: unknown): void {
  const path = pathOf(request.url);
  const described =
    error instanceof Error
      ? {
          name: error.name,
          message: error.message,
          code: (error as Error & { code?: unknown }).code,
          stack: error.stack,
        }
      : { message: String(error) };
  logs.write({
    level: 'error',
    source: 'api',
    message: `Unexpected error on ${request.method} ${path}: ${described.message}`,
    path,
    accountId: null,
    context: {
      requestId: request.id,
      method: request.method,
      accountId: 'accountId' in request.principal ? request.principal.accountId : null,
      error: described,
    },
  });
}

/** AuthEvent is a sign-up, a sign-in or a refused sign-in. */
export type AuthEvent =
  // An app's end user's events belong to the app's owner (accountId) and name the user (endUserId).
  | { kind: 'signed_up'; accountId: string; email: string; ip: string; confirmed: boolean; endUserId?: string }
  | { kind: 'signed_in'; accountId: string; method: string; ip: string; endUserId?: string }
  | { kind: 'sign_in_refused'; email: string; reason: string; ip: string };

/**
 * recordAuthEvent logs an auth event. Sign-ups and sign-ins belong to their account; a refused sign-in is for
 * administrators only (whoever tried is not known to be the account's owner).
 */
export function recordAuthEvent(logs: LogWriter, event: AuthEvent): void {
  logs.write(authEntry(event));
}

function authEntry(event: AuthEvent): LogInput {
  switch (event.kind) {
    case 'signed_up':
      return {
        level: 'info',
        source: 'auth',
        message: event.endUserId ? `App user signed up: ${event.email}` : `Signed up: ${event.email}`,
        accountId: event.accountId,
        context: {
          event: event.kind,
          email: event.email,
          ip: event.ip,
          confirmed: event.confirmed,
          ...(event.endUserId ? { endUserId: event.endUserId } : {}),
        },
      };
    case 'signed_in':
      return {
        level: 'info',
        source: 'auth',
        message: event.endUserId ? `App user signed in (${event.method})` : `Signed in (${event.method})`,
        accountId: event.accountId,
        context: {
          event: event.kind,
          method: event.method,
          ip: event.ip,
          ...(event.endUserId ? { endUserId: event.endUserId } : {}),
        },
      };
    case 'sign_in_refused':
      return {
        level: 'warn',
        source: 'auth',
        message: `Sign-in refused (${event.reason}): ${event.email}`,
        accountId: null,
        context: { event: event.kind, reason: event.reason, email: event.email, ip: event.ip },
      };
  }
}
