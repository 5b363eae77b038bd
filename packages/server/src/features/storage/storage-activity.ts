import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import { type ActivityAction, recordActivity } from '../activity/activity.service.js';
import type { ObjectsChanged } from './storage-events.js';

// Storage's changes in the account's activity feed, written in the change's transaction: every bucket change, and
// object writes the account itself makes (console, API keys). An app's traffic (its users, visitors and service
// key) is not the account's own activity: it is on the bus (`storage.objects.changed`) and in the request log.

const MAX_NAMES = 20;

/** noteBucket records a bucket created, changed, emptied or deleted. */
export async function noteBucket(
  scope: Db,
  actor: Actor,
  action: ActivityAction,
  bucket: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await recordActivity(scope.kysely, {
    accountId: actor.accountId,
    action,
    resource: 'storage.buckets',
    details: { bucket, ...details },
  });
}

/** noteObjects publishes objects written or removed and records them (when the account made the change). */
export async function noteObjects(scope: Db, actor: Actor, event: ObjectsChanged): Promise<void> {
  scope.publish('storage.objects.changed', event);
  if (actor.app || event.names.length === 0) return;
  await recordActivity(scope.kysely, {
    accountId: actor.accountId,
    action: event.kind === 'written' ? 'CREATE' : 'DELETE',
    resource: 'storage.objects',
    details: { bucket: event.bucket, names: event.names.slice(0, MAX_NAMES), count: event.names.length },
  });
}
