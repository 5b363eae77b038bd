import type { Db } from '../../db/database.js';

// user_achievements (migration 0038): one row per account and reached milestone, written once.

/** unlocksOf answers when each of an account's reached milestones was reached, by milestone id. */
export async function unlocksOf(db: Db, accountId: string): Promise<Map<string, string>> {
  const rows = await db.kysely
    .selectFrom('user_achievements')
    .select(['achievement_id', 'unlocked_at'])
    .where('account_id', '=', accountId)
    .execute();
  return new Map(rows.map((r) => [r.achievement_id, r.unlocked_at]));
}

/** insertUnlock keeps a reached milestone; one already kept (by this node or another) stays as it was. */
export async function insertUnlock(db: Db, accountId: string, achievementId: string, at: string): Promise<void> {
  await db.kysely
    .insertInto('user_achievements')
    .values({ account_id: accountId, achievement_id: achievementId, unlocked_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'achievement_id']).doNothing())
    .execute();
}
