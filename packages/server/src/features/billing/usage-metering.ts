import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UsageMeter } from './usage-meter.js';

// Where metering meets the requests: one hook, after the principal is known. A request to the data and function
// APIs (/rest/v1, /api/table and its short form /api/<name>, /functions/v1, /api/edge) made for an account (its
// keys, its console session, its app's keys and users) is one API call. Over the plan's calls it is refused with
// 429; a write to the data APIs is refused with 413 once storage is used up (reads and deletes go on).

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

function meteredKind(request: FastifyRequest): 'data' | 'functions' | null {
  const url = request.url;
  if (url.startsWith('/rest/v1/')) return 'data';
  if (url.startsWith('/functions/v1/') || url.startsWith('/api/edge/')) return 'functions';
  return request.routeOptions.config?.errorFamily === 'public' ? 'data' : null;
}

/** installMetering counts each metered request of an account and refuses those over its plan's caps. */
export function installMetering(app: FastifyInstance, meter: UsageMeter): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'OPTIONS') return done();
    const kind = meteredKind(request);
    if (kind === null) return done();
    const principal = request.principal;
    if (!('accountId' in principal)) return done();
    const { accountId } = principal;
    const storage = kind === 'data' && WRITES.has(request.method);
    const calls = meter.refusal(accountId, 'apiCalls');
    const decide = (refused: Awaited<typeof calls>) => {
      if (refused) return done(refused);
      if (!storage) {
        meter.count(accountId);
        return done();
      }
      const full = meter.refusal(accountId, 'storageMb');
      const then = (tooBig: Awaited<typeof full>) => {
        if (tooBig) return done(tooBig);
        meter.count(accountId);
        done();
      };
      if (full instanceof Promise) full.then(then, done);
      else then(full);
    };
    if (calls instanceof Promise) calls.then(decide, done);
    else decide(calls);
  });
}
