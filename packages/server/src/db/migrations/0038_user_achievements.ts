import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * userAchievementsMigration adds the milestones an account has reached (features/achievements): one row per
 * account and milestone, written once when it is reached and kept whatever happens to what reached it.
 */
export function userAchievementsMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_achievements')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('achievement_id', 'text', (c) => c.notNull())
        .addColumn('unlocked_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_achievements_pk', ['account_id', 'achievement_id'])
        .execute();
    },
  };
}
