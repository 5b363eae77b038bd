import type { IncomingHttpHeaders } from 'node:http';
import { API_KEY_PREFIX } from '@basalt/shared';
import { parseCookie } from 'cookie';
import { TokenError, type TokenVerifier } from '../lib/crypto/token-verifier.js';
import { jwtSignatureOf, sha256 } from '../lib/crypto/tokens.js';
import type { CsrfTokens } from './csrf.js';

// Who a request acts as, decided only from a verified token, key or session cookie. The caller step of every route
// (http/caller.ts) asks the resolver made here; most answers are known at once (a cached key, this instance's keys,
// a token verified before), so that the record APIs' hot path does not wait a microtask for nothing.

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

type MaybePromise<T> = T | Promise<T>;

/** PrincipalOptions are what resolving credentials needs of the features that know them. */
export interface PrincipalOptions {
  tokens: TokenVerifier;
  /** csrf checks the CSRF token of a mutating call made with a session cookie. */
  csrf: CsrfTokens;
  /** findCookieSession maps a session cookie's hash to its session, or null when it was ended. */
  findCookieSession(cookieHash: string): Promise<{ accountId: string; sessionId: string; aal?: string } | null>;
  /**
   * needsSecondFactor tells whether a console account has a verified MFA factor: then its aal1 sessions reach
   * nothing but /auth/v1 (where the code is entered) until they are aal2. Fast: cached.
   */
  needsSecondFactor(accountId: string): MaybePromise<boolean>;
  /** findApiKey maps an API key's secret to its key, or null when it is unknown or deleted. Fast: cached. */
  findApiKey(secret: string): MaybePromise<{ keyId: number; accountId: string } | null>;
  /** isSessionLive tells whether the session an access token names has not ended. Fast: cached. */
  isSessionLive(sessionId: string, accountId: string): MaybePromise<boolean>;
  /** matchAppKey recognises one of an app's current keys, or null (not an app key, or a rolled one). Fast: cached. */
  matchAppKey(key: string): MaybePromise<{ accountId: string; ref: string; role: 'anon' | 'service_role' } | null>;
  /** appOwnerOf names the account owning the app of a ref, or null when there is no such app (any more). */
  appOwnerOf(ref: string): MaybePromise<string | null>;
  /** isEndUserSessionLive is isSessionLive for the sessions of apps' end users. */
  isEndUserSessionLive(sessionId: string, userId: string): MaybePromise<boolean>;
}

/** ANONYMOUS is a request without credentials (or with the instance's anon key). */
export const ANONYMOUS: Principal = { kind: 'anonymous' };
const SERVICE: Principal = { kind: 'service' };
/** SESSION_ENDED is a token of a session that has ended. */
export const SESSION_ENDED: Principal = { kind: 'invalid', reason: 'session_ended', message: 'Session not found' };
/** INVALID_API_KEY is an unknown or deleted API key, or a rolled app key. */
export const INVALID_API_KEY: Principal = { kind: 'invalid', reason: 'invalid', message: 'Invalid API key' };
/** SECOND_FACTOR_PENDING is an aal1 session of an account that signs in with a second factor. */
export const SECOND_FACTOR_PENDING: Principal = {
  kind: 'invalid',
  reason: 'invalid',
  message: 'Enter the code of your authenticator app to finish signing in',
};
const APP_GONE: Principal = { kind: 'invalid', reason: 'invalid', message: 'The app of this token no longer exists' };
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;

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

/** cookiesOfHeaders parses a request's Cookie header. */
export function cookiesOfHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  return headers.cookie ? parseCookie(headers.cookie) : {};
}

/** PrincipalResolver turns credentials into principals. */
export interface PrincipalResolver {
  /** fromBearer resolves a bearer token or key; synchronous when the answer is known at once. */
  fromBearer(bearer: string, url: string): MaybePromise<Principal>;
  /**
   * fromCookie resolves the console's session cookie, checking the CSRF token of a mutating call; null without
   * a live session.
   */
  fromCookie(request: { method: string; url: string; headers: IncomingHttpHeaders }): Promise<Principal | null>;
}

// Verified JWTs are remembered as principals until their own expiry, so that a signed-in user's request is
// decided without waiting (the token service's own cache answers through a promise). Access tokens are
// stateless until exp, so nothing is lost; a refused token is not remembered. At most TOKEN_CACHE_SIZE tokens,
// the oldest dropped first, found by their signatures (jwtSignatureOf).
const TOKEN_CACHE_SIZE = 10_000;

class TokenCache {
  private readonly entries = new Map<string, { token: string; principal: Principal; expiresAtMs: number }>();

  get(token: string): Principal | null {
    const signature = jwtSignatureOf(token);
    const entry = this.entries.get(signature);
    if (!entry || entry.token !== token) return null;
    if (entry.expiresAtMs > Date.now()) return entry.principal;
    this.entries.delete(signature);
    return null;
  }

