import type { FastifyInstance } from 'fastify';

// The headers of every API answer, written by one function for both paths (Fastify's hook below and the early
// runner): the request id, nosniff, and CORS for a browser's request. A preflight (OPTIONS) is @fastify/cors's to
// answer (app.ts); every other answer gets its CORS headers here, as the plugin would have written them:
// `Access-Control-Allow-Origin` for an allowed Origin (`*` with CORS_ORIGINS=*, the origin itself when it is in the
// list), the exposed headers, and `Vary: Origin`, since the answer differs by Origin and a shared cache must keep
// them apart.
//
// Pages (the console's documents and assets) get helmet's defaults for what a browser may render instead:
// framing, referrer, opener and DNS-prefetch policies govern documents, and each header costs an API answer its
// validation and its bytes.

/** CORS_EXPOSED_HEADERS are the answer headers a browser's script may read (supabase-js reads these). */
export const CORS_EXPOSED_HEADERS = [
  'Content-Range',
  'Range-Unit',
  'Location',
  'Content-Location',
  'Preference-Applied',
  'X-Total-Count',
  'Link',
  'X-Supabase-Api-Version',
  'X-Page-Limit',
  'X-Page-Offset',
  'Retry-After',
].join(', ');

const DOCUMENT_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
  'x-dns-prefetch-control': 'off',
};

// `/api` alone is a console page; only paths below it answer JSON.
const API_PATH =
  /^\/(api\/|auth\/v1(\/|$)|rest\/v1(\/|$)|storage\/v1(\/|$)|realtime\/v1(\/|$)|functions\/v1(\/|$)|\.well-known\/)/;

/** isApiPath tells whether a URL is one of the APIs' (answered in JSON) rather than a console page. */
export const isApiPath = (url: string): boolean => API_PATH.test(url);

/** ApiHeaders writes the headers of an API answer as a flat list of names and values, as Node takes them. */
export type ApiHeaders = (requestId: string, origin: string | undefined, exposed?: string) => string[];

/** apiHeadersFor makes the headers function of one server's CORS_ORIGINS. */
export function apiHeadersFor(corsOrigins: readonly string[]): ApiHeaders {
  const anyOrigin = corsOrigins.includes('*');
  const allowed = new Set(corsOrigins);
  return (requestId, origin, exposed = CORS_EXPOSED_HEADERS) => {
    const headers = ['x-request-id', requestId, 'x-content-type-options', 'nosniff', 'vary', 'Origin'];
    if (anyOrigin) {
      // Only a request that names its Origin, as every browser's cross-origin request does: others have no use.
      if (origin !== undefined)
        headers.push('access-control-allow-origin', '*', 'access-control-expose-headers', exposed);
      return headers;
    }
    if (origin !== undefined && allowed.has(origin)) headers.push('access-control-allow-origin', origin);
    headers.push('access-control-expose-headers', exposed);
    return headers;
  };
}

/** contentSecurityPolicy is the console's CSP; inline scripts are allowed only by their hashes. */
export function contentSecurityPolicy(inlineScriptHashes: string[]): string {
  // 'self' also covers WebSockets to the same host (Chrome 71+, Firefox, Safari 16); naming the schemes alone
  // would let an injected script send data to any host.
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

/** installAnswerHeaders writes every answer's headers on Fastify's path: the API's, or a page's. */
export function installAnswerHeaders(app: FastifyInstance, options: { apiHeaders: ApiHeaders; csp: string }): void {
  const { apiHeaders, csp } = options;
  // A callback hook, not an async one: it runs on every request and has nothing to wait for.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiPath(request.url)) {
      reply.header('x-request-id', request.id).headers(DOCUMENT_HEADERS).header('content-security-policy', csp);
      return done();
    }
    // A preflight's CORS headers are the plugin's.
    const origin = request.method === 'OPTIONS' ? undefined : request.headers.origin;
    const flat = apiHeaders(request.id, origin, request.routeOptions.config?.corsExposedHeaders);
    for (let i = 0; i < flat.length; i += 2) reply.header(flat[i] as string, flat[i + 1]);
    done();
  });
}
