import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SystemDatabase } from '../../db/schema.js';
import { hmacToken, randomToken, sha256 } from '../../lib/crypto/tokens.js';
import { type AccountRow, findAccount, updateAccount } from './accounts.service.js';
import { refreshTokenAlreadyUsed, refreshTokenNotFound, sessionNotFound, userBanned } from './gotrue-errors.js';
import { appMetadataOf, type IssuedSession, userMetadataOf } from './gotrue-user.js';
import {
  deleteSession,
  deleteSessionsOfAccount,
  findChildRefreshToken,
  findRefreshTokenByHash,
  findSessionById,
  insertRefreshToken,
  insertSession,
  type RefreshTokenRow,
  revokeRefreshToken,
  type SessionRow,
  touchSession,
} from './sessions.store.js';
import type { TokenService } from './tokens.service.js';

/** REFRESH_REUSE_WINDOW_SECONDS is how long a rotated refresh token still returns its successor (GoTrue: 10 s). */
export const REFRESH_REUSE_WINDOW_SECONDS = 10;

/** SignInMethod is the `amr` method of a session: a password, or a one-time token from a mail. */
export type SignInMethod = 'password' | 'otp';

/** LogoutScope is the `scope` of POST /logout. */
export type LogoutScope = 'global' | 'local' | 'others';

/** StartedSession is a stored session whose access token is not signed yet. */
export interface StartedSession {
  sessionId: string;
  refreshToken: string;
  amr: Array<{ method: string; timestamp: number }>;
  /** The console cookie's value, when the session was started for /api/auth/login. */
  cookieToken: string | null;
}

/** StartOptions describe the client a session is started for. */
export interface StartOptions {
  method: SignInMethod;
  withCookie?: boolean;
  userAgent?: string | null;
  ip?: string | null;
}

/** SessionService starts, refreshes and ends sessions (protocol §2.4). */
export interface SessionService {
  /** start stores a session and its first refresh token and records the sign-in; pass a transaction to group it. */
  start(db: Kysely<SystemDatabase>, account: AccountRow, options: StartOptions): Promise<StartedSession>;
  /** issue signs the access token of a started session. */
  issue(
    account: AccountRow,
    started: Pick<StartedSession, 'sessionId' | 'refreshToken' | 'amr'>,
  ): Promise<IssuedSession>;
  /** refresh rotates a refresh token; throws GoTrue's 400 errors for unknown, reused or orphaned tokens. */
  refresh(refreshToken: string): Promise<{ account: AccountRow; session: IssuedSession }>;
  /** exists tells whether a session has not ended. */
  exists(sessionId: string): Promise<boolean>;
  /** end ends the sessions a logout scope names; returns how many ended. */
  end(accountId: string, sessionId: string, scope: LogoutScope): Promise<number>;
  /** endAll ends every session of an account, except one when given (after a password change). */
  endAll(db: Kysely<SystemDatabase>, accountId: string, exceptSessionId?: string): Promise<number>;
}

/** SessionServiceOptions: the database, the token signer, the secret refresh tokens derive from, a clock. */
export interface SessionServiceOptions {
  db: Db;
  tokens: TokenService;
  /** Secret for deriving a rotated token's successor, so a reuse within the window returns the same one. */
  refreshSecret: string;
  now?: () => Date;
}

/** isBanned tells whether an account is banned at `now`. */
export const isBanned = (account: AccountRow, now: Date) =>
  account.banned_until !== null && new Date(account.banned_until).getTime() > now.getTime();

