import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import FindMyWay from 'find-my-way';
import type { ApiHeaders } from '../api-headers.js';
import { withCallOrigin } from '../public-origin.js';
import { requestIdOf } from '../request-id.js';
import { admitFrom, type Handover, handOver } from './admission.js';
import { Answer, Call, type EarlyRoute, methodsOf, type Route } from './route.js';

// Answering a route before Fastify sees the request. A get by id costs the bare database a few microseconds;
// Fastify's routing, hooks and reply around it cost several times that. So a GET of a route that may be answered
// early is matched here, with find-my-way (Fastify's own router, given the same table and options), admitted by
// the route's own steps and answered by its own handler, straight from Node's request event. At the first step
// that must wait, the first refusal, a handler that throws or an answer JSON cannot hold, the request goes to
// Fastify with what was done so far (admission.ts): Fastify goes on from there and words every refusal, so nothing
// is done or counted twice and every error has one author.

/** EarlyAnswer is what the request log and the access log learn of a request answered early. */
export interface EarlyAnswer {
  method: string;
  url: string;
  status: number;
  /** route is the route's URL pattern. */
  route: string;
  params: Record<string, string>;
  call: Call;
  requestId: string;
  durationMs: number;
  /** bytes is the answer's body length. */
  bytes: number;
}

