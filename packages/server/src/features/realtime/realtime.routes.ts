import type { FastifyBaseLogger } from 'fastify';
import type { Callers } from '../../http/caller.js';
import { ApiError } from '../../http/errors.js';
import { type AdmissionStep, answer, type Route } from '../../http/routes/route.js';
import type { TokenVerifier } from '../../lib/crypto/token-verifier.js';
import { matchAppKey } from '../apps/apps.service.js';
import type { Apps } from '../apps/apps-config.js';
import type { MeterSteps } from '../billing/usage-metering.js';
import { restCaller, restKeyStep } from '../rest/rest-gateway.js';
import { parseBatch, parseSingle, sendBroadcasts } from './realtime-broadcast.js';
import { serveConnection } from './realtime-connection.js';
import type { Vsn } from './realtime-frames.js';
import type { RealtimeHub } from './realtime-hub.js';

// The Supabase Realtime API (docs/realtime.md):
//   GET  /realtime/v1/websocket?apikey=…&vsn=2.0.0                 the Phoenix socket (upgraded)
//   POST /realtime/v1/api/broadcast                               a batch of broadcasts (send() before subscribing)
//   POST /realtime/v1/api/broadcast/<topic>/events/<event>        one broadcast (httpSend(); 202 on success)
// Every route wants an apikey of this instance or of an app, as /rest/v1 does; errors are `{message}`. The socket's
// channels each carry their own token (realtime-auth.ts); the HTTP ones act as their bearer, like /rest/v1.

const VERSIONS = new Set(['1.0.0', '2.0.0']);

// The protocol version a socket speaks: vsn, 1.0.0 when absent (Phoenix's default).
const vsnStep: AdmissionStep = (call) => {
  const vsn = call.query.vsn;
  if (vsn !== undefined && (typeof vsn !== 'string' || !VERSIONS.has(vsn))) {
    throw new ApiError(400, 'unsupported_vsn', 'Unsupported protocol version: use vsn=1.0.0 or vsn=2.0.0');
  }
};

const bytesOf = (data: Buffer | ArrayBuffer | Buffer[]): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);

/** RealtimeRouteDeps is what /realtime/v1's routes use of the server. */
export interface RealtimeRouteDeps {
  realtime: RealtimeHub;
  callers: Callers;
  tokens: TokenVerifier;
  apps: Apps;
  meter: Pick<MeterSteps, 'functions'>;
  log: FastifyBaseLogger;
}

/** realtimeRoutes are /realtime/v1: the socket and the HTTP broadcasts. */
export function realtimeRoutes(ctx: RealtimeRouteDeps): Route[] {
  const hub = ctx.realtime;
  const keyStep = restKeyStep(ctx.tokens, (key) => matchAppKey(ctx.apps, key));
  const report = (error: unknown) => ctx.log.warn({ err: error }, 'realtime: a message could not be handled');
  // HTTP broadcasts are API calls of the account: metered without the storage check of data writes.
  const httpAdmit = [ctx.callers.anyone, keyStep, restCaller, ctx.meter.functions];
  return [
    {
      method: 'GET',
      url: '/realtime/v1/websocket',
      family: 'gateway',
      admit: [ctx.callers.anyone, keyStep, vsnStep],
      socket: (socket, call, request) => {
        const key = call.facts.restKey;
        if (!key) throw new Error('The gateway step names the key');
        const vsn: Vsn = call.query.vsn === '2.0.0' ? '2.0.0' : '1.0.0';
        const conn = hub.open(socket, { wire: request.raw.socket, vsn, key, ip: call.ip });
        const handlers = serveConnection(hub, conn, report);
        socket.on('message', (data, isBinary) => handlers.message(bytesOf(data), isBinary));
        socket.on('close', () => hub.closed(conn));
        // ws reports a frame it refuses (too large, not valid UTF-8) and closes the socket itself.
        socket.on('error', () => hub.closed(conn));
      },
    },
    {
      method: 'POST',
      url: '/realtime/v1/api/broadcast',
      family: 'gateway',
      admit: httpAdmit,
      docs: { summary: 'Broadcast a batch of messages to channels' },
      handler: (call) => {
        sendBroadcasts(hub, call.actor, parseBatch(call.body));
        return answer(undefined, { status: 202 });
      },
    },
    {
      method: 'POST',
      url: '/realtime/v1/api/broadcast/:topic/events/:event',
      family: 'gateway',
      admit: httpAdmit,
      body: 'raw',
      docs: { summary: 'Broadcast one message to a channel' },
      handler: (call) => {
        const body = Buffer.isBuffer(call.body) ? call.body : Buffer.alloc(0);
        const params = {
          topic: call.params.topic ?? '',
          event: call.params.event ?? '',
          private: call.query.private === 'true',
        };
        const contentType = call.headers['content-type'];
        sendBroadcasts(hub, call.actor, [parseSingle(params, body, contentType)]);
        return answer(undefined, { status: 202 });
      },
    },
  ];
}
