import type { Notification } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import { listNotificationRows, markNotificationsRead } from './notifications.store.js';

const NOTIFICATIONS_SHOWN = 20;

/** listNotifications is the account's newest notifications, newest first. */
export async function listNotifications(db: Db, actor: Actor): Promise<Notification[]> {
  const rows = await listNotificationRows(db, actor.accountId, NOTIFICATIONS_SHOWN);
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    message: r.message,
    read: r.read_at !== null,
    createdAt: r.created_at,
  }));
}

/** readNotifications marks every notification of the account as read. */
export async function readNotifications(db: Db, actor: Actor): Promise<void> {
  await markNotificationsRead(db, actor.accountId);
}
