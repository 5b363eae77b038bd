import { randomToken } from '../lib/crypto/tokens.js';
import { cookieOptions } from './cookies.js';
import type { CsrfTokens } from './csrf.js';
import { CSRF_COOKIE, cookiesOfHeaders, SESSION_COOKIE } from './principal.js';
import type { Route } from './routes/route.js';

/**
 * csrfRoutes serve GET /api/csrf-token: the token the console sends as X-CSRF-Token. With a session cookie it is
 * that session's token (http/csrf.ts). Before any session there is nothing to protect, and the answer is a random
 * token kept in a cookie, stable for the browser; it does not pass once a session exists, and the console, refused
 * with csrf_invalid, asks again. Anyone may ask: the token is only worth something with the cookie it belongs to.
 */
export function csrfRoutes(csrf: CsrfTokens, siteUrl: string): Route[] {
  return [
    {
      family: 'console',
      admit: [],
      method: 'GET',
      url: '/api/csrf-token',
      handler: (call, request, reply) => {
        reply.header('Cache-Control', 'no-store');
        const cookies = cookiesOfHeaders(call.headers);
        const session = cookies[SESSION_COOKIE];
        if (session) return { csrfToken: csrf.tokenFor(session) };
        const existing = cookies[CSRF_COOKIE];
        const csrfToken = existing && /^[A-Za-z0-9_-]{32,}$/.test(existing) ? existing : randomToken(32);
        if (csrfToken !== existing) reply.setCookie(CSRF_COOKIE, csrfToken, cookieOptions(request, siteUrl));
        return { csrfToken };
      },
    },
  ];
}
