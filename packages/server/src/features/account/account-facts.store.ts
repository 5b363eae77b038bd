import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

/** findAccountFacts reads what an actor carries of its account: whether it administers the instance. */
export async function findAccountFacts(
  db: Kysely<SystemDatabase>,
  accountId: string,
): Promise<{ admin: boolean } | undefined> {
  const row = await db.selectFrom('accounts').select('is_admin').where('id', '=', accountId).executeTakeFirst();
  return row && { admin: row.is_admin === 1 };
}
