import type { Kysely } from 'kysely';
import type { SystemDatabase } from './schema.js';

// The instance's own settings (secrets made at first start, the token issuer): one row per key, shared by every
// node on the database.

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
