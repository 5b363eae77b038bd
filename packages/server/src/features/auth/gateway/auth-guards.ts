import { sessionIdOf } from '../../../http/caller.js';
import { ApiError } from '../../../http/errors.js';
import { bearerOfHeader } from '../../../http/principal.js';
import type { AdmissionStep, Call } from '../../../http/routes/route.js';
import type { AuthDeps } from '../auth-deps.js';
import {
  badJwt,
  noAuthorization,
  notAdmin,
  sessionNotFound,
  userBanned,
  userNotFound,
} from '../protocol/gotrue-errors.js';
import { isBanned } from '../sessions/sessions.service.js';
import { type AccountRow, findAccount } from '../users/accounts.service.js';
import type { UserRow } from '../users/user-pool.js';
import { type AuthPools, depsOf } from './auth-gateway.js';

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
export async function requireGoTrueUser<R extends UserRow>(call: Call, deps: AuthDeps<R>): Promise<SignedInUser<R>> {
  if (!bearerOfHeader(call.headers.authorization)) throw noAuthorization();
  const principal = call.principal;
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

/** serviceRole is the admission step that admits only the service key of the call's pool as bearer. */
export const serviceRole =
  (pools: AuthPools): AdmissionStep =>
  (call) =>
    requireServiceRole(call, depsOf(call, pools));

function requireServiceRole(call: Call, deps: AuthDeps<UserRow>): void {
  if (!bearerOfHeader(call.headers.authorization)) throw noAuthorization();
  const principal = call.principal;
  const app = deps.pool.app;
  const admitted = app
    ? principal.kind === 'appKey' && principal.role === 'service_role' && principal.ref === app.ref
    : principal.kind === 'service';
  if (!admitted) throw notAdmin();
}

/**
 * requireConsoleUser finds the account of a call admitted by `callers.user` (bearer or session cookie) and its
 * live session, or throws the console's 401.
 */
export async function requireConsoleUser(call: Call, deps: AuthDeps<AccountRow>): Promise<SignedInUser<AccountRow>> {
  const { accountId } = call.actor;
  const sessionId = sessionIdOf(call);
  const ended = () => new ApiError(401, 'session_not_found', 'Your session has ended. Please sign in again.');
  // Cookie sessions were looked up by the caller step; a bearer token's session may have ended since.
  if (!sessionId || !(await deps.sessions.exists(sessionId))) throw ended();
  const account = await findAccount(deps.ctx.db.kysely, accountId);
  if (!account) throw ended();
  return { account, sessionId };
}
