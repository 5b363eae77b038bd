import type { Kysely } from 'kysely';
import type { AuthSessionsTable, SystemDatabase } from '../../../db/schema.js';
import type { PoolTables } from '../users/user-pool.js';

// Every function but the console cookie's takes the pool's tables (user-pool.ts): console accounts and end users
// keep their sessions and refresh tokens in tables of the same columns.

/** SessionRow is one stored server-side session. */
export type SessionRow = AuthSessionsTable;

/** RefreshTokenRow is one stored (hashed) refresh token. */
export interface RefreshTokenRow {
  id: number;
  token_hash: string;
  session_id: string;
  account_id: string;
  parent_id: number | null;
  revoked: number;
  revoked_at: string | null;
  created_at: string;
}

/** findSessionByCookieHash returns the session a console cookie belongs to, or null once it has ended. */
export async function findSessionByCookieHash(
  db: Kysely<SystemDatabase>,
  cookieHash: string,
): Promise<{ accountId: string; sessionId: string; aal: string } | null> {
  const row = await db
    .selectFrom('auth_sessions')
    .select(['id', 'account_id', 'aal'])
    .where('cookie_token_hash', '=', cookieHash)
    .executeTakeFirst();
  return row ? { accountId: row.account_id, sessionId: row.id, aal: row.aal } : null;
}

/** insertSession stores a new session. */
export async function insertSession(db: Kysely<SystemDatabase>, t: PoolTables, row: SessionRow): Promise<void> {
  await db.insertInto(t.sessions).values(row).execute();
}

/** findSessionById returns a session, or undefined once it has ended. */
export function findSessionById(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  id: string,
): Promise<SessionRow | undefined> {
  return db.selectFrom(t.sessions).selectAll().where('id', '=', id).executeTakeFirst();
}

/** touchSession records that a session was refreshed. */
export async function touchSession(db: Kysely<SystemDatabase>, t: PoolTables, id: string, at: string): Promise<void> {
  await db.updateTable(t.sessions).set({ updated_at: at }).where('id', '=', id).execute();
}

/** raiseSession records a verified MFA factor in a session: its amr, aal2 and the factor. */
export async function raiseSession(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  id: string,
  changes: { amr: string; factorId: string; at: string },
): Promise<void> {
  await db
    .updateTable(t.sessions)
    .set({ amr: changes.amr, aal: 'aal2', factor_id: changes.factorId, updated_at: changes.at })
    .where('id', '=', id)
    .execute();
}

/** lowerSessionsOfFactor brings the sessions a removed factor raised back to aal1, with their amr. */
export async function lowerSessionsOfFactor(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  factorId: string,
  amrOf: (amr: string) => string,
): Promise<void> {
  const sessions = await db.selectFrom(t.sessions).select(['id', 'amr']).where('factor_id', '=', factorId).execute();
  for (const session of sessions) {
    await db
      .updateTable(t.sessions)
      .set({ aal: 'aal1', factor_id: null, amr: amrOf(session.amr) })
      .where('id', '=', session.id)
      .execute();
  }
}

/** deleteAal1SessionsOfAccount ends every aal1 session of an account but one (a factor was just verified). */
export async function deleteAal1SessionsOfAccount(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  accountId: string,
  keepSessionId: string,
): Promise<number> {
  const result = await db
    .deleteFrom(t.sessions)
    .where('account_id', '=', accountId)
    .where('aal', '=', 'aal1')
    .where('id', '!=', keepSessionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** revokeRefreshTokensOfSession marks every refresh token of a session used (a raised session gets a new one). */
export async function revokeRefreshTokensOfSession(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  sessionId: string,
  at: string,
): Promise<void> {
  await db
    .updateTable(t.refreshTokens)
    .set({ revoked: 1, revoked_at: at })
    .where('session_id', '=', sessionId)
    .where('revoked', '=', 0)
    .execute();
}

/** deleteSession ends one session (its refresh tokens cascade); true when it existed. */
export async function deleteSession(db: Kysely<SystemDatabase>, t: PoolTables, id: string): Promise<boolean> {
  const result = await db.deleteFrom(t.sessions).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** deleteSessionsOfAccount ends every session of an account, except `keepSessionId` when given. */
export async function deleteSessionsOfAccount(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  accountId: string,
  keepSessionId?: string,
): Promise<number> {
  let query = db.deleteFrom(t.sessions).where('account_id', '=', accountId);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** insertRefreshToken stores a hashed refresh token. */
export async function insertRefreshToken(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  row: Omit<RefreshTokenRow, 'id'>,
): Promise<void> {
  await db.insertInto(t.refreshTokens).values(row).execute();
}

/** findRefreshTokenByHash returns the refresh token with a hash, or undefined. */
export async function findRefreshTokenByHash(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const row = await db.selectFrom(t.refreshTokens).selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** findChildRefreshToken returns the token that replaced `parentId`, or undefined. */
export async function findChildRefreshToken(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  parentId: number,
): Promise<RefreshTokenRow | undefined> {
  const row = await db
    .selectFrom(t.refreshTokens)
    .selectAll()
    .where('parent_id', '=', parentId)
    .orderBy('id')
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** revokeRefreshToken marks a token used; false when another request revoked it first. */
export async function revokeRefreshToken(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  id: number,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable(t.refreshTokens)
    .set({ revoked: 1, revoked_at: at })
    .where('id', '=', id)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
