import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { ApiError } from '../../http/errors.js';
import type { AdmissionStep, Call, Route } from '../../http/routes/route.js';
import { findAccount, usernameOf } from '../auth/users/accounts.service.js';
import type { SchemaRooms } from './schema-room.js';

// The Schema Editor's WebSocket: GET /ws, upgraded. Who connects comes from the console's session cookie or from
// an `access_token` query parameter carrying the account's access token, verified like any bearer
// (http/caller.ts); a `userId` in a frame is ignored. A socket opened with the cookie must come from this server's
// own origin (a page elsewhere cannot ride the cookie). Without valid credentials the upgrade is refused with 401.
// The frames are handled by schema-room.ts.

function sameOrigin(call: Call): boolean {
  const origin = call.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === call.headers.host;
  } catch {
    return false;
  }
}

// A page of another site cannot open the socket with the browser's cookie.
const ownOriginForCookies: AdmissionStep = (call) => {
  const principal = call.principal;
  if (principal.kind === 'user' && principal.via === 'cookie' && !sameOrigin(call)) {
    throw new ApiError(403, 'origin_forbidden', 'This origin may not open the socket');
  }
};

/** schemaRoomRoutes are /ws: this node's Schema Editor rooms. */
export function schemaRoomRoutes(ctx: { db: Db; rooms: SchemaRooms; callers: Callers }): Route[] {
  const { rooms } = ctx;
  return [
    {
      method: 'GET',
      url: '/ws',
      family: 'console',
      admit: [ctx.callers.socketUser, ownOriginForCookies],
      socket: async (socket, call) => {
        const { accountId } = call.actor;
        // Frames that arrive while the account's name is read wait for it.
        const pending: string[] = [];
        let handlers: ReturnType<SchemaRooms['connect']> | null = null;
        socket.on('message', (data, isBinary) => {
          const text = isBinary ? '' : data.toString();
          if (handlers) handlers.message(text);
          else pending.push(text);
        });
        socket.on('close', () => handlers?.close());
        const account = await findAccount(ctx.db.kysely, accountId);
        handlers = rooms.connect(socket, { accountId }, account ? usernameOf(account) : 'Someone');
        if (socket.readyState !== socket.OPEN) {
          handlers.close();
          return;
        }
        for (const text of pending.splice(0)) handlers.message(text);
      },
    },
  ];
}
