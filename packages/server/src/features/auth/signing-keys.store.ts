import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

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

/** readSetting returns an instance setting, or null. */
export async function readSetting(db: Kysely<SystemDatabase>, key: string): Promise<string | null> {
  const row = await db.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

/** writeSettingOnce stores a setting unless another process stored it first; returns the stored value. */
export async function writeSettingOnce(db: Kysely<SystemDatabase>, key: string, value: string): Promise<string> {
  await db
    .insertInto('instance_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await readSetting(db, key)) ?? value;
}

/** writeSetting stores a setting, replacing what was stored under its key. */
export async function writeSetting(db: Kysely<SystemDatabase>, key: string, value: string): Promise<void> {
  await db
    .insertInto('instance_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
