import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { ApiError } from '../../http/errors.js';
import { requireUser } from '../../http/legacy-principal.js';
import { findAccount, usernameOf } from '../auth/accounts.service.js';
import { createSchemaRooms } from './schema-room.js';

// The Schema Editor's WebSocket: GET /ws, upgraded. Who connects comes from the
// console's session cookie or from an `access_token` query parameter carrying the account's access token,
// verified by the principal hook like any bearer (http/principal.ts); a `userId` in a frame is ignored. A socket
// opened with the cookie must come from this server's own origin (a page elsewhere cannot ride the cookie).
// Without valid credentials the upgrade is refused with 401. The frames are handled by schema-room.ts.

function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/** schemaRoomRoutes registers /ws and this node's Schema Editor rooms. */
export async function schemaRoomRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const rooms = createSchemaRooms(ctx.db, {
    onError: (error) => ctx.log.warn({ err: error }, 'schema editor room: an update could not be handled'),
  });
  app.addHook('onClose', async () => rooms.close());

  app.get(
    '/ws',
    {
      websocket: true,
      preValidation: async (request, reply) => {
        try {
          requireUser(request);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return reply.status(error.status).send({ message: error.message, code: error.code });
        }
        const principal = request.principal;
        if (principal.kind === 'user' && principal.via === 'cookie' && !sameOrigin(request)) {
          return reply.status(403).send({ message: 'This origin may not open the socket', code: 'origin_forbidden' });
        }
      },
    },
    async (socket, request) => {
      const actor = requireUser(request);
      // Frames that arrive while the account's name is read wait for it.
      const pending: string[] = [];
      let handlers: ReturnType<typeof rooms.connect> | null = null;
      socket.on('message', (data, isBinary) => {
        const text = isBinary ? '' : data.toString();
        if (handlers) handlers.message(text);
        else pending.push(text);
      });
      socket.on('close', () => handlers?.close());
      const account = await findAccount(ctx.db.kysely, actor.accountId);
      handlers = rooms.connect(socket, { accountId: actor.accountId }, account ? usernameOf(account) : 'Someone');
      if (socket.readyState !== socket.OPEN) {
        handlers.close();
        return;
      }
      for (const text of pending.splice(0)) handlers.message(text);
    },
  );
}
