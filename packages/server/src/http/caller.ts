import { type Actor, accountActor } from '../lib/actor/actor.js';
import { ApiError } from './errors.js';
import {
  bearerOfHeader,
  INVALID_API_KEY,
  type Principal,
  type PrincipalResolver,
  SECOND_FACTOR_PENDING,
  SESSION_ENDED,
} from './principal.js';
import type { AdmissionStep, Call } from './routes/route.js';

// The caller step, first of every route's admission: it resolves who calls (the principal, from the bearer token
// or key, or the console's session cookie) and, for the routes that say whose they are, decides the actor or
// refuses with the route family's 401 or 403. Each policy is one step, shared by every route that has it.

type MaybePromise<T> = T | Promise<T>;

/** CallerOptions are what the caller steps need: the principal resolver and the facts of console accounts. */
export interface CallerOptions {
  resolver: PrincipalResolver;
  /** isAdmin tells whether a console account administers the instance. Fast: cached. */
  isAdmin(accountId: string): MaybePromise<boolean>;
}

/** Callers are the caller steps, one per policy. */
export interface Callers {
  /** anyone resolves the principal and admits every caller: the route decides (auth, rest, functions). */
  anyone: AdmissionStep;
  /** user admits a signed-in console account (token or session cookie); the actor knows whether it is an admin. */
  user: AdmissionStep;
  /** admin admits a signed-in administrator of the instance. */
  admin: AdmissionStep;
  /** socketUser is user for a browser's WebSocket, which may carry its token as `access_token` in the query. */
  socketUser: AdmissionStep;
  /** account admits an account's API key or its signed-in console account (the public record API). */
  account: AdmissionStep;
}

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;
const MAX_QUERY_TOKEN = 8192;

// A browser cannot set headers on a WebSocket: its token may come as `access_token`.
function queryTokenOf(call: Call): string | null {
  const token = new URLSearchParams(call.rawQuery).get('access_token');
  return token && token.length < MAX_QUERY_TOKEN ? token : null;
}

function resolve(call: Call, resolver: PrincipalResolver, tokenInQuery: boolean): void | Promise<void> {
  const bearer = bearerOfHeader(call.headers.authorization) ?? (tokenInQuery ? queryTokenOf(call) : null);
  if (bearer) {
    const principal = resolver.fromBearer(bearer, call.url);
    if (!isPromise(principal)) {
      call.principal = principal;
      return;
    }
    return principal.then((resolved) => {
      call.principal = resolved;
    });
  }
  // Only the console's own API (and its WebSocket) knows the session cookie.
  if (!call.headers.cookie || !(tokenInQuery || call.url.startsWith('/api/'))) return;
  return resolver.fromCookie(call).then((resolved) => {
    if (resolved) call.principal = resolved;
  });
}

// Runs `decide` once the principal is known: at once, or after the resolution it waits for.
function thenDecide(waiting: void | Promise<void>, decide: () => void | Promise<void>): void | Promise<void> {
  return waiting ? waiting.then(decide) : decide();
}

/** createCallers makes the caller steps of one server. */
export function createCallers({ resolver, isAdmin }: CallerOptions): Callers {
  const withAdminFact = (call: Call, actor: Actor): void | Promise<void> => {
    const admin = isAdmin(actor.accountId);
    if (!isPromise(admin)) {
      call.actor = { ...actor, admin };
      return;
    }
    return admin.then((known) => {
      call.actor = { ...actor, admin: known };
    });
  };
  const user =
    (tokenInQuery: boolean): AdmissionStep =>
    (call) =>
      thenDecide(resolve(call, resolver, tokenInQuery), () => withAdminFact(call, consoleAccountOf(call.principal)));
  return {
    anyone: (call) => resolve(call, resolver, false),
    user: user(false),
    socketUser: user(true),
    admin: (call) =>
      thenDecide(user(false)(call), () => {
        if (!call.actor.admin) throw new ApiError(403, 'not_admin', 'Only instance administrators can do this');
      }),
    account: (call) =>
      thenDecide(resolve(call, resolver, false), () => {
        call.actor = keyOrAccountOf(call.principal);
      }),
  };
}

/** sessionIdOf is the session a console account's request was made in (null for an API key or a token without one). */
export function sessionIdOf(call: Call): string | null {
  return call.principal.kind === 'user' ? call.principal.sessionId : null;
}

// An app's keys and its users' tokens reach /auth/v1 and /rest/v1 only: nothing of the console's API.
const notForApps = (headers?: Record<string, string>) =>
  new ApiError(
    401,
    'unauthorized',
    "App keys and app users' tokens cannot use the console API; sign in with a Basalt account",
    headers ? { headers } : {},
  );

/**
 * consoleAccountOf is the actor of a console request's signed-in account, or the console's 401. API keys are
 * refused (403): they reach the record API, not the console's management endpoints.
 */
export function consoleAccountOf(p: Principal): Actor {
  if (p.kind === 'user') return accountActor(p.accountId);
  if (p.kind === 'apiKey') {
    throw new ApiError(403, 'api_key_not_allowed', 'This endpoint needs a signed-in user; an API key cannot use it.');
  }
  if (p.kind === 'endUser' || p.kind === 'appKey') throw notForApps();
  if (p === SESSION_ENDED) {
    throw new ApiError(401, 'session_not_found', 'Your session has ended. Please sign in again.');
  }
  if (p === SECOND_FACTOR_PENDING) {
    throw new ApiError(401, 'insufficient_aal', 'Enter the code of your authenticator app to finish signing in');
  }
  if (p.kind === 'invalid') {
    throw new ApiError(
      401,
      p.reason === 'expired' ? 'token_expired' : 'invalid_token',
      p.reason === 'expired'
        ? 'Your session has expired. Please sign in again.'
        : 'Your session is not valid. Please sign in again.',
    );
  }
  throw new ApiError(401, 'unauthorized', 'Authentication required');
}

const MISSING_OR_INVALID_KEY = 'Missing or invalid API key';

/**
 * keyOrAccountOf is the actor of a request made with an API key or a signed-in user's token or session (the
 * public record API), or 401 "Missing or invalid API key" (403 for the service key, which has no account).
 * Errors carry `WWW-Authenticate: Bearer` as RFC 6750 asks.
 */
export function keyOrAccountOf(p: Principal): Actor {
  if (p.kind === 'apiKey') return accountActor(p.accountId, p.keyId);
  if (p.kind === 'user') return accountActor(p.accountId);
  const headers = { 'WWW-Authenticate': 'Bearer' };
  if (p.kind === 'endUser' || p.kind === 'appKey') throw notForApps(headers);
  if (p.kind === 'service') {
    throw new ApiError(403, 'forbidden', 'The service key has no account; use an API key or a signed-in user', {
      headers,
    });
  }
  if (p.kind === 'invalid') {
    const code = p.reason === 'expired' ? 'token_expired' : p === INVALID_API_KEY ? 'invalid_api_key' : 'invalid_token';
    throw new ApiError(401, code, MISSING_OR_INVALID_KEY, { headers });
  }
  throw new ApiError(401, 'unauthorized', MISSING_OR_INVALID_KEY, { headers });
}
