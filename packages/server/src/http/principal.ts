import { API_KEY_PREFIX } from '@basalt/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenService } from '../features/auth/tokens.service.js';
import { TokenError } from '../features/auth/tokens.service.js';
import { type Actor, accountActor } from '../lib/actor/actor.js';
import { jwtSignatureOf, sha256 } from '../lib/crypto/tokens.js';
import type { CsrfTokens } from './csrf.js';
import { ApiError } from './errors.js';

/** SESSION_COOKIE is the console's httpOnly session cookie, set by POST /api/auth/login. */
export const SESSION_COOKIE = 'basalt_session';
/** CSRF_COOKIE holds the token GET /api/csrf-token hands out before any session exists (http/csrf.routes.ts). */
export const CSRF_COOKIE = 'basalt_csrf';

/** Principal is who a request acts as, decided only from a verified token, key or session cookie. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'service' }
  /** A console account; `aal` is its session's assurance level (aal2 once an MFA factor was verified in it). */
  | { kind: 'user'; accountId: string; sessionId: string | null; via: 'bearer' | 'cookie'; aal?: string }
  | { kind: 'apiKey'; accountId: string; keyId: number }
  /** An app's anon or service key (features/apps); `accountId` owns the app. */
  | { kind: 'appKey'; accountId: string; ref: string; role: 'anon' | 'service_role' }
  /** A signed-in end user of an app: `accountId` owns the app, `userId` is the end user. */
  | { kind: 'endUser'; accountId: string; ref: string; userId: string; sessionId: string | null }
  | { kind: 'invalid'; reason: 'expired' | 'invalid' | 'session_ended'; message: string };

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    /** resolvedPrincipal backs `principal`: null until the principal hook ran. */
    resolvedPrincipal: Principal | null;
  }
}

/** PrincipalOptions are what the hook needs to resolve credentials. */
export interface PrincipalOptions {
  tokens: TokenService;
  /** csrf checks the CSRF token of a mutating call made with a session cookie. */
  csrf: CsrfTokens;
  /** findCookieSession maps a session cookie's hash to its session, or null when it was ended. */
  findCookieSession(cookieHash: string): Promise<{ accountId: string; sessionId: string; aal?: string } | null>;
  /**
   * needsSecondFactor tells whether a console account has a verified MFA factor (features/auth/second-factor.ts):
   * then its aal1 sessions reach nothing but /auth/v1 (where the code is entered) until they are aal2. Fast: cached.
   */
  needsSecondFactor?(accountId: string): MaybePromise<boolean>;
  /**
   * findApiKey maps an API key's secret (a bearer starting with API_KEY_PREFIX) to its key, or null when it is
   * unknown or deleted. It must be fast: it runs on every public-API request (features/keys/keys.lookup.ts).
   */
  findApiKey?(
    secret: string,
  ): Promise<{ keyId: number; accountId: string } | null> | { keyId: number; accountId: string } | null;
  /**
   * isSessionLive tells whether the session an access token names has not ended (features/auth/session-liveness.ts);
   * a token of an ended session is refused. It must be fast: it runs on every request with a user's token.
   */
  isSessionLive?(sessionId: string, accountId: string): boolean | Promise<boolean>;
  /**
   * matchAppKey recognises one of an app's current keys (features/apps/app-lookup.ts), or null: not an app key,
   * or one that was rolled. Fast: every request of an app carries one.
   */
  matchAppKey?(key: string): MaybePromise<{ accountId: string; ref: string; role: 'anon' | 'service_role' } | null>;
  /** appOwnerOf names the account owning the app of a ref, or null when there is no such app (any more). */
  appOwnerOf?(ref: string): MaybePromise<string | null>;
  /** isEndUserSessionLive is isSessionLive for the sessions of apps' end users. */
  isEndUserSessionLive?(sessionId: string, userId: string): boolean | Promise<boolean>;
}

const SESSION_ENDED: Principal = { kind: 'invalid', reason: 'session_ended', message: 'Session not found' };

