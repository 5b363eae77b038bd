import type { FastifyInstance } from 'fastify';

// Computed once at start and set in one hook: @fastify/helmet rebuilt its middleware on every request,
// a fixed cost that showed in the benchmark's get-by-id. The set follows helmet's defaults for what a browser
// may render (pages, assets); an API's JSON answer gets only what applies to it, as PostgREST's and GoTrue's
// do: nosniff (never read as another type) and the request id. Framing, referrer, opener and DNS-prefetch
// policies govern documents, and each header costs every answer its validation and its bytes.
const DOCUMENT_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
  'x-dns-prefetch-control': 'off',
};

// `/api` alone is a console page; only paths below it answer JSON.
const API_PATH = /^\/(api\/|auth\/v1(\/|$)|rest\/v1(\/|$))/;

/**
 * contentSecurityPolicy is the console's CSP; inline scripts are allowed only by their hashes. The console connects
 * only to its own origin: 'self' also covers WebSockets to it (ws: and wss: of the same host) since Chrome 71,
 * Firefox and Safari 16; naming the schemes alone would let an injected script send data to any host.
 */
export function contentSecurityPolicy(inlineScriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...inlineScriptHashes].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** installSecurityHeaders adds the request id and nosniff to every response, and the document headers to pages. */
export function installSecurityHeaders(app: FastifyInstance, options: { csp: string }): void {
  // A callback hook, not an async one: it runs on every request and has nothing to wait for.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (API_PATH.test(request.url)) reply.header('x-content-type-options', 'nosniff');
    else reply.headers(DOCUMENT_HEADERS).header('content-security-policy', options.csp);
    done();
  });
}
