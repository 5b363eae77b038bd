import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import { BLOCKED_PORTS, isPublicAddress } from './network-policy.js';

// The one network address a function's process may reach (its Deno permissions allow nothing else): a small HTTP
// server on 127.0.0.1 that the prelude's fetch sends every request to, naming its target in `x-basalt-target`.
// The path carries the process's token, so the gateway knows whose request it forwards and refuses strangers.
//   - A target on Basalt's own origin (SUPABASE_URL, SITE_URL) goes straight to Basalt's listening socket: that
//     is how createClient inside a function reaches the app.
//   - Any other target must be http(s) on a public address (network-policy.ts): an IP written in the URL is
//     checked at once, a name at connect time on every address it resolves to, so a name that resolves to a
//     private address is refused as well. Nothing is connected before the check.
// A refusal answers with `x-basalt-egress-denied`, a failure to reach the target with `x-basalt-egress-error`;
// the prelude turns both into the exception fetch would throw.

/** EgressOwner is who a token belongs to. */
export interface EgressOwner {
  accountId: string;
  functionId: number;
}

/** EgressGateway forwards the functions' outgoing requests. */
export interface EgressGateway {
  /** urlFor is the gateway address a process with this token sends its requests to. */
  urlFor(token: string): string;
  port: number;
  register(token: string, owner: EgressOwner): void;
  unregister(token: string): void;
  close(): Promise<void>;
}

/** EgressOptions tell the gateway which origins are Basalt's own and where Basalt listens. */
export interface EgressOptions {
  selfOrigins(): Set<string>;
  selfBaseUrl(): string;
  onDenied?(owner: EgressOwner, target: string, reason: string): void;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'x-basalt-target',
]);

class EgressDenied extends Error {}

// Resolves a name and refuses it unless every address is public; called by the socket just before it connects.
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused || addresses.length === 0) {
      const denied = new EgressDenied(`${hostname} resolves to ${refused?.address ?? 'nothing'}, a private address`);
      return callback(denied, '', 0);
    }
    if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    const first = addresses[0] as dns.LookupAddress;
    return callback(null, first.address, first.family);
  });
};

function forwardedHeaders(raw: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  return headers;
}

// Why a target may not be reached before any lookup, or null when it may be tried.
function refusalOf(target: URL): string | null {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `${target.protocol} is not http or https`;
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (BLOCKED_PORTS.has(port)) return `port ${port} is closed to functions`;
  const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
  if (isIP(host) !== 0 && !isPublicAddress(host)) return `${host} is a private address`;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine`;
  return null;
}

/** startEgressGateway listens on a free port of 127.0.0.1. */
export async function startEgressGateway(options: EgressOptions): Promise<EgressGateway> {
  const owners = new Map<string, EgressOwner>();
  const internet = new Agent({ connect: { lookup: publicOnlyLookup }, keepAliveTimeout: 10_000 });
  const self = new Agent({ keepAliveTimeout: 10_000 });

  const deny = (res: http.ServerResponse, reason: string) => {
    res.writeHead(403, { 'x-basalt-egress-denied': reason.replace(/[^\x20-\x7e]/g, '?') }).end();
  };

  async function forward(req: http.IncomingMessage, res: http.ServerResponse, owner: EgressOwner) {
    const header = req.headers['x-basalt-target'];
    let target: URL;
    try {
      target = new URL(typeof header === 'string' ? header : '');
    } catch {
      return deny(res, 'the request has no valid target URL');
    }
    const isSelf = options.selfOrigins().has(target.origin);
    const refusal = isSelf ? null : refusalOf(target);
    if (refusal) {
      options.onDenied?.(owner, target.origin, refusal);
      return deny(res, `fetch to ${target.origin} refused: ${refusal}`);
    }
    const url = isSelf ? new URL(target.pathname + target.search, options.selfBaseUrl()) : target;
    const headers = forwardedHeaders(req.headers);
    headers.host = target.host;
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await request(url, {
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers,
        body: hasBody ? Readable.from(req) : null,
        dispatcher: isSelf ? self : internet,
        signal: abort.signal,
      });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      if (cause instanceof EgressDenied) {
        options.onDenied?.(owner, target.origin, cause.message);
        return deny(res, `fetch to ${target.origin} refused: ${cause.message}`);
      }
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) res.writeHead(502, { 'x-basalt-egress-error': message.replace(/[^\x20-\x7e]/g, '?') });
      return res.end();
    }
    // The body is passed on as it came (still compressed, if it was): Deno's fetch decodes it.
    const responseHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && (!HOP_BY_HOP.has(name) || name === 'content-length')) responseHeaders[name] = value;
    }
    res.writeHead(upstream.statusCode, responseHeaders);
    upstream.body.pipe(res);
  }

  const server = http.createServer((req, res) => {
    const owner = owners.get((req.url ?? '').slice(1));
    if (!owner) return deny(res, 'unknown process');
    forward(req, res, owner).catch(() => {
      if (!res.headersSent) res.writeHead(502, { 'x-basalt-egress-error': 'the gateway failed' });
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref();
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    urlFor: (token) => `http://127.0.0.1:${port}/${token}`,
    register: (token, owner) => owners.set(token, owner),
    unregister: (token) => owners.delete(token),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all([internet.close(), self.close()]);
    },
  };
}
