import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { bearerOfHeader, type Principal } from './principal.js';

// The record APIs' reads without Fastify. A get by id costs the bare database a few microseconds; Fastify's
// routing, hooks and reply around it cost several times that. So a GET that a feature registered here (the record
// APIs' reads) is answered straight from Node's request event, through the same services as its Fastify route,
// when everything about it is ordinary: known at once who asks (a cached key or token), a successful answer, and
// the caller's limits not reached. Anything else, and every error, is handed to Fastify unchanged, which answers
// it as it always does: nothing is counted, limited or logged until a fast answer is certain, so a request that
// falls through is charged exactly once, by Fastify's path.
//
// What Fastify's hooks would add is added here too: the request id, nosniff, CORS (for `CORS_ORIGINS=*` only; with
// a list of origins every request takes Fastify's path), the API-call meter, the request log. LOG_LEVEL=debug (a
// line per request) and FAST_READS=off send everything through Fastify.

/** FastReadRequest is what a feature's fast read gets of a request. */
export interface FastReadRequest {
  principal: Principal;
  params: Record<string, string>;
  /** The query string, without `?`. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
}

/** FastReply is a successful answer (200 unless a 2xx status is given), or null to let Fastify answer. */
export interface FastReply {
  status?: number;
  headers: Record<string, string>;
  body: unknown;
  /**
   * limit is the route's own per-caller limit, if any: `allows` must not count, `take` counts the request (it is
   * only called when allows said yes, synchronously after it).
   */
  limit?: { allows(): boolean; take(): void };
}

/** FastReadRoute is one Fastify route's reads, served here when they are ordinary. */
export interface FastReadRoute {
  /** The Fastify route's pattern (the request log summarises by it), e.g. `/api/table/:name/:id`. */
  route: string;
  /** params are the route's parameters of a path (no query, not percent-encoded), or null when it is not this route's. */
  params(path: string): Record<string, string> | null;
  read(request: FastReadRequest): Promise<FastReply | null>;
}

/** FastReadOptions are what the fast path needs of the rest of the server. */
export interface FastReadOptions {
  /** principalNow is the caller from a bearer token when it is known without waiting, else null. */
  principalNow(bearer: string, url: string): Principal | null;
  /** admitNow meters one API call of an account when its quota is known and not reached (counting it), else false. */
  admitNow(accountId: string): boolean;
  /** answered is told about every fast answer, for the request log. */
  answered(facts: FastAnswerFacts): void;
  /** corsExposedHeaders are CORS's Access-Control-Expose-Headers, joined (fast reads run with `CORS_ORIGINS=*` only). */
  corsExposedHeaders: string;
}

/** FastAnswerFacts are what the request log keeps of a fast answer. */
export interface FastAnswerFacts {
  method: string;
  url: string;
  status: number;
  route: string;
  params: Record<string, string>;
  principal: Principal;
  requestId: string;
  durationMs: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** FastReads registers the fast routes and serves Node's request events. */
export interface FastReads {
  /** add registers a route's reads; a feature calls it beside registering the same route with Fastify. */
  add(route: FastReadRoute): void;
  /** start serves requests once the server is ready; until then every request goes to Fastify. */
  start(options: FastReadOptions): void;
  /** stop hands every later request to Fastify (the server is closing). */
  stop(): void;
  /** handlerOf wraps Fastify's request handler. */
  handlerOf(fastify: Handler): Handler;
  /** answered is how many requests were answered here so far. */
  readonly answered: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    fastReads: FastReads;
  }
}

/** requestIdOf is a request's id: the caller's X-Request-Id when it is a plain token, else a new UUID. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
}

const PREFIXES = ['/api/table/', '/rest/v1/'];
const JSON_TYPE = 'application/json; charset=utf-8';
const CONTENT_TYPE = 'content-type';

const ANONYMOUS: Principal = { kind: 'anonymous' };

/** createFastReads makes the registry; it serves nothing until started. */
export function createFastReads(): FastReads {
  const routes: FastReadRoute[] = [];
  let options: FastReadOptions | null = null;
  let answered = 0;

  // The caller, when known at once; null sends the request to Fastify (a cookie session, a token to verify).
  function principalOf(req: IncomingMessage, url: string, using: FastReadOptions): Principal | null {
    const header = req.headers.authorization;
    if (header === undefined) return req.headers.cookie === undefined ? ANONYMOUS : null;
    const bearer = bearerOfHeader(header);
    return bearer === null ? null : using.principalNow(bearer, url);
  }

  function routeOf(path: string): { route: FastReadRoute; params: Record<string, string> } | null {
    for (const route of routes) {
      const params = route.params(path);
      if (params) return { route, params };
    }
    return null;
  }

  function answer(
    res: ServerResponse,
    requestId: string,
    reply: FastReply,
    body: string,
    origin: string | undefined,
    using: FastReadOptions,
  ): void {
    // A flat list of names and values, as Node writes it: no object keyed by lowercased names per request.
    const headers: string[] = ['x-request-id', requestId, 'x-content-type-options', 'nosniff'];
    let typed = false;
    for (const name in reply.headers) {
      typed ||= name.length === CONTENT_TYPE.length && name.toLowerCase() === CONTENT_TYPE;
      headers.push(name, reply.headers[name] as string);
    }
    if (!typed) headers.push(CONTENT_TYPE, JSON_TYPE);
    headers.push('content-length', String(Buffer.byteLength(body)), 'vary', 'Origin');
    // CORS only for a request with an Origin, as Fastify's path answers (app.ts).
    if (origin !== undefined)
      headers.push('access-control-allow-origin', '*', 'access-control-expose-headers', using.corsExposedHeaders);
    // The head is checked and kept now (a bad header throws here, in time for Fastify to answer instead); the
    // answer goes out with the others of this turn.
    res.writeHead(reply.status ?? 200, headers);
    endAtTurnEnd(res, body);
  }

  // Answers once the read is done, or hands the request to Fastify; never rejects.
  async function respond(
    req: IncomingMessage,
    res: ServerResponse,
    fastify: Handler,
    using: FastReadOptions,
    read: { url: string; reading: Promise<FastReply | null>; route: FastReadRoute; params: Record<string, string> },
    caller: Principal,
    started: number,
  ): Promise<void> {
    let reply: FastReply | null;
    try {
      reply = await read.reading;
    } catch {
      return fastify(req, res);
    }
    try {
      // Serialised before anything is counted: a value JSON cannot hold is Fastify's to refuse.
      const body = reply ? jsonOf(reply.body) : null;
      if (!reply || body === null || !admitted(reply, caller, using)) return fastify(req, res);
      const requestId = requestIdOf(req.headers);
      answer(res, requestId, reply, body, req.headers.origin, using);
      answered++;
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      using.answered({
        method: 'GET',
        url: read.url,
        status: reply.status ?? 200,
        route: read.route.route,
        params: read.params,
        principal: caller,
        requestId,
        durationMs,
      });
    } catch {
      // Nothing above should throw once the answer is known; if it did, the connection must not hang.
      if (res.headersSent) res.destroy();
      else fastify(req, res);
    }
  }

  // True when the request was taken: answered here, or handed to Fastify once its read fell through.
  function serve(req: IncomingMessage, res: ServerResponse, fastify: Handler, using: FastReadOptions): boolean {
    const url = req.url ?? '';
    // Percent-encoding (an encoded name, %00) and bodies are Fastify's to decode and refuse.
    if (req.method !== 'GET' || url.includes('%') || req.headers['transfer-encoding'] !== undefined) return false;
    const length = req.headers['content-length'];
    if (length !== undefined && length !== '0') return false;
    if (!PREFIXES.some((prefix) => url.startsWith(prefix))) return false;
    const at = url.indexOf('?');
    const path = at === -1 ? url : url.slice(0, at);
    const matched = routeOf(path);
    if (!matched) return false;
    const started = performance.now();
    const { route, params } = matched;
    const rawQuery = at === -1 ? '' : url.slice(at + 1);
    let principal: Principal | null;
    let reading: Promise<FastReply | null>;
    try {
      principal = principalOf(req, url, using);
      if (!principal) return false;
      reading = route.read({ principal, params, rawQuery, headers: req.headers });
    } catch {
      return false;
    }
    void respond(req, res, fastify, using, { url, reading, route, params }, principal, started);
    return true;
  }

  return {
    add(route) {
      routes.push(route);
    },
    start(started) {
      options = started;
    },
    stop() {
      options = null;
    },
    get answered() {
      return answered;
    },
    handlerOf(fastify) {
      return (req, res) => {
        if (options === null || !serve(req, res, fastify, options)) fastify(req, res);
      };
    },
  };
}

// Answers wait for the end of the event loop's turn and are sent together. Node reads every request that arrived
// since its last look at the sockets in one turn; sent as each is ready, every answer wakes the client alone, and
// waking a process that has gone idle costs more than the write itself (on a virtual machine, an interrupt to
// another virtual CPU: on the benchmark's machine, about as much as the rest of a get by id). Sent back to back,
// the first answer wakes the client and the others find it awake. The price is that an answer waits for the other
// requests read in its turn; with thousands of connections a turn reads many, so no more than
// MOST_WAITING_ANSWERS answers wait at a time.
const MOST_WAITING_ANSWERS = 64;
let turnsAnswers: Array<{ res: ServerResponse; body: string }> = [];

function endAtTurnEnd(res: ServerResponse, body: string): void {
  if (turnsAnswers.length === 0) setImmediate(sendTurnsAnswers);
  turnsAnswers.push({ res, body });
  if (turnsAnswers.length >= MOST_WAITING_ANSWERS) sendTurnsAnswers();
}

function sendTurnsAnswers(): void {
  const answers = turnsAnswers;
  turnsAnswers = [];
  for (const { res, body } of answers) res.end(body);
}

function jsonOf(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

// The route's limit and the plan's API calls, each counted only when both let the request through.
function admitted(reply: FastReply, principal: Principal, using: FastReadOptions): boolean {
  if (reply.limit && !reply.limit.allows()) return false;
  if ('accountId' in principal && !using.admitNow(principal.accountId)) return false;
  reply.limit?.take();
  return true;
}
