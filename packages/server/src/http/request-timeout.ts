import type { ServerOptions } from 'node:http';

// Node.js measures a request's time from its first byte, and checks the open requests every
// connectionsCheckingInterval (30 s by default: a stalled request could live half a minute past its timeout).
// Its headers timeout stays at 60 s whatever the request timeout is, unless set; and when it is the larger of
// the two, Node.js swaps them, so a body that stops halfway would be allowed 60 s. Both are set together here.
const CHECK_EVERY_MS = 1000;
const HEADERS_TIMEOUT_MAX_MS = 60_000;

/**
 * requestTimeouts are the HTTP server options that cut off a request (headers and body) not received within
 * `seconds`, with 408. Fastify sets the request timeout itself from its own `requestTimeout` option.
 */
export function requestTimeouts(seconds: number): ServerOptions {
  const ms = seconds * 1000;
  return {
    requestTimeout: ms,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MAX_MS, ms),
    connectionsCheckingInterval: Math.min(CHECK_EVERY_MS, ms),
  };
}
