import { API_KEY_PREFIX } from '@basalt/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenService } from '../features/auth/tokens.service.js';
import { TokenError } from '../features/auth/tokens.service.js';
import { safeEqual, sha256 } from '../lib/crypto/tokens.js';
import { ApiError } from './errors.js';

/** SESSION_COOKIE is the console's httpOnly session cookie, set by POST /api/auth/login. */
export const SESSION_COOKIE = 'basalt_session';
/** CSRF_COOKIE holds the double-submit CSRF secret that GET /api/csrf-token hands out. */
export const CSRF_COOKIE = 'basalt_csrf';

/** Principal is who a request acts as, decided only from a verified token, key or session cookie. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'service' }
  | { kind: 'user'; accountId: string; sessionId: string | null; via: 'bearer' | 'cookie' }
  | { kind: 'apiKey'; accountId: string; keyId: number }
  | { kind: 'invalid'; reason: 'expired' | 'invalid'; message: string };

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
  /** findCookieSession maps a session cookie's hash to its session, or null when it was ended. */
  findCookieSession(cookieHash: string): Promise<{ accountId: string; sessionId: string } | null>;
  /**
   * findApiKey maps an API key's secret (a bearer starting with API_KEY_PREFIX) to its key, or null when it is
   * unknown or deleted. It must be fast: it runs on every public-API request (features/keys/keys.lookup.ts).
   */
  findApiKey?(
    secret: string,
  ): Promise<{ keyId: number; accountId: string } | null> | { keyId: number; accountId: string } | null;
}

const ANONYMOUS: Principal = { kind: 'anonymous' };
const SERVICE: Principal = { kind: 'service' };
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** bearerOf returns the token of an `Authorization: Bearer …` header (scheme case-insensitive). */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
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
// the oldest dropped first. An entry is found by the token's signature, whose few dozen characters hash far
// faster than the whole token, and holds only for exactly the token it was verified for.
const TOKEN_CACHE_SIZE = 10_000;

interface TokenCache {
  get(token: string): Principal | null;
  remember(token: string, principal: Principal, expiresAtMs: number): void;
}

const signatureOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);

function createTokenCache(): TokenCache {
  const entries = new Map<string, { token: string; principal: Principal; expiresAtMs: number }>();
  return {
    get(token) {
      const signature = signatureOf(token);
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
      entries.set(signatureOf(token), { token, principal, expiresAtMs });
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
  return verified.get(token) ?? userFromToken(token, tokens, verified);
}

async function userFromToken(token: string, tokens: TokenService, verified: TokenCache): Promise<Principal> {
  let result: Awaited<ReturnType<TokenService['verify']>>;
  try {
    result = await tokens.verify(token);
  } catch (error) {
    if (error instanceof TokenError) return { kind: 'invalid', reason: error.reason, message: error.message };
    throw error;
  }
  const principal: Principal =
    result.role === 'anon'
      ? ANONYMOUS
      : result.role === 'service_role'
        ? SERVICE
        : { kind: 'user', accountId: result.sub ?? '', sessionId: result.sessionId, via: 'bearer' };
  if (typeof result.claims.exp === 'number') verified.remember(token, principal, result.claims.exp * 1000);
  return principal;
}

/** cookiesOf returns a request's cookies, parsed on first use (the cookie plugin does not parse every request). */
export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  if (!request.cookies) {
    const header = request.headers.cookie;
    request.cookies = header ? request.server.parseCookie(header) : {};
  }
  return request.cookies;
}

/** installPrincipal resolves request.principal once per API request, and enforces CSRF on cookie sessions. */
export function installPrincipal(app: FastifyInstance, options: PrincipalOptions): void {
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
  // A callback hook: most requests are answered without waiting (see principalFromBearer).
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.url;
    if (!url.startsWith('/api/') && !url.startsWith('/rest/v1/') && !url.startsWith('/auth/v1/')) return done();
    const bearer = bearerOf(request);
    if (!bearer) {
      if (!request.headers.cookie || !url.startsWith('/api/')) return done();
      principalFromCookie(request, options).then(() => done(), done);
      return;
    }
    let principal: MaybePromise<Principal>;
    try {
      principal = principalFromBearer(bearer, options, verified);
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
}

// The console's session cookie (only on /api/), with the CSRF check for mutating calls.
async function principalFromCookie(request: FastifyRequest, options: PrincipalOptions): Promise<void> {
  const cookie = request.url.startsWith('/api/') ? cookiesOf(request)[SESSION_COOKIE] : undefined;
  if (!cookie) return;
  const session = await options.findCookieSession(sha256(cookie));
  if (!session) return;
  if (!SAFE_METHODS.has(request.method)) {
    // A cookie is sent by the browser on its own, so a mutating call must prove it read our CSRF token.
    const sent = request.headers['x-csrf-token'];
    const expected = cookiesOf(request)[CSRF_COOKIE];
    if (typeof sent !== 'string' || !expected || !safeEqual(sent, expected)) {
      throw new ApiError(
        403,
        'csrf_invalid',
        'Missing or invalid CSRF token. Fetch GET /api/csrf-token and send it as X-CSRF-Token.',
      );
    }
  }
  request.principal = { kind: 'user', accountId: session.accountId, sessionId: session.sessionId, via: 'cookie' };
}

/**
 * requireUser returns the signed-in account of a console request, or throws the console's 401. API keys are
 * refused (403): they reach the record API, not the console's management endpoints.
 */
export function requireUser(request: FastifyRequest): { accountId: string; sessionId: string | null } {
  const p = request.principal;
  if (p.kind === 'user') return p;
  if (p.kind === 'apiKey') {
    throw new ApiError(403, 'api_key_not_allowed', 'This endpoint needs a signed-in user; an API key cannot use it.');
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

/** AccountCaller is who a record-API request acts for: an account, through an API key or a signed-in user. */
export interface AccountCaller {
  accountId: string;
  /** The key used, or null for a signed-in user. */
  keyId: number | null;
}

const MISSING_OR_INVALID_KEY = 'Missing or invalid API key';

/**
 * requireAccount returns the account of a request made with an API key or a signed-in user's token or session
 * (the public record API), or throws 401 "Missing or invalid API key" (403 for the service key, which has no
 * account). Errors carry `WWW-Authenticate: Bearer` as RFC 6750 asks.
 */
export function requireAccount(request: FastifyRequest): AccountCaller {
  const p = request.principal;
  if (p.kind === 'apiKey') return { accountId: p.accountId, keyId: p.keyId };
  if (p.kind === 'user') return { accountId: p.accountId, keyId: null };
  const headers = { 'WWW-Authenticate': 'Bearer' };
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
