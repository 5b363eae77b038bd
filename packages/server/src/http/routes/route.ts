import type { IncomingHttpHeaders } from 'node:http';
import type { WebSocket } from '@fastify/websocket';
import querystring from 'fast-querystring';
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { ZodType } from 'zod';
import type { Actor } from '../../lib/actor/actor.js';
import type { ErrorFamily } from '../error-family.js';
import type { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';

// A route is data: its method and URL pattern, the error family its refusals are written in, the admission steps
// that decide who may call it (in order: caller, key, rate limit, meter), its handler, and whether it may be
// answered early, before Fastify sees the request (http/routes/early-runner.ts). One function mounts every route
// on Fastify (mount.ts); the early runner serves the same routes with the same steps; the fuzz test and the
// OpenAPI document read the same table. A feature exports its routes as a function of the app's context.

/** Method is an HTTP method a route answers. */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * CallFacts are what admission steps learn of a call beyond its caller; a feature adds its own by declaration
 * merging (`declare module '…/http/routes/route.js' { interface CallFacts { restKey?: RestKey } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: features fill it by declaration merging.
export interface CallFacts {}

const NO_ACTOR = 'This route has no admission step that names its actor';

/**
 * Call is one request as a route sees it, on either path: what was asked, who asks (`principal`, from the caller
 * step) and on whose behalf (`actor`, set by the step that decides it; reading it on a route without one is a
 * programming error, a 500).
 */
export class Call {
  principal: Principal = { kind: 'anonymous' };
  body: unknown = undefined;
  /** facts are what the route's own steps learnt (a /rest/v1 call's apikey). */
  readonly facts: CallFacts = {};
  private decided: Actor | null = null;
  private parsedQuery: Record<string, unknown> | null = null;

  constructor(
    readonly method: string,
    /** url is the path and query as received (percent-encoded). */
    readonly url: string,
    readonly params: Record<string, string>,
    readonly headers: IncomingHttpHeaders,
    private readonly ipOf: () => string,
  ) {}

  /** ip is the client's address (from X-Forwarded-For only behind a trusted proxy); worked out when asked. */
  get ip(): string {
    return this.ipOf();
  }

  /** rawQuery is the query string without its `?`. */
  get rawQuery(): string {
    const at = this.url.indexOf('?');
    return at === -1 ? '' : this.url.slice(at + 1);
  }

  /** query is the query string's parameters, parsed as Fastify parses them (a repeated one is an array). */
  get query(): Record<string, unknown> {
    this.parsedQuery ??= querystring.parse(this.rawQuery);
    return this.parsedQuery;
  }

  /** path is the URL without its query string. */
  get path(): string {
    const at = this.url.indexOf('?');
    return at === -1 ? this.url : this.url.slice(0, at);
  }

  get actor(): Actor {
    if (this.decided === null) throw new Error(NO_ACTOR);
    return this.decided;
  }

  set actor(actor: Actor) {
    this.decided = actor;
  }

  /** hasActor tells whether a step has decided the actor. */
  get hasActor(): boolean {
    return this.decided !== null;
  }
}

/**
 * AdmissionStep decides one thing about a call: it returns when the call may go on (having noted what it learnt
 * on the call), throws the ApiError it refuses with, or returns a promise when it must wait (then the early
 * runner hands the call to Fastify, which waits for that same promise).
 */
export type AdmissionStep = (call: Call) => void | Promise<void>;

/** Answer is a reply with a status or headers of its own; a handler may instead return a plain value (200 JSON). */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** answer builds an Answer: `answer(record, { status: 201, headers: { Location } })`. */
export const answer = (body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Answer =>
  new Answer(init.status ?? 200, body, init.headers ?? {});

/** redirect is an answer that sends the browser on to `location` (302 unless said otherwise), with no body. */
export const redirect = (location: string, status: 301 | 302 | 303 | 307 | 308 = 302): Answer =>
  new Answer(status, undefined, { Location: location });

/** RouteDocs describe a route for the API's documents and the fuzz test. */
export interface RouteDocs {
  summary: string;
  /** operation is what the API's document describes the route as (a public record API route: `list`, `get`, …). */
  operation?: string;
  /** body is the schema of the JSON body the route reads. */
  body?: ZodType;
  /** query is the schema of the query string's parameters. */
  query?: ZodType;
}

interface RouteBase {
  method: Method | Method[];
  url: string;
  family: ErrorFamily;
  /** admit are the admission steps, in order; none for a public route. */
  admit: readonly AdmissionStep[];
  docs?: RouteDocs;
  /**
   * body is how the request body reaches the handler: parsed JSON (and multipart streams, read with
   * `request.parts()`) by default; `form`: JSON or an HTML form (`application/x-www-form-urlencoded`, parsed as a
   * query string is: an OAuth provider's form_post); `raw`: the bytes as sent, whatever their type (a signed
   * webhook, a function call); or `stream`: nothing read, the handler reads `request.raw` itself, or
   * `request.parts()` for multipart (an upload, never held whole in memory; no body limit applies: the handler
   * sets its own).
   */
  body?: 'json' | 'form' | 'raw' | 'stream';
  /** bodyTooLarge is the error answered for a body over the route's limit, when not the usual 413. */
  bodyTooLarge?: () => ApiError;
  /** fastify are Fastify options of the route that the table has no words for (a body limit). */
  fastify?: Pick<RouteShorthandOptions, 'bodyLimit'>;
  /** corsExposedHeaders replace the API's exposed headers on this route's answers. */
  corsExposedHeaders?: string;
  /** corsAnyRequestHeaders lets a preflight ask for any request header (a function decides what it reads). */
  corsAnyRequestHeaders?: boolean;
}

/** EarlyRoute may be answered before Fastify sees the request: its handler needs nothing of Fastify. */
export interface EarlyRoute extends RouteBase {
  early: true;
  socket?: undefined;
  method: 'GET';
  handler: (call: Call) => Promise<unknown> | unknown;
}

/** FastifyRoute is answered by Fastify; its handler may use Fastify's request and reply (cookies, streams). */
export interface FastifyRoute extends RouteBase {
  early?: false;
  socket?: undefined;
  handler: (call: Call, request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;
}

/** SocketRoute upgrades a GET to a WebSocket once admitted; a refusal is answered before the upgrade. */
export interface SocketRoute extends RouteBase {
  early?: false;
  method: 'GET';
  socket: (socket: WebSocket, call: Call, request: FastifyRequest) => void | Promise<void>;
}

/** Route is one entry of the route table. */
export type Route = EarlyRoute | FastifyRoute | SocketRoute;

/** methodsOf lists a route's methods. */
export const methodsOf = (route: Route): Method[] => (Array.isArray(route.method) ? route.method : [route.method]);
