import { isReservedTableName } from '@basalt/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { tooManyRequests } from '../../http/errors.js';
import type { FastReadRequest, FastReads, FastReply } from '../../http/fast-reads.js';
import { accountActorOf, requireAccount } from '../../http/principal.js';
import type { Actor } from '../../lib/actor/actor.js';
import {
  createPublicRecord,
  deletePublicRecord,
  getPublicRecord,
  listPublicRecords,
  updatePublicRecord,
} from './public-api.service.js';
import { createKeyRateLimiter, type KeyRateLimiter } from './public-api-rate-limit.js';

// The public record API, with `Authorization: Bearer <API key>`
// (a signed-in user's token or session works too), errors as {error: {code, message, details}}:
//   GET    /api/table/:name        ?limit&offset&orderBy&order&col=op.value → array; X-Total-Count,
//                                  X-Page-Limit, X-Page-Offset
//   POST   /api/table/:name        {fields} → 201 the record
//   GET    /api/table/:name/:id    the record (404 when missing)
//   PUT    /api/table/:name/:id    {fields}: replaces every user column → the record
//   PATCH  /api/table/:name/:id    {fields}: changes the fields sent → the record
//   DELETE /api/table/:name/:id    → {success: true, message: "Record deleted successfully"}
// The same under the short form /api/:name[/:id]. Fastify prefers static routes, so /api/keys and every other
// route of Basalt's own wins; a reserved name (RESERVED_TABLE_NAMES, which no table may take) that reaches
// the short form anyway (GET /api/keys/1) answers the ordinary "no route" 404.

type NameParams = { name: string };
type RecordParams = { name: string; id: string };

const PUBLIC = { errorFamily: 'public' as const };

function rawQueryOf(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  return at === -1 ? '' : request.url.slice(at + 1);
}

const TABLE_PREFIX = '/api/table/';

// The segments of a path under /api/table/ (`count` of them, none empty), or null for any other path.
function segmentsOf(path: string, count: number): string[] | null {
  if (!path.startsWith(TABLE_PREFIX)) return null;
  const segments = path.slice(TABLE_PREFIX.length).split('/');
  return segments.length === count && segments.every((segment) => segment !== '') ? segments : null;
}

/** publicApiRoutes registers the public record API under /api/table/:name and /api/:name. */
export async function publicApiRoutes(
  app: FastifyInstance,
  { ctx, fastReads }: { ctx: AppContext; fastReads?: FastReads },
): Promise<void> {
  const { db } = ctx;
  // API_RATE_LIMIT is read once, here (Config has no field for it yet).
  const limiter = createKeyRateLimiter(db.kysely, {
    limit: ctx.config.apiRateLimit,
    onFlushError: (error) => ctx.log.warn({ err: error }, 'could not flush API rate-limit counters'),
  });
  app.addHook('onClose', () => limiter.close());

  // Who calls, and whether their key has requests left this minute (decided from memory).
  const actorOf = (request: FastifyRequest) => {
    const actor = requireAccount(request);
    const wait = limiter.take(limitKeyOf(actor));
    if (wait > 0) throw tooManyRequests(`Rate limit exceeded: try again in ${wait} seconds`, wait);
    return actor;
  };

  // The fast reads' callers: an actor, or null for Fastify's path (which words the refusal), and its limit.
  const fastCaller = (request: FastReadRequest): { actor: Actor; limit: FastReply['limit'] } | null => {
    let actor: Actor;
    try {
      actor = accountActorOf(request.principal);
    } catch {
      return null;
    }
    return { actor, limit: new KeyLimit(limiter, actor) };
  };
  fastReads?.add({
    route: '/api/table/:name/:id',
    params(path) {
      const segments = segmentsOf(path, 2);
      return segments ? { name: segments[0] as string, id: segments[1] as string } : null;
    },
    async read(request) {
      const caller = fastCaller(request);
      if (!caller) return null;
      const { name = '', id = '' } = request.params;
      const record = await getPublicRecord(db, caller.actor, name, id);
      return { headers: {}, body: record, limit: caller.limit };
    },
  });
  fastReads?.add({
    route: '/api/table/:name',
    params(path) {
      const segments = segmentsOf(path, 1);
      return segments ? { name: segments[0] as string } : null;
    },
    async read(request) {
      const caller = fastCaller(request);
      if (!caller) return null;
      const page = await listPublicRecords(db, caller.actor, request.params.name ?? '', request.rawQuery);
      const headers = {
        'x-total-count': String(page.total),
        'x-page-limit': String(page.limit),
        'x-page-offset': String(page.offset),
      };
      return { headers, body: page.records, limit: caller.limit };
    },
  });

  const reservedIsNoRoute = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isReservedTableName((request.params as NameParams).name)) return reply.callNotFound();
  };

  for (const prefix of ['/api/table', '/api']) {
    const options = { config: PUBLIC, ...(prefix === '/api' ? { onRequest: reservedIsNoRoute } : {}) };
    const collection = `${prefix}/:name`;
    const one = `${prefix}/:name/:id`;

    app.get<{ Params: NameParams }>(collection, options, async (request, reply) => {
      const actor = actorOf(request);
      const page = await listPublicRecords(db, actor, request.params.name, rawQueryOf(request));
      return reply
        .header('X-Total-Count', String(page.total))
        .header('X-Page-Limit', String(page.limit))
        .header('X-Page-Offset', String(page.offset))
        .send(page.records);
    });

    app.post<{ Params: NameParams }>(collection, options, async (request, reply) => {
      const actor = actorOf(request);
      const record = await createPublicRecord(db, actor, request.params.name, request.body);
      return reply
        .status(201)
        .header('Location', `${prefix}/${encodeURIComponent(request.params.name)}/${record.id}`)
        .send(record);
    });

    app.get<{ Params: RecordParams }>(one, options, async (request) => {
      const { name, id } = request.params;
      return getPublicRecord(db, actorOf(request), name, id);
    });

    app.put<{ Params: RecordParams }>(one, options, async (request) => {
      const { name, id } = request.params;
      return updatePublicRecord(db, actorOf(request), name, id, request.body, { merge: false });
    });

    app.patch<{ Params: RecordParams }>(one, options, async (request) => {
      const { name, id } = request.params;
      return updatePublicRecord(db, actorOf(request), name, id, request.body, { merge: true });
    });

    app.delete<{ Params: RecordParams }>(one, options, async (request) => {
      const { name, id } = request.params;
      await deletePublicRecord(db, actorOf(request), name, id);
      return { success: true, message: 'Record deleted successfully' };
    });
  }
}

// The per-minute limit counts a key's requests, or an account's made without a key (a session).
const limitKeyOf = (actor: Actor) => (actor.keyId === null ? `account:${actor.accountId}` : `key:${actor.keyId}`);

// A fast read's limit: one object per request rather than two closures.
class KeyLimit {
  private readonly key: string;

  constructor(
    private readonly limiter: KeyRateLimiter,
    actor: Actor,
  ) {
    this.key = limitKeyOf(actor);
  }

  allows(): boolean {
    return this.limiter.allows(this.key);
  }

  take(): void {
    this.limiter.take(this.key);
  }
}