/** createSessionService builds the session service. */
export function createSessionService({
  db,
  tokens,
  refreshSecret,
  now = () => new Date(),
}: SessionServiceOptions): SessionService {
  // A successor is derived from its parent with a server secret: the refresh token itself is stored only as
  // a hash, yet a second request with the same parent inside the reuse window gets the very same successor.
  const successorOf = (raw: string) => hmacToken(refreshSecret, raw);

  async function rotate(token: RefreshTokenRow, raw: string): Promise<string | null> {
    const child = successorOf(raw);
    const rotated = await db.transaction(async (trx) => {
      if (!(await revokeRefreshToken(trx, token.id, now().toISOString()))) return false;
      await insertRefreshToken(trx, {
        token_hash: sha256(child),
        session_id: token.session_id,
        account_id: token.account_id,
        parent_id: token.id,
        revoked: 0,
        revoked_at: null,
        created_at: now().toISOString(),
      });
      return true;
    });
    return rotated ? child : null;
  }

  // The active descendant of a token revoked moments ago (two tabs refreshing at once), or null.
  async function activeSuccessor(token: RefreshTokenRow, raw: string): Promise<string | null> {
    let current = token;
    let currentRaw = raw;
    for (let depth = 0; depth < 50; depth++) {
      const child = await findChildRefreshToken(db.kysely, current.id);
      if (!child) return null;
      const childRaw = successorOf(currentRaw);
      if (child.token_hash !== sha256(childRaw)) return null;
      if (!child.revoked) return childRaw;
      current = child;
      currentRaw = childRaw;
    }
    return null;
  }

  async function loadLive(sessionId: string, accountId: string): Promise<{ session: SessionRow; account: AccountRow }> {
    const session = await findSessionById(db.kysely, sessionId);
    if (!session) throw sessionNotFound(400);
    const account = await findAccount(db.kysely, accountId);
    if (!account) throw refreshTokenNotFound();
    if (isBanned(account, now())) throw userBanned(400);
    return { session, account };
  }

  const service: SessionService = {
    async start(trx, account, options) {
      const at = now();
      const sessionId = randomUUID();
      const refreshToken = randomToken(24);
      const cookieToken = options.withCookie ? randomToken(32) : null;
      const amr = [{ method: options.method, timestamp: Math.floor(at.getTime() / 1000) }];
      await insertSession(trx, {
        id: sessionId,
        account_id: account.id,
        amr: JSON.stringify(amr),
        cookie_token_hash: cookieToken ? sha256(cookieToken) : null,
        user_agent: options.userAgent?.slice(0, 512) ?? null,
        ip: options.ip ?? null,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      });
      await insertRefreshToken(trx, {
        token_hash: sha256(refreshToken),
        session_id: sessionId,
        account_id: account.id,
        parent_id: null,
        revoked: 0,
        revoked_at: null,
        created_at: at.toISOString(),
      });
      const updated = await updateAccount(trx, account.id, { last_sign_in_at: at.toISOString() }, at);
      if (updated) Object.assign(account, updated);
      return { sessionId, refreshToken, amr, cookieToken };
    },

    async issue(account, started) {
      const signed = await tokens.signAccessToken({
        userId: account.id,
        sessionId: started.sessionId,
        email: account.email,
        appMetadata: appMetadataOf(account),
        userMetadata: userMetadataOf(account),
        amr: started.amr,
      });
      return {
        accessToken: signed.token,
        expiresIn: signed.expiresIn,
        expiresAt: signed.expiresAt,
        refreshToken: started.refreshToken,
        sessionId: started.sessionId,
      };
    },

    async refresh(raw) {
      // Our tokens are 32 base64url characters; anything else cannot exist, so skip the lookup.
      if (!/^[A-Za-z0-9_-]{12,128}$/.test(raw)) throw refreshTokenNotFound();
      const token = await findRefreshTokenByHash(db.kysely, sha256(raw));
      if (!token) throw refreshTokenNotFound();

      let next = token.revoked ? null : await rotate(token, raw);
      if (!next) {
        // Revoked already (now, by a concurrent request, or earlier): inside the window the successor is
        // returned again; later it is a stolen or replayed token, and the whole session ends.
        const fresh = await findRefreshTokenByHash(db.kysely, sha256(raw));
        if (!fresh) throw refreshTokenNotFound();
        const revokedAt = fresh.revoked_at ? new Date(fresh.revoked_at).getTime() : 0;
        const withinWindow = now().getTime() - revokedAt <= REFRESH_REUSE_WINDOW_SECONDS * 1000;
        next = withinWindow ? await activeSuccessor(fresh, raw) : null;
        if (!next) {
          await deleteSession(db.kysely, fresh.session_id);
          throw refreshTokenAlreadyUsed();
        }
      }
      const { session, account } = await loadLive(token.session_id, token.account_id);
      await touchSession(db.kysely, session.id, now().toISOString());
      const amr = JSON.parse(session.amr) as StartedSession['amr'];
      return { account, session: await service.issue(account, { sessionId: session.id, refreshToken: next, amr }) };
    },

    async exists(sessionId) {
      return (await findSessionById(db.kysely, sessionId)) !== undefined;
    },

    async end(accountId, sessionId, scope) {
      if (scope === 'local') return (await deleteSession(db.kysely, sessionId)) ? 1 : 0;
      return deleteSessionsOfAccount(db.kysely, accountId, scope === 'others' ? sessionId : undefined);
    },

    endAll: (trx, accountId, exceptSessionId) => deleteSessionsOfAccount(trx, accountId, exceptSessionId),
  };
  return service;
}