  remember(token: string, principal: Principal, expiresAtMs: number): void {
    if (this.entries.size >= TOKEN_CACHE_SIZE) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(jwtSignatureOf(token), { token, principal, expiresAtMs });
  }
}

/** createPrincipalResolver makes the resolver of one server, over its verified-token cache. */
export function createPrincipalResolver(options: PrincipalOptions): PrincipalResolver {
  const verified = new TokenCache();

  // A user's token counts only while its session lives; every other principal passes as it is.
  const withLiveSession = (principal: Principal): MaybePromise<Principal> => {
    let live: MaybePromise<boolean>;
    if (principal.kind === 'endUser' && principal.sessionId) {
      live = options.isEndUserSessionLive(principal.sessionId, principal.userId);
    } else if (principal.kind === 'user' && principal.sessionId) {
      live = options.isSessionLive(principal.sessionId, principal.accountId);
    } else {
      return principal;
    }
    if (isPromise(live)) return live.then((alive) => (alive ? principal : SESSION_ENDED));
    return live ? principal : SESSION_ENDED;
  };

  // A console account with a verified factor signs in in two steps: its aal1 session may finish the second one
  // on /auth/v1 and nothing else.
  const withSecondFactor = (principal: Principal, url: string): MaybePromise<Principal> => {
    if (principal.kind !== 'user' || principal.aal === 'aal2' || url.startsWith('/auth/v1/')) return principal;
    const needed = options.needsSecondFactor(principal.accountId);
    if (isPromise(needed)) return needed.then((yes) => (yes ? SECOND_FACTOR_PENDING : principal));
    return needed ? SECOND_FACTOR_PENDING : principal;
  };

  const fromToken = async (token: string): Promise<Principal> => {
    let result: Awaited<ReturnType<TokenVerifier['verify']>>;
    try {
      result = await options.tokens.verify(token);
    } catch (error) {
      if (error instanceof TokenError) return { kind: 'invalid', reason: error.reason, message: error.message };
      throw error;
    }
    // A key of an app that is not one of its current keys (matchAppKey said no) was rolled: it is refused.
    if (result.ref !== null && result.role !== 'authenticated') return INVALID_API_KEY;
    let principal: Principal;
    if (result.ref !== null) {
      const owner = await options.appOwnerOf(result.ref);
      if (!owner) return APP_GONE;
      principal = {
        kind: 'endUser',
        accountId: owner,
        ref: result.ref,
        userId: result.sub ?? '',
        sessionId: result.sessionId,
      };
    } else if (result.role === 'anon') {
      principal = ANONYMOUS;
    } else if (result.role === 'service_role') {
      principal = SERVICE;
    } else {
      const aal = typeof result.claims.aal === 'string' ? result.claims.aal : 'aal1';
      principal = { kind: 'user', accountId: result.sub ?? '', sessionId: result.sessionId, via: 'bearer', aal };
    }
    if (typeof result.claims.exp === 'number') verified.remember(token, principal, result.claims.exp * 1000);
    return principal;
  };

  const fromBearerAlone = (token: string): MaybePromise<Principal> => {
    if (token.startsWith(API_KEY_PREFIX)) {
      const key = options.findApiKey(token);
      const principal = (found: { keyId: number; accountId: string } | null): Principal =>
        found ? { kind: 'apiKey', accountId: found.accountId, keyId: found.keyId } : INVALID_API_KEY;
      return isPromise(key) ? key.then(principal) : principal(key);
    }
    const keyRole = options.tokens.roleOfKey(token);
    if (keyRole) return keyRole === 'anon' ? ANONYMOUS : SERVICE;
    const known = verified.get(token);
    if (known) return withLiveSession(known);
    const appKey = options.matchAppKey(token);
    const verify = () => fromToken(token).then(withLiveSession);
    if (isPromise(appKey)) return appKey.then((match) => (match ? { kind: 'appKey', ...match } : verify()));
    return appKey ? { kind: 'appKey', ...appKey } : verify();
  };

  return {
    fromBearer(bearer, url) {
      const principal = fromBearerAlone(bearer);
      return isPromise(principal)
        ? principal.then((resolved) => withSecondFactor(resolved, url))
        : withSecondFactor(principal, url);
    },
    async fromCookie(request) {
      const cookie = cookiesOfHeaders(request.headers)[SESSION_COOKIE];
      if (!cookie) return null;
      const session = await options.findCookieSession(sha256(cookie));
      if (!session) return null;
      // A cookie is sent by the browser on its own, so a mutating call must prove it read our CSRF token.
      if (!SAFE_METHODS.has(request.method)) options.csrf.check(request.headers, cookie);
      const { accountId, sessionId, aal } = session;
      return withSecondFactor({ kind: 'user', accountId, sessionId, via: 'cookie', aal }, request.url);
    },
  };
}
