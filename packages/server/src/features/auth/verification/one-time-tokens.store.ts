import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../../db/schema.js';
import type { PoolTables } from '../users/user-pool.js';

/** OneTimeTokenRow is one stored (hashed) mail token: the link token and the 6-digit code. */
export interface OneTimeTokenRow {
  id: number;
  account_id: string;
  kind: string;
  /** The address the mail went to (the new address for an email change). */
  email: string;
  token_hash: string;
  otp_hash: string;
  created_at: string;
  expires_at: string;
  /** The PKCE flow the token's link belongs to, or null. */
  flow_state_id: string | null;
}

/** insertOneTimeToken stores a token. */
export async function insertOneTimeToken(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  row: Omit<OneTimeTokenRow, 'id'>,
): Promise<void> {
  await db.insertInto(t.oneTimeTokens).values(row).execute();
}

/** deleteOneTimeTokens removes an account's tokens of some kinds (all kinds when none are given). */
export async function deleteOneTimeTokens(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  accountId: string,
  kinds?: string[],
): Promise<void> {
  let query = db.deleteFrom(t.oneTimeTokens).where('account_id', '=', accountId);
  if (kinds) query = query.where('kind', 'in', kinds);
  await query.execute();
}

/** deleteOneTimeToken removes one token; false when another request redeemed it first. */
export async function deleteOneTimeToken(db: Kysely<SystemDatabase>, t: PoolTables, id: number): Promise<boolean> {
  const result = await db.deleteFrom(t.oneTimeTokens).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** deleteExpiredOneTimeTokens removes every token that expired before `at`. */
export async function deleteExpiredOneTimeTokens(db: Kysely<SystemDatabase>, t: PoolTables, at: string): Promise<void> {
  await db.deleteFrom(t.oneTimeTokens).where('expires_at', '<', at).execute();
}

/** findOneTimeTokenByHash returns the unexpired token of a link, limited to some kinds. */
export async function findOneTimeTokenByHash(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  tokenHash: string,
  kinds: string[],
  at: string,
): Promise<OneTimeTokenRow | undefined> {
  const row = await db
    .selectFrom(t.oneTimeTokens)
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('kind', 'in', kinds)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** findOneTimeTokenByCode returns the unexpired token of an address and code, limited to some kinds. */
export async function findOneTimeTokenByCode(
  db: Kysely<SystemDatabase>,
  t: PoolTables,
  email: string,
  otpHash: string,
  kinds: string[],
  at: string,
): Promise<OneTimeTokenRow | undefined> {
  const row = await db
    .selectFrom(t.oneTimeTokens)
    .selectAll()
    .where('email', '=', email)
    .where('otp_hash', '=', otpHash)
    .where('kind', 'in', kinds)
    .where('expires_at', '>', at)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}
