import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

/** isInstanceAdmin tells whether an account is an administrator of the instance (accounts.is_admin). */
export async function isInstanceAdmin(db: Kysely<SystemDatabase>, accountId: string): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('is_admin').where('id', '=', accountId).executeTakeFirst();
  return row?.is_admin === 1;
}
