import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { bearerOf, requireUser } from '../../http/legacy-principal.js';
import { type AccountRow, findAccount } from './accounts.service.js';
import type { AuthDeps } from './auth-deps.js';
import { badJwt, noAuthorization, notAdmin, sessionNotFound, userBanned, userNotFound } from './gotrue-errors.js';
import { isBanned } from './sessions.service.js';
import type { UserRow } from './user-pool.js';

/** SignedInUser is the user behind a request and the session its token belongs to. */
export interface SignedInUser<R extends UserRow = AccountRow> {
  account: R;
  sessionId: string;
}

const NOT_OF_THIS_POOL = 'invalid JWT: unable to parse or verify signature, the token was not issued for this key';

/**
 * requireGoTrueUser resolves `Authorization: Bearer <at>` on /auth/v1 for the request's pool:
 * 401 no_authorization without a bearer, 403 bad_jwt for a bad token, one without a user (a key) or one of
 * another pool (a console account's token with an app key, another app's user), 403 session_not_found once its
 * session ended, 403 user_not_found for a deleted user.
 */
export async function requireGoTrueUser<R extends UserRow>(
  request: FastifyRequest,
  deps: AuthDeps<R>,
): Promise<SignedInUser<R>> {
  if (!bearerOf(request)) throw noAuthorization();
  const principal = request.principal;
  if (principal.kind === 'invalid' && principal.reason === 'session_ended') throw sessionNotFound(403);
  if (principal.kind === 'invalid') {
    throw badJwt(
      principal.reason === 'expired'
        ? 'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired'
        : `invalid JWT: unable to parse or verify signature, ${principal.message}`,
    );
  }
  const app = deps.pool.app;
  let userId: string;
  let sessionId: string | null;
  if (principal.kind === 'user' && !app) {
    userId = principal.accountId;
    sessionId = principal.sessionId;
  } else if (principal.kind === 'endUser' && app && principal.ref === app.ref) {
    userId = principal.userId;
    sessionId = principal.sessionId;
  } else if (principal.kind === 'user' || principal.kind === 'endUser') {
    throw badJwt(NOT_OF_THIS_POOL);
  } else {
    throw badJwt('invalid claim: missing sub claim');
  }
  if (!sessionId || !(await deps.sessions.exists(sessionId))) throw sessionNotFound(403);
  const account = await deps.pool.users.findById(deps.ctx.db.kysely, userId);
  if (!account) throw userNotFound(403);
  if (isBanned(account, deps.now())) throw userBanned(403);
  return { account, sessionId };
}

/** requireServiceRole admits only the service key of the request's pool as bearer. */
export function requireServiceRole(request: FastifyRequest, deps: AuthDeps<UserRow>): void {
  if (!bearerOf(request)) throw noAuthorization();
  const principal = request.principal;
  const app = deps.pool.app;
  const admitted = app
    ? principal.kind === 'appKey' && principal.role === 'service_role' && principal.ref === app.ref
    : principal.kind === 'service';
  if (!admitted) throw notAdmin();
}

/**
 * requireConsoleUser resolves the caller of /api/auth/* (bearer or session cookie) to a live session and
 * account, or throws the console's 401.
 */
export async function requireConsoleUser(
  request: FastifyRequest,
  deps: AuthDeps<AccountRow>,
): Promise<SignedInUser<AccountRow>> {
  const user = requireUser(request);
  const ended = () => new ApiError(401, 'session_not_found', 'Your session has ended. Please sign in again.');
  // Cookie sessions were looked up by the principal hook; a bearer token's session may have ended since.
  if (!user.sessionId || !(await deps.sessions.exists(user.sessionId))) throw ended();
  const account = await findAccount(deps.ctx.db.kysely, user.accountId);
  if (!account) throw ended();
  return { account, sessionId: user.sessionId };
}