/** EarlyRunnerOptions are what the runner needs of the rest of the server once it serves. */
export interface EarlyRunnerOptions {
  apiHeaders: ApiHeaders;
  /** answered hears every early answer (the request log, the access log). */
  answered(answer: EarlyAnswer): void;
  /** ipOf is the client's address of a request, as Fastify's `request.ip` would say. */
  ipOf(req: IncomingMessage): string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** EarlyRunner serves the early routes of the route table from Node's request event. */
export interface EarlyRunner {
  /** add learns the routes of a table (every route, so that matching is Fastify's; only early ones are served). */
  add(routes: readonly Route[]): void;
  /** start serves requests once the server is ready; until then every request goes to Fastify. */
  start(options: EarlyRunnerOptions): void;
  /** stop hands every later request to Fastify (the server is closing). */
  stop(): void;
  /** handlerOf wraps Fastify's request handler. */
  handlerOf(fastify: Handler): Handler;
  /** answered is how many requests were answered early so far. */
  readonly answered: number;
}

// Fastify's router options (app.ts): a trailing slash names the same route.
const ROUTER_OPTIONS = { ignoreTrailingSlash: true };
const JSON_TYPE = 'application/json; charset=utf-8';
const CONTENT_TYPE = 'content-type';

/** createEarlyRunner makes an empty runner; it serves nothing until started. */
export function createEarlyRunner(): EarlyRunner {
  const router = FindMyWay(ROUTER_OPTIONS);
  let options: EarlyRunnerOptions | null = null;
  let answered = 0;
  const turn = new TurnAnswers();

  // The early route a GET path is Fastify's for, with its parameters, or null.
  function earlyRouteOf(path: string): { route: EarlyRoute; params: Record<string, string> } | null {
    const found = router.find('GET', path);
    if (!found) return null;
    const route = found.store as Route;
    if (!route.early) return null;
    return { route, params: found.params as Record<string, string> };
  }

  function toFastify(req: IncomingMessage, res: ServerResponse, fastify: Handler, handover: Handover): void {
    handOver(req, handover);
    fastify(req, res);
  }

  async function respond(
    req: IncomingMessage,
    res: ServerResponse,
    fastify: Handler,
    using: EarlyRunnerOptions,
    work: { route: EarlyRoute; call: Call; params: Record<string, string>; started: number; result: unknown },
  ): Promise<void> {
    const { route, call } = work;
    let value: unknown;
    try {
      value = await work.result;
    } catch (error) {
      return toFastify(req, res, fastify, { route, call, outcome: { error } });
    }
    const reply = value instanceof Answer ? value : new Answer(200, value);
    const body = textOf(reply) ?? jsonOf(reply.body);
    // A body JSON cannot hold, or none, is Fastify's to answer as it would.
    if (body === null) return toFastify(req, res, fastify, { route, call, outcome: { value } });
    try {
      const requestId = requestIdOf(req.headers);
      const headers = using.apiHeaders(requestId, req.headers.origin, route.corsExposedHeaders);
      let typed = false;
      for (const name in reply.headers) {
        typed ||= name.length === CONTENT_TYPE.length && name.toLowerCase() === CONTENT_TYPE;
        headers.push(name, reply.headers[name] as string);
      }
      if (!typed) headers.push(CONTENT_TYPE, JSON_TYPE);
      const bytes = Buffer.byteLength(body);
      headers.push('content-length', String(bytes));
      // The head is checked and kept now (a bad header throws here, in time for Fastify to answer instead); the
      // answer goes out with the others of this turn.
      res.writeHead(reply.status, headers);
      turn.end(res, body);
      answered++;
      const durationMs = Math.round((performance.now() - work.started) * 10) / 10;
      using.answered({
        method: 'GET',
        url: call.url,
        status: reply.status,
        route: route.url,
        params: work.params,
        call,
        requestId,
        durationMs,
        bytes,
      });
    } catch {
      // Nothing above should throw once the answer is known; if it did, the connection must not hang.
      if (res.headersSent) res.destroy();
      else toFastify(req, res, fastify, { route, call, outcome: { value } });
    }
  }

  // True when the request was taken: answered here, or handed to Fastify with what was done.
  function serve(req: IncomingMessage, res: ServerResponse, fastify: Handler, using: EarlyRunnerOptions): boolean {
    const url = req.url ?? '';
    // Percent-encoding (an encoded name, %00) and bodies are Fastify's to decode and refuse.
    if (req.method !== 'GET' || url.includes('%') || req.headers['transfer-encoding'] !== undefined) return false;
    const length = req.headers['content-length'];
    if (length !== undefined && length !== '0') return false;
    const at = url.indexOf('?');
    const matched = earlyRouteOf(at === -1 ? url : url.slice(0, at));
    if (!matched) return false;
    const started = performance.now();
    const { route, params } = matched;
    const call = new Call('GET', url, params, req.headers, () => using.ipOf(req));
    let result: unknown;
    try {
      const waiting = admitFrom(route.admit, call, 0);
      if (waiting) {
        toFastify(req, res, fastify, { route, call, waiting });
        return true;
      }
    } catch (refused) {
      toFastify(req, res, fastify, { route, call, refused });
      return true;
    }
    try {
      result = withCallOrigin(call.headers, () => route.handler(call));
    } catch (error) {
      toFastify(req, res, fastify, { route, call, outcome: { error } });
      return true;
    }
    void respond(req, res, fastify, using, { route, call, params, started, result });
    return true;
  }

  return {
    add(routes) {
      for (const route of routes) {
        for (const method of methodsOf(route)) router.on(method, route.url, () => {}, route);
      }
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
// requests read in its turn; with thousands of connections a turn reads many, so no more than MOST_WAITING
// answers wait at a time.
const MOST_WAITING = 64;

class TurnAnswers {
  private waiting: Array<{ res: ServerResponse; body: string }> = [];
  private readonly sendAll = () => {
    const answers = this.waiting;
    this.waiting = [];
    for (const { res, body } of answers) res.end(body);
  };

  end(res: ServerResponse, body: string): void {
    if (this.waiting.length === 0) setImmediate(this.sendAll);
    this.waiting.push({ res, body });
    if (this.waiting.length >= MOST_WAITING) this.sendAll();
  }
}

// A string under a Content-Type other than JSON (the data API's CSV) is the body itself, as Fastify sends it.
function textOf(reply: Answer): string | null {
  if (typeof reply.body !== 'string') return null;
  for (const name in reply.headers) {
    if (name.toLowerCase() === CONTENT_TYPE) return reply.headers[name]?.includes('json') ? null : reply.body;
  }
  return null;
}

function jsonOf(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}
