import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database.js';
import type { SystemDatabase } from '../../../db/schema.js';
import { hmacToken, randomToken, sha256 } from '../../../lib/crypto/tokens.js';
import {
  refreshTokenAlreadyUsed,
  refreshTokenNotFound,
  sessionNotFound,
  userBanned,
} from '../protocol/gotrue-errors.js';
import type { AccountRow } from '../users/accounts.service.js';
import { appMetadataOf, type IssuedSession, userMetadataOf } from '../users/gotrue-user.js';
import type { UserPool, UserRow } from '../users/user-pool.js';
import {
  deleteAal1SessionsOfAccount,
  deleteSession,
  deleteSessionsOfAccount,
  findChildRefreshToken,
  findRefreshTokenByHash,
  findSessionById,
  insertRefreshToken,
  insertSession,
  lowerSessionsOfFactor,
  type RefreshTokenRow,
  raiseSession,
  revokeRefreshToken,
  revokeRefreshTokensOfSession,
  type SessionRow,
  touchSession,
} from './sessions.store.js';
import type { TokenService } from './tokens.service.js';

/** REFRESH_REUSE_WINDOW_SECONDS is how long a rotated refresh token still returns its successor (GoTrue: 10 s). */
export const REFRESH_REUSE_WINDOW_SECONDS = 10;

/**
 * SignInMethod is the `amr` method of a session (GoTrue's names): a password, a mailed code or link, an OAuth
 * provider, an anonymous sign-in, or a PKCE flow's method; `totp` is added by a verified MFA factor.
 */
export type SignInMethod =
  | 'password'
  | 'otp'
  | 'oauth'
  | 'anonymous'
  | 'magiclink'
  | 'recovery'
  | 'invite'
  | 'email/signup'
  | 'email_change';

/** AmrEntry is one `amr` claim: a method and when it was used (Unix seconds). */
export type AmrEntry = { method: string; timestamp: number };

/** MFA_METHODS are the amr methods that make a session aal2. */
const MFA_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);

/** withAmr adds a method to a session's amr (once per method, newest timestamp), most recent first, as GoTrue. */
export function withAmr(amr: AmrEntry[], entry: AmrEntry): AmrEntry[] {
  return [entry, ...amr.filter((e) => e.method !== entry.method)].sort((a, b) => b.timestamp - a.timestamp);
}

/** withoutMfaAmr is a session's amr once its MFA factor is gone. */
export const withoutMfaAmr = (amr: AmrEntry[]) => amr.filter((e) => !MFA_METHODS.has(e.method));

/** LogoutScope is the `scope` of POST /logout. */
export type LogoutScope = 'global' | 'local' | 'others';