// A user's token counts only while its session lives; every other principal passes as it is.
function withLiveSession(principal: Principal, options: PrincipalOptions): MaybePromise<Principal> {
  if (principal.kind === 'endUser') {
    if (!principal.sessionId || !options.isEndUserSessionLive) return principal;
    const live = options.isEndUserSessionLive(principal.sessionId, principal.userId);
    if (isPromise(live)) return live.then((alive) => (alive ? principal : SESSION_ENDED));
    return live ? principal : SESSION_ENDED;
  }
  if (principal.kind !== 'user' || !principal.sessionId || !options.isSessionLive) return principal;
  const live = options.isSessionLive(principal.sessionId, principal.accountId);
  if (isPromise(live)) return live.then((alive) => (alive ? principal : SESSION_ENDED));
  return live ? principal : SESSION_ENDED;
}

const ANONYMOUS: Principal = { kind: 'anonymous' };
const SERVICE: Principal = { kind: 'service' };
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** bearerOf returns the token of a request's `Authorization: Bearer …` header. */
export const bearerOf = (request: FastifyRequest): string | null => bearerOfHeader(request.headers.authorization);

/** bearerOfHeader returns the token of an `Authorization: Bearer …` header (scheme case-insensitive), or null. */
export function bearerOfHeader(header: string | undefined): string | null {
  if (!header) return null;
  // The usual form, `Bearer <token>` with nothing around it, without a regular expression.
  if (header.startsWith('Bearer ') && header.charCodeAt(7) > 32 && header.charCodeAt(header.length - 1) > 32) {
    return header.slice(7);
  }
  const match = /^bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim() || null;
}

const INVALID_API_KEY: Principal = { kind: 'invalid', reason: 'invalid', message: 'Invalid API key' };

type MaybePromise<T> = T | Promise<T>;

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;

// Verified JWTs are remembered as principals until their own expiry, so that a signed-in user's request is
// decided without waiting (the token service's own cache answers through a promise). Access tokens are
// stateless until exp, so nothing is lost; a refused token is not remembered. At most TOKEN_CACHE_SIZE tokens,
// the oldest dropped first, found by their signatures (jwtSignatureOf).
const TOKEN_CACHE_SIZE = 10_000;

interface TokenCache {
  get(token: string): Principal | null;
  remember(token: string, principal: Principal, expiresAtMs: number): void;
}

function createTokenCache(): TokenCache {
  const entries = new Map<string, { token: string; principal: Principal; expiresAtMs: number }>();
  return {
    get(token) {
      const signature = jwtSignatureOf(token);
      const entry = entries.get(signature);
      if (!entry || entry.token !== token) return null;
      if (entry.expiresAtMs > Date.now()) return entry.principal;
      entries.delete(signature);
      return null;
    },
    remember(token, principal, expiresAtMs) {
      if (entries.size >= TOKEN_CACHE_SIZE) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(jwtSignatureOf(token), { token, principal, expiresAtMs });
    },
  };
}

// Synchronous when the answer is known at once (an API key in the lookup's cache, the instance's own keys, a
// token verified before), so that the record APIs' hot path does not wait a microtask for nothing.
function principalFromBearer(token: string, options: PrincipalOptions, verified: TokenCache): MaybePromise<Principal> {
  const { tokens, findApiKey } = options;
  if (findApiKey && token.startsWith(API_KEY_PREFIX)) {
    const key = findApiKey(token);
    const principal = (found: { keyId: number; accountId: string } | null): Principal =>
      found ? { kind: 'apiKey', accountId: found.accountId, keyId: found.keyId } : INVALID_API_KEY;
    return isPromise(key) ? key.then(principal) : principal(key);
  }
  const keyRole = tokens.roleOfKey(token);
  if (keyRole) return keyRole === 'anon' ? ANONYMOUS : SERVICE;
  const known = verified.get(token);
  if (known) return withLiveSession(known, options);
  const appKey = options.matchAppKey?.(token) ?? null;
  const fromToken = () =>
    userFromToken(token, options, verified).then((principal) => withLiveSession(principal, options));
  if (isPromise(appKey)) return appKey.then((match) => (match ? appKeyPrincipal(match) : fromToken()));
  return appKey ? appKeyPrincipal(appKey) : fromToken();
}

