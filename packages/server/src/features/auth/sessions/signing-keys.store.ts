import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../../db/schema.js';

/** StoredSigningKey is one row of signing_keys. */
export interface StoredSigningKey {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created_at: string;
  retired_at: string | null;
}

/** listSigningKeys returns every key, oldest first (the oldest active one signs). */
export function listSigningKeys(db: Kysely<SystemDatabase>): Promise<StoredSigningKey[]> {
  return db.selectFrom('signing_keys').selectAll().orderBy('created_at').orderBy('kid').execute();
}

/** insertSigningKey stores a new key. */
export async function insertSigningKey(db: Kysely<SystemDatabase>, key: StoredSigningKey): Promise<void> {
  await db.insertInto('signing_keys').values(key).execute();
}
