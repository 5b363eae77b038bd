import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { bearerOf, requireUser } from '../../http/principal.js';
import { type AccountRow, findAccount } from './accounts.service.js';
import type { AuthDeps } from './auth-deps.js';
import { badJwt, noAuthorization, notAdmin, sessionNotFound, userBanned, userNotFound } from './gotrue-errors.js';
import { isBanned } from './sessions.service.js';

/** SignedInUser is the account behind a request and the session its token belongs to. */
export interface SignedInUser {
  account: AccountRow;
  sessionId: string;
}

/**
 * requireGoTrueUser resolves `Authorization: Bearer <at>` on /auth/v1 (protocol §2.6.4): 401
 * no_authorization without a bearer, 403 bad_jwt for a bad token or one without a user (a key), 403
 * session_not_found once its session ended, 403 user_not_found for a deleted user.
 */
export async function requireGoTrueUser(request: FastifyRequest, deps: AuthDeps): Promise<SignedInUser> {
  if (!bearerOf(request)) throw noAuthorization();
  const principal = request.principal;
  if (principal.kind === 'invalid') {
    throw badJwt(
      principal.reason === 'expired'
        ? 'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired'
        : `invalid JWT: unable to parse or verify signature, ${principal.message}`,
    );
  }
  if (principal.kind !== 'user') throw badJwt('invalid claim: missing sub claim');
  if (!principal.sessionId || !(await deps.sessions.exists(principal.sessionId))) throw sessionNotFound(403);
  const account = await findAccount(deps.ctx.db.kysely, principal.accountId);
  if (!account) throw userNotFound(403);
  if (isBanned(account, deps.now())) throw userBanned(403);
  return { account, sessionId: principal.sessionId };
}

/** requireServiceRole admits only the service key as bearer (protocol §2.6.9). */
export function requireServiceRole(request: FastifyRequest): void {
  if (!bearerOf(request)) throw noAuthorization();
  if (request.principal.kind !== 'service') throw notAdmin();
}

/**
 * requireConsoleUser resolves the caller of /api/auth/* (bearer or session cookie) to a live session and
 * account, or throws the console's 401.
 */
export async function requireConsoleUser(request: FastifyRequest, deps: AuthDeps): Promise<SignedInUser> {
  const user = requireUser(request);
  const ended = () => new ApiError(401, 'session_not_found', 'Your session has ended. Please sign in again.');
  // Cookie sessions were looked up by the principal hook; a bearer token's session may have ended since.
  if (!user.sessionId || !(await deps.sessions.exists(user.sessionId))) throw ended();
  const account = await findAccount(deps.ctx.db.kysely, user.accountId);
  if (!account) throw ended();
  return { account, sessionId: user.sessionId };
}