/** StartedSession is a stored session whose access token is not signed yet. */
export interface StartedSession {
  sessionId: string;
  refreshToken: string;
  amr: AmrEntry[];
  aal: 'aal1' | 'aal2';
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

/** SessionService starts, refreshes and ends the sessions of one user pool. */
export interface SessionService<R extends UserRow = AccountRow> {
  /** start stores a session and its first refresh token and records the sign-in; pass a transaction to group it. */
  start(db: Kysely<SystemDatabase>, account: R, options: StartOptions): Promise<StartedSession>;
  /** issue signs the access token of a started session. */
  issue(
    account: R,
    started: Pick<StartedSession, 'sessionId' | 'refreshToken' | 'amr' | 'aal'>,
  ): Promise<IssuedSession>;
  /**
   * raise records a verified MFA factor in a session (aal2, `totp` in its amr) and gives it a new refresh token: the
   * session's earlier tokens are refused from now on, so that only the verifying client holds an aal2 session. Every
   * other aal1 session of the user ends (GoTrue's InvalidateSessionsWithAALLessThan).
   */
  raise(scope: Db, account: R, sessionId: string, factorId: string): Promise<StartedSession>;
  /** lowerFactorSessions brings the sessions a removed factor raised back to aal1. */
  lowerFactorSessions(scope: Db, factorId: string): Promise<void>;
  /** find reads a live session (its aal, amr and age), or undefined once it ended. */
  find(sessionId: string): Promise<SessionRow | undefined>;
  /** refresh rotates a refresh token; throws GoTrue's 400 errors for unknown, reused or orphaned tokens. */
  refresh(refreshToken: string): Promise<{ account: R; session: IssuedSession }>;
  /** exists tells whether a session has not ended. */
  exists(sessionId: string): Promise<boolean>;
  /** end ends the sessions a logout scope names; returns how many ended. */
  end(accountId: string, sessionId: string, scope: LogoutScope): Promise<number>;
  /**
   * endAll ends every session of an account, except one when given (after a password change), in the scope's
   * transaction; their access tokens are refused on every node once it commits.
   */
  endAll(db: Db, accountId: string, exceptSessionId?: string): Promise<number>;
}

/** SessionServiceOptions: the database, the pool, the token signer, the secret refresh tokens derive from, a clock. */
export interface SessionServiceOptions<R extends UserRow> {
  db: Db;
  pool: UserPool<R>;
  tokens: TokenService;
  /** Secret for deriving a rotated token's successor, so a reuse within the window returns the same one. */
  refreshSecret: string;
  now?: () => Date;
}

/** isBanned tells whether an account is banned at `now`. */
export const isBanned = (account: Pick<UserRow, 'banned_until'>, now: Date) =>
  account.banned_until !== null && new Date(account.banned_until).getTime() > now.getTime();

/** createSessionService builds the session service. */
export function createSessionService<R extends UserRow>({
  db,
  pool,
  tokens,
  refreshSecret,
  now = () => new Date(),
}: SessionServiceOptions<R>): SessionService<R> {
  const t = pool.tables;
  // A successor is derived from its parent with a server secret: the refresh token itself is stored only as
  // a hash, yet a second request with the same parent inside the reuse window gets the very same successor.
  const successorOf = (raw: string) => hmacToken(refreshSecret, raw);

  async function rotate(token: RefreshTokenRow, raw: string): Promise<string | null> {
    const child = successorOf(raw);
    const rotated = await db.transaction(async ({ kysely: trx }) => {
      if (!(await revokeRefreshToken(trx, t, token.id, now().toISOString()))) return false;
      await insertRefreshToken(trx, t, {
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
      const child = await findChildRefreshToken(db.kysely, t, current.id);
      if (!child) return null;
      const childRaw = successorOf(currentRaw);
      if (child.token_hash !== sha256(childRaw)) return null;
      if (!child.revoked) return childRaw;
      current = child;
      currentRaw = childRaw;
    }
    return null;
  }

  async function loadLive(sessionId: string, accountId: string): Promise<{ session: SessionRow; account: R }> {
    const session = await findSessionById(db.kysely, t, sessionId);
    if (!session) throw sessionNotFound(400);
    // The pool's store finds only its own users: another app's refresh token names nobody here.
    const account = await pool.users.findById(db.kysely, accountId);
    if (!account) throw refreshTokenNotFound();
    if (isBanned(account, now())) throw userBanned(400);
    return { session, account };
  }

  const service: SessionService<R> = {
    async start(trx, account, options) {
      const at = now();
      const sessionId = randomUUID();
      const refreshToken = randomToken(24);
      const cookieToken = options.withCookie ? randomToken(32) : null;
      const amr = [{ method: options.method, timestamp: Math.floor(at.getTime() / 1000) }];
      await insertSession(trx, t, {
        id: sessionId,
        account_id: account.id,
        amr: JSON.stringify(amr),
        aal: 'aal1',
        factor_id: null,
        cookie_token_hash: cookieToken ? sha256(cookieToken) : null,
        user_agent: options.userAgent?.slice(0, 512) ?? null,
        ip: options.ip ?? null,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      });
      await insertRefreshToken(trx, t, {
        token_hash: sha256(refreshToken),
        session_id: sessionId,
        account_id: account.id,
        parent_id: null,
        revoked: 0,
        revoked_at: null,
        created_at: at.toISOString(),
      });
      const updated = await pool.users.update(trx, account.id, { last_sign_in_at: at.toISOString() }, at);
      if (updated) Object.assign(account, updated);
      return { sessionId, refreshToken, amr, aal: 'aal1', cookieToken };
    },

    async issue(account, started) {
      const signed = await tokens.signAccessToken({
        userId: account.id,
        sessionId: started.sessionId,
        email: account.email,
        appMetadata: appMetadataOf(account),
        userMetadata: userMetadataOf(account),
        amr: started.amr,
        aal: started.aal,
        isAnonymous: account.is_anonymous === 1,
        ttlSeconds: pool.settings.accessTokenTtl,
        ...(pool.app ? { ref: pool.app.ref } : {}),
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
      const token = await findRefreshTokenByHash(db.kysely, t, sha256(raw));
      if (!token) throw refreshTokenNotFound();

      let next = token.revoked ? null : await rotate(token, raw);
      if (!next) {
        // Revoked already (now, by a concurrent request, or earlier): inside the window the successor is
        // returned again; later it is a stolen or replayed token, and the whole session ends.
        const fresh = await findRefreshTokenByHash(db.kysely, t, sha256(raw));
        if (!fresh) throw refreshTokenNotFound();
        const revokedAt = fresh.revoked_at ? new Date(fresh.revoked_at).getTime() : 0;
        const withinWindow = now().getTime() - revokedAt <= REFRESH_REUSE_WINDOW_SECONDS * 1000;
        next = withinWindow ? await activeSuccessor(fresh, raw) : null;
        if (!next) {
          await deleteSession(db.kysely, t, fresh.session_id);
          pool.sessionsEnded(db, fresh.account_id);
          throw refreshTokenAlreadyUsed();
        }
      }
      const { session, account } = await loadLive(token.session_id, token.account_id);
      await touchSession(db.kysely, t, session.id, now().toISOString());
      const amr = JSON.parse(session.amr) as StartedSession['amr'];
      const aal = session.aal === 'aal2' ? 'aal2' : 'aal1';
      return {
        account,
        session: await service.issue(account, { sessionId: session.id, refreshToken: next, amr, aal }),
      };
    },

    async raise(scope, account, sessionId, factorId) {
      const at = now();
      const session = await findSessionById(scope.kysely, t, sessionId);
      if (!session) throw sessionNotFound(403);
      const amr = withAmr(JSON.parse(session.amr) as AmrEntry[], {
        method: 'totp',
        timestamp: Math.floor(at.getTime() / 1000),
      });
      await raiseSession(scope.kysely, t, sessionId, { amr: JSON.stringify(amr), factorId, at: at.toISOString() });
      await revokeRefreshTokensOfSession(scope.kysely, t, sessionId, at.toISOString());
      const refreshToken = randomToken(24);
      await insertRefreshToken(scope.kysely, t, {
        token_hash: sha256(refreshToken),
        session_id: sessionId,
        account_id: account.id,
        parent_id: null,
        revoked: 0,
        revoked_at: null,
        created_at: at.toISOString(),
      });
      if ((await deleteAal1SessionsOfAccount(scope.kysely, t, account.id, sessionId)) > 0) {
        pool.sessionsEnded(scope, account.id);
      }
      return { sessionId, refreshToken, amr, aal: 'aal2', cookieToken: null };
    },

    async lowerFactorSessions(scope, factorId) {
      await lowerSessionsOfFactor(scope.kysely, t, factorId, (amr) =>
        JSON.stringify(withoutMfaAmr(JSON.parse(amr) as AmrEntry[])),
      );
    },

    find: (sessionId) => findSessionById(db.kysely, t, sessionId),

    async exists(sessionId) {
      return (await findSessionById(db.kysely, t, sessionId)) !== undefined;
    },

    async end(accountId, sessionId, scope) {
      const ended =
        scope === 'local'
          ? Number(await deleteSession(db.kysely, t, sessionId))
          : await deleteSessionsOfAccount(db.kysely, t, accountId, scope === 'others' ? sessionId : undefined);
      if (ended > 0) pool.sessionsEnded(db, accountId);
      return ended;
    },

    async endAll(scope, accountId, exceptSessionId) {
      const ended = await deleteSessionsOfAccount(scope.kysely, t, accountId, exceptSessionId);
      if (ended > 0) pool.sessionsEnded(scope, accountId);
      return ended;
    },
  };
  return service;
}