const appKeyPrincipal = (match: { accountId: string; ref: string; role: 'anon' | 'service_role' }): Principal => ({
  kind: 'appKey',
  ...match,
});

const APP_GONE: Principal = { kind: 'invalid', reason: 'invalid', message: 'The app of this token no longer exists' };

async function userFromToken(token: string, options: PrincipalOptions, verified: TokenCache): Promise<Principal> {
  const { tokens } = options;
  let result: Awaited<ReturnType<TokenService['verify']>>;
  try {
    result = await tokens.verify(token);
  } catch (error) {
    if (error instanceof TokenError) return { kind: 'invalid', reason: error.reason, message: error.message };
    throw error;
  }
  // A key of an app that is not one of its current keys (matchAppKey said no) was rolled: it is refused.
  if (result.ref !== null && result.role !== 'authenticated') return INVALID_API_KEY;
  let principal: Principal;
  if (result.ref !== null) {
    const owner = options.appOwnerOf ? await options.appOwnerOf(result.ref) : null;
    if (!owner) return APP_GONE;
    principal = {
      kind: 'endUser',
      accountId: owner,
      ref: result.ref,
      userId: result.sub ?? '',
      sessionId: result.sessionId,
    };
  } else {
    principal =
      result.role === 'anon'
        ? ANONYMOUS
        : result.role === 'service_role'
          ? SERVICE
          : {
              kind: 'user',
              accountId: result.sub ?? '',
              sessionId: result.sessionId,
              via: 'bearer',
              aal: typeof result.claims.aal === 'string' ? result.claims.aal : 'aal1',
            };
  }
  if (typeof result.claims.exp === 'number') verified.remember(token, principal, result.claims.exp * 1000);
  return principal;
}

/** isSocketUrl tells whether a URL is the Schema Editor's WebSocket, /ws (features/projects/schema-room.routes.ts). */
export const isSocketUrl = (url: string) => url === '/ws' || url.startsWith('/ws?');

// A browser cannot set headers on a WebSocket: /ws also takes the account's access token as `access_token`.
function socketTokenOf(request: FastifyRequest): string | null {
  const token = (request.query as Record<string, unknown> | undefined)?.access_token;
  return typeof token === 'string' && token.length > 0 && token.length < 8192 ? token : null;
}

/** cookiesOf returns a request's cookies, parsed on first use (the cookie plugin does not parse every request). */
export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  if (!request.cookies) {
    const header = request.headers.cookie;
    request.cookies = header ? request.server.parseCookie(header) : {};
  }
  return request.cookies;
}

/** PrincipalNow is the caller of a bearer token when it is known without waiting (http/fast-reads.ts), else null. */
export type PrincipalNow = (bearer: string, url: string) => Principal | null;

/**
 * installPrincipal resolves request.principal once per API request, and enforces CSRF on cookie sessions. It
 * returns the same resolution for callers that do not wait (the fast reads), over the same verified tokens.
 */
export function installPrincipal(app: FastifyInstance, options: PrincipalOptions): PrincipalNow {
  // Fastify forbids object defaults on request decorators: a null field behind a getter that reads as
  // anonymous until the hook sets it (a plain property read, no per-request allocation).
  app.decorateRequest('resolvedPrincipal', null);
  app.decorateRequest('principal', {
    getter(this: FastifyRequest) {
      return this.resolvedPrincipal ?? ANONYMOUS;
    },
    setter(this: FastifyRequest, value: Principal) {
      this.resolvedPrincipal = value;
    },
  });
  const verified = createTokenCache();
  const resolveBearer = (bearer: string, url: string): MaybePromise<Principal> => {
    const fromBearer = principalFromBearer(bearer, options, verified);
    return isPromise(fromBearer)
      ? fromBearer.then((resolved) => withSecondFactor(resolved, url, options))
      : withSecondFactor(fromBearer, url, options);
  };
  // A callback hook: most requests are answered without waiting (see principalFromBearer).
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.url;
    const socket = isSocketUrl(url);
    if (
      !url.startsWith('/api/') &&
      !url.startsWith('/rest/v1/') &&
      !url.startsWith('/auth/v1/') &&
      !url.startsWith('/functions/v1/') &&
      !socket
    ) {
      return done();
    }
    const bearer = bearerOf(request) ?? (socket ? socketTokenOf(request) : null);
    if (!bearer) {
      if (!request.headers.cookie || !(url.startsWith('/api/') || socket)) return done();
      principalFromCookie(request, options).then(() => done(), done);
      return;
    }
    let principal: MaybePromise<Principal>;
    try {
      principal = resolveBearer(bearer, url);
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (!isPromise(principal)) {
      request.principal = principal;
      return done();
    }
    principal.then((resolved) => {
      request.principal = resolved;
      done();
    }, done);
  });
  return (bearer, url) => {
    const principal = resolveBearer(bearer, url);
    if (!isPromise(principal)) return principal;
    // Nobody waits for it here: the request goes to Fastify, which resolves the token again.
    principal.catch(() => {});
    return null;
  };
}

