import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogInput, LogWriter } from './log-writer.js';

// What Basalt logs about itself, one function per kind of event. Each builds its entry from safe facts only:
// a path without its query string, never a header, a body, a password or a token.

// The APIs' paths; the console's pages and assets are not logged.
const LOGGED_PATH = /^\/(?:api\/|auth\/v1(?:[/?]|$)|rest\/v1(?:[/?]|$)|\.well-known\/)/;
// The liveness probe is polled by load balancers every few seconds; it would bury everything else.
const UNLOGGED_PATHS = new Set(['/api/health']);

const pathOf = (url: string) => {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
};

const accountOf = (request: FastifyRequest): string | null => {
  const principal = request.principal;
  return principal.kind === 'user' || principal.kind === 'apiKey' ? principal.accountId : null;
};

/**
 * recordRequest logs one answered API request (the onResponse hook): method, path, status, duration, request
 * id, for the account that made it. 5xx are errors and 4xx warnings. CORS preflights are not logged.
 */
export function recordRequest(logs: LogWriter, request: FastifyRequest, reply: FastifyReply): void {
  const { url, method } = request;
  if (method === 'OPTIONS' || !LOGGED_PATH.test(url)) return;
  const path = pathOf(url);
  if (UNLOGGED_PATHS.has(path)) return;
  const status = reply.statusCode;
  const principal = request.principal;
  logs.write({
    at: Date.now(),
    level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
    source: 'api',
    message: `${method} ${path} ${status}`,
    path,
    accountId: accountOf(request),
    context: {
      method,
      status,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      requestId: request.id,
      ...(principal.kind === 'apiKey' ? { keyId: principal.keyId } : {}),
    },
  });
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
    context: { requestId: request.id, method: request.method, accountId: accountOf(request), error: described },
  });
}

/** AuthEvent is a sign-up, a sign-in or a refused sign-in. */
export type AuthEvent =
  | { kind: 'signed_up'; accountId: string; email: string; ip: string; confirmed: boolean }
  | { kind: 'signed_in'; accountId: string; method: string; ip: string }
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
        message: `Signed up: ${event.email}`,
        accountId: event.accountId,
        context: { event: event.kind, email: event.email, ip: event.ip, confirmed: event.confirmed },
      };
    case 'signed_in':
      return {
        level: 'info',
        source: 'auth',
        message: `Signed in (${event.method})`,
        accountId: event.accountId,
        context: { event: event.kind, method: event.method, ip: event.ip },
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
