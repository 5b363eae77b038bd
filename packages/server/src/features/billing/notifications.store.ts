import type { Db } from '../../db/database.js';

// The SQL of notifications: messages to an account (usage warnings), each at most once per dedupe key.

/** NewNotification is a message to leave for an account once. */
export interface NewNotification {
  accountId: string;
  dedupeKey: string;
  title: string;
  message: string;
}

/** insertNotificationOnce stores a notification unless one with its key exists; true when it was stored. */
export async function insertNotificationOnce(db: Db, n: NewNotification): Promise<boolean> {
  const result = await db.kysely
    .insertInto('notifications')
    .values({
      account_id: n.accountId,
      dedupe_key: n.dedupeKey,
      title: n.title,
      message: n.message,
      read_at: null,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.columns(['account_id', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** listNotificationRows reads an account's newest notifications. */
export function listNotificationRows(db: Db, accountId: string, limit: number) {
  return db.kysely
    .selectFrom('notifications')
    .select(['id', 'title', 'message', 'read_at', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** markNotificationsRead marks every unread notification of an account as read. */
export async function markNotificationsRead(db: Db, accountId: string): Promise<void> {
  await db.kysely
    .updateTable('notifications')
    .set({ read_at: new Date().toISOString() })
    .where('account_id', '=', accountId)
    .where('read_at', 'is', null)
    .execute();
}