// The console's session cookie (only on /api/), with the CSRF check for mutating calls.
async function principalFromCookie(request: FastifyRequest, options: PrincipalOptions): Promise<void> {
  const cookie =
    request.url.startsWith('/api/') || isSocketUrl(request.url) ? cookiesOf(request)[SESSION_COOKIE] : undefined;
  if (!cookie) return;
  const session = await options.findCookieSession(sha256(cookie));
  if (!session) return;
  // A cookie is sent by the browser on its own, so a mutating call must prove it read our CSRF token.
  if (!SAFE_METHODS.has(request.method)) options.csrf.check(request, cookie);
  request.principal = await withSecondFactor(
    { kind: 'user', accountId: session.accountId, sessionId: session.sessionId, via: 'cookie', aal: session.aal },
    request.url,
    options,
  );
}

const SECOND_FACTOR_PENDING: Principal = {
  kind: 'invalid',
  reason: 'invalid',
  message: 'Enter the code of your authenticator app to finish signing in',
};

// A console account with a verified factor signs in in two steps: its aal1 session may finish the second one on
// /auth/v1 and nothing else.
function withSecondFactor(principal: Principal, url: string, options: PrincipalOptions): MaybePromise<Principal> {
  if (principal.kind !== 'user' || principal.aal === 'aal2' || !options.needsSecondFactor) return principal;
  if (url.startsWith('/auth/v1/')) return principal;
  const needed = options.needsSecondFactor(principal.accountId);
  if (isPromise(needed)) return needed.then((yes) => (yes ? SECOND_FACTOR_PENDING : principal));
  return needed ? SECOND_FACTOR_PENDING : principal;
}

/** SignedInAccount is the account of a console request and the session it signed in with. */
export interface SignedInAccount extends Actor {
  sessionId: string | null;
}

/**
 * requireUser returns the signed-in account of a console request, or throws the console's 401. API keys are
 * refused (403): they reach the record API, not the console's management endpoints.
 */
export function requireUser(request: FastifyRequest): SignedInAccount {
  const p = request.principal;
  if (p.kind === 'user') return { accountId: p.accountId, sessionId: p.sessionId };
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

// An app's keys and its users' tokens reach /auth/v1 and /rest/v1 only: nothing of the console's API.
const notForApps = (headers?: Record<string, string>) =>
  new ApiError(
    401,
    'unauthorized',
    "App keys and app users' tokens cannot use the console API; sign in with a Basalt account",
    headers ? { headers } : {},
  );

/**
 * requireAccount returns the account of a request made with an API key or a signed-in user's token or session
 * (the public record API), or throws 401 "Missing or invalid API key" (403 for the service key, which has no
 * account). Errors carry `WWW-Authenticate: Bearer` as RFC 6750 asks.
 */
export function requireAccount(request: FastifyRequest): Actor {
  return accountActorOf(request.principal);
}

/** accountActorOf is requireAccount for a principal resolved elsewhere (http/fast-reads.ts). */
export function accountActorOf(p: Principal): Actor {
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
