import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

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
}

/** insertOneTimeToken stores a token. */
export async function insertOneTimeToken(db: Kysely<SystemDatabase>, row: Omit<OneTimeTokenRow, 'id'>): Promise<void> {
  await db.insertInto('one_time_tokens').values(row).execute();
}

/** deleteOneTimeTokens removes an account's tokens of some kinds (all kinds when none are given). */
export async function deleteOneTimeTokens(
  db: Kysely<SystemDatabase>,
  accountId: string,
  kinds?: string[],
): Promise<void> {
  let query = db.deleteFrom('one_time_tokens').where('account_id', '=', accountId);
  if (kinds) query = query.where('kind', 'in', kinds);
  await query.execute();
}

/** deleteOneTimeToken removes one token; false when another request redeemed it first. */
export async function deleteOneTimeToken(db: Kysely<SystemDatabase>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('one_time_tokens').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** deleteExpiredOneTimeTokens removes every token that expired before `at`. */
export async function deleteExpiredOneTimeTokens(db: Kysely<SystemDatabase>, at: string): Promise<void> {
  await db.deleteFrom('one_time_tokens').where('expires_at', '<', at).execute();
}

/** findOneTimeTokenByHash returns the unexpired token of a link, limited to some kinds. */
export async function findOneTimeTokenByHash(
  db: Kysely<SystemDatabase>,
  tokenHash: string,
  kinds: string[],
  at: string,
): Promise<OneTimeTokenRow | undefined> {
  const row = await db
    .selectFrom('one_time_tokens')
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
  email: string,
  otpHash: string,
  kinds: string[],
  at: string,
): Promise<OneTimeTokenRow | undefined> {
  const row = await db
    .selectFrom('one_time_tokens')
    .selectAll()
    .where('email', '=', email)
    .where('otp_hash', '=', otpHash)
    .where('kind', 'in', kinds)
    .where('expires_at', '>', at)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}
