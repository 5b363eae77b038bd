import type { Kysely } from 'kysely';
import type { AuthSessionsTable, SystemDatabase } from '../../db/schema.js';

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
): Promise<{ accountId: string; sessionId: string } | null> {
  const row = await db
    .selectFrom('auth_sessions')
    .select(['id', 'account_id'])
    .where('cookie_token_hash', '=', cookieHash)
    .executeTakeFirst();
  return row ? { accountId: row.account_id, sessionId: row.id } : null;
}

/** insertSession stores a new session. */
export async function insertSession(db: Kysely<SystemDatabase>, row: SessionRow): Promise<void> {
  await db.insertInto('auth_sessions').values(row).execute();
}

/** findSessionById returns a session, or undefined once it has ended. */
export function findSessionById(db: Kysely<SystemDatabase>, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('auth_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** touchSession records that a session was refreshed. */
export async function touchSession(db: Kysely<SystemDatabase>, id: string, at: string): Promise<void> {
  await db.updateTable('auth_sessions').set({ updated_at: at }).where('id', '=', id).execute();
}

/** deleteSession ends one session (its refresh tokens cascade); true when it existed. */
export async function deleteSession(db: Kysely<SystemDatabase>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('auth_sessions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** deleteSessionsOfAccount ends every session of an account, except `keepSessionId` when given. */
export async function deleteSessionsOfAccount(
  db: Kysely<SystemDatabase>,
  accountId: string,
  keepSessionId?: string,
): Promise<number> {
  let query = db.deleteFrom('auth_sessions').where('account_id', '=', accountId);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** insertRefreshToken stores a hashed refresh token. */
export async function insertRefreshToken(db: Kysely<SystemDatabase>, row: Omit<RefreshTokenRow, 'id'>): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

/** findRefreshTokenByHash returns the refresh token with a hash, or undefined. */
export async function findRefreshTokenByHash(
  db: Kysely<SystemDatabase>,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const row = await db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** findChildRefreshToken returns the token that replaced `parentId`, or undefined. */
export async function findChildRefreshToken(
  db: Kysely<SystemDatabase>,
  parentId: number,
): Promise<RefreshTokenRow | undefined> {
  const row = await db
    .selectFrom('refresh_tokens')
    .selectAll()
    .where('parent_id', '=', parentId)
    .orderBy('id')
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** revokeRefreshToken marks a token used; false when another request revoked it first. */
export async function revokeRefreshToken(db: Kysely<SystemDatabase>, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ revoked: 1, revoked_at: at })
    .where('id', '=', id)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
