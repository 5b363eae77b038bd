import type { ActivityEntry, Pagination } from '@basalt/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SystemDatabase } from '../../db/schema.js';
import { type ActivityRow, countActivity, insertActivity, listActivityPage } from './activity.store.js';

/** ActivityAction lists the actions an activity entry can record. */
export type ActivityAction = 'CREATE' | 'REGISTER' | 'DELETE' | 'UPDATE' | 'LOGIN' | 'LOGOUT' | 'DEPLOY' | 'REVEAL';

/** ActivityInput is one entry to record: who, what, on which resource (`users`, `auth`, `tables`, `table.{name}`…). */
export interface ActivityInput {
  accountId: string;
  action: ActivityAction;
  resource: string;
  /** Small facts for the feed, e.g. {username}, {tableName}; never secrets. */
  details?: Record<string, unknown> | null;
}

/**
 * recordActivity appends an entry to the account's activity feed. Pass the transaction of the change it
 * describes (a Transaction is a Kysely) or its scope, so the entry commits or rolls back with it (`deferred`: see
 * insertActivity).
 */
export async function recordActivity(
  db: Kysely<SystemDatabase> | Db,
  input: ActivityInput,
  now: Date = new Date(),
  options: { deferred?: boolean } = {},
): Promise<void> {
  await insertActivity(
    db,
    {
      account_id: input.accountId,
      action: input.action,
      resource: input.resource,
      details: input.details ? JSON.stringify(input.details) : null,
      created_at: now.toISOString(),
    },
    options,
  );
}

/** toActivityEntry renders a stored row as the shared ActivityEntry. */
function toActivityEntry(row: ActivityRow): ActivityEntry {
  let details: Record<string, unknown> | null = null;
  if (row.details) {
    const parsed: unknown = JSON.parse(row.details);
    details =
      parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  }
  return { id: Number(row.id), action: row.action, resource: row.resource, details, createdAt: row.created_at };
}

/** listActivity returns one page (1-based) of an account's feed, newest first, with the console's pagination. */
export async function listActivity(
  db: Kysely<SystemDatabase>,
  accountId: string,
  { page, limit }: { page: number; limit: number },
): Promise<{ data: ActivityEntry[]; pagination: Pagination }> {
  const [rows, totalItems] = await Promise.all([
    listActivityPage(db, accountId, { limit, offset: (page - 1) * limit }),
    countActivity(db, accountId),
  ]);
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  return {
    data: rows.map(toActivityEntry),
    pagination: { totalItems, totalPages, currentPage: page, hasNext: page < totalPages, hasPrevious: page > 1 },
  };
}
