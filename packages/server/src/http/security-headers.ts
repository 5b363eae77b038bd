import type { FastifyInstance } from 'fastify';

// Computed once at start and set in one hook: @fastify/helmet rebuilt its middleware on every request,
// a fixed cost that showed in the benchmark's get-by-id. The set follows helmet's defaults.
const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
  'x-dns-prefetch-control': 'off',
};

// `/api` alone is a console page; only paths below it answer JSON.
const API_PATH = /^\/(api\/|auth\/v1(\/|$)|rest\/v1(\/|$))/;

/** contentSecurityPolicy is the console's CSP; inline scripts are allowed only by their hashes. */
export function contentSecurityPolicy(inlineScriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...inlineScriptHashes].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** installSecurityHeaders adds the common headers and the request id to every response, and the CSP to pages. */
export function installSecurityHeaders(app: FastifyInstance, options: { csp: string }): void {
  // A callback hook, not an async one: it runs on every request and has nothing to wait for.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(COMMON_HEADERS);
    reply.header('x-request-id', request.id);
    // JSON answers are never rendered as documents, so only pages and assets carry the policy.
    if (!API_PATH.test(request.url)) reply.header('content-security-policy', options.csp);
    done();
  });
}
