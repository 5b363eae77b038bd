import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { userTableName } from '../../db/identifiers.js';

// The SQL of metering: API calls and storage per account and day (`user_usage`), the batches already added, and
// what the other measures are read from (function_usage, change_history, file_storage, database_connections).

/** DayCount adds `apiCalls` to one account's day (YYYY-MM-DD, UTC). */
export interface DayCount {
  accountId: string;
  day: string;
  apiCalls: number;
}

/**
 * addUsageBatch adds a batch of counts once: its id is stored in the same transaction, so a batch retried after a
 * failure whose commit did happen is not added again. Returns false when the batch had been added before.
 */
export async function addUsageBatch(db: Db, batchId: string, counts: DayCount[]): Promise<boolean> {
  const now = new Date().toISOString();
  return db.transaction(
    async (scope) => {
      const claimed = await scope.kysely
        .insertInto('usage_batches')
        .values({ id: batchId, created_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      // An account deleted since its calls were counted takes its counts with it (and cannot block the batch).
      const ids = [...new Set(counts.map((c) => c.accountId))];
      const live = new Set(
        ids.length === 0
          ? []
          : (await scope.kysely.selectFrom('accounts').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
      );
      // The same keys in the same order on every node, so that concurrent batches cannot deadlock.
      const sorted = counts
        .filter((c) => live.has(c.accountId))
        .sort((a, b) =>
          a.accountId === b.accountId ? a.day.localeCompare(b.day) : a.accountId.localeCompare(b.accountId),
        );
      if (sorted.length === 0) return true;
      await scope.kysely
        .insertInto('user_usage')
        .values(sorted.map((c) => ({ account_id: c.accountId, day: c.day, api_calls: c.apiCalls, last_updated: now })))
        .onConflict((oc) =>
          oc.columns(['account_id', 'day']).doUpdateSet((eb) => ({
            api_calls: eb('user_usage.api_calls', '+', eb.ref('excluded.api_calls')),
            last_updated: eb.ref('excluded.last_updated'),
          })),
        )
        .execute();
      return true;
    },
    { group: true },
  );
}

/** deleteUsageBatchesBefore forgets batch ids older than `cutoff` (no batch is retried that late). */
export async function deleteUsageBatchesBefore(db: Db, cutoff: string): Promise<void> {
  await db.kysely.deleteFrom('usage_batches').where('created_at', '<', cutoff).execute();
}

/** sumApiCalls adds up an account's API calls from `sinceDay` on. */
export async function sumApiCalls(db: Db, accountId: string, sinceDay: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('user_usage')
    .select((eb) => eb.fn.sum<number | string>('api_calls').as('calls'))
    .where('account_id', '=', accountId)
    .where('day', '>=', sinceDay)
    .executeTakeFirst();
  return Number(row?.calls ?? 0);
}

/** listApiCallDays reads an account's API calls per day from `sinceDay` on, oldest first. */
export async function listApiCallDays(
  db: Db,
  accountId: string,
  sinceDay: string,
): Promise<{ day: string; apiCalls: number }[]> {
  const rows = await db.kysely
    .selectFrom('user_usage')
    .select(['day', 'api_calls'])
    .where('account_id', '=', accountId)
    .where('day', '>=', sinceDay)
    .orderBy('day')
    .execute();
  return rows.map((r) => ({ day: r.day, apiCalls: Number(r.api_calls) }));
}

/**
 * recordStorageDay keeps a storage measurement as its account's day's, when it is the day's highest so far: the
 * highest wins whatever order nodes write in, and writing one twice changes nothing. An account deleted meanwhile
 * gets no row.
 */
export async function recordStorageDay(db: Db, accountId: string, day: string, bytes: number): Promise<void> {
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('user_usage')
    .columns(['account_id', 'day', 'api_calls', 'storage_bytes', 'last_updated'])
    .expression((eb) =>
      eb
        .selectFrom('accounts')
        .select([
          'id',
          sql<string>`cast(${day} as text)`.as('day'),
          sql.lit(0).as('api_calls'),
          sql<number>`cast(${bytes} as bigint)`.as('storage_bytes'),
          sql<string>`cast(${now} as text)`.as('last_updated'),
        ])
        .where('id', '=', accountId),
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'day']).doUpdateSet((eb) => ({
        storage_bytes: eb
          .case()
          .when(
            eb.or([
              eb('user_usage.storage_bytes', 'is', null),
              eb('user_usage.storage_bytes', '<', eb.ref('excluded.storage_bytes')),
            ]),
          )
          .then(eb.ref('excluded.storage_bytes'))
          .else(eb.ref('user_usage.storage_bytes'))
          .end(),
      })),
    )
    .execute();
}

/**
 * listStorageDays reads an account's storage per measured day from `sinceDay` on, oldest first, led by the last
 * measured day before it (storage carries over from one day to the next).
 */
export async function listStorageDays(
  db: Db,
  accountId: string,
  sinceDay: string,
): Promise<{ day: string; bytes: number }[]> {
  const measured = db.kysely
    .selectFrom('user_usage')
    .select(['day', 'storage_bytes'])
    .where('account_id', '=', accountId)
    .where('storage_bytes', 'is not', null);
  const [before, rows] = await Promise.all([
    measured.where('day', '<', sinceDay).orderBy('day', 'desc').limit(1).executeTakeFirst(),
    measured.where('day', '>=', sinceDay).orderBy('day').execute(),
  ]);
  return (before ? [before, ...rows] : rows).map((r) => ({ day: r.day, bytes: Number(r.storage_bytes) }));
}

/** latestStorageDays reads each account's last storage measurement and its day, by account id (none: never). */
export async function latestStorageDays(
  db: Db,
  accountIds: string[],
): Promise<Map<string, { day: string; bytes: number }>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('user_usage as u')
    .select(['u.account_id', 'u.day', 'u.storage_bytes'])
    .where('u.account_id', 'in', accountIds)
    .where((eb) =>
      eb(
        'u.day',
        '=',
        eb
          .selectFrom('user_usage as v')
          .select((v) => v.fn.max('v.day').as('day'))
          .whereRef('v.account_id', '=', 'u.account_id')
          .where('v.storage_bytes', 'is not', null),
      ),
    )
    .execute();
  return new Map(rows.map((r) => [r.account_id, { day: r.day, bytes: Number(r.storage_bytes) }]));
}

/** listComputeHours reads an account's functions' CPU time per hour from `since` (an ISO time) on. */
export async function listComputeHours(
  db: Db,
  accountId: string,
  since: string,
): Promise<{ hour: string; cpuMs: number }[]> {
  const rows = await db.kysely
    .selectFrom('function_usage')
    .select((eb) => ['hour', eb.fn.sum<number | string>('cpu_ms').as('cpu_ms')])
    .where('account_id', '=', accountId)
    .where('hour', '>=', since)
    .groupBy('hour')
    .orderBy('hour')
    .execute();
  return rows.map((r) => ({ hour: r.hour, cpuMs: Number(r.cpu_ms) }));
}

/** sumComputeMs adds up an account's functions' CPU time from `since` (an ISO time) on. */
export async function sumComputeMs(db: Db, accountId: string, since: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('function_usage')
    .select((eb) => eb.fn.sum<number | string>('cpu_ms').as('cpu_ms'))
    .where('account_id', '=', accountId)
    .where('hour', '>=', since)
    .executeTakeFirst();
  return Number(row?.cpu_ms ?? 0);
}

/** countConnections counts the database connections an account registered (features/sql). */
export async function countConnections(db: Db, accountId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('database_connections')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * storageBytes measures an account's tables (pages, indexes included), its history, its SQL editor's files and its
 * stored objects (a kept counter). Each but the last reads all of the account's rows or pages, so each runs in the
 * background (Db.readInBackground).
 */
export async function storageBytes(db: Db, accountId: string): Promise<number> {
  const tables = await db.kysely.selectFrom('user_tables').select('id').where('account_id', '=', accountId).execute();
  const tableBytes = await db.dialect.userTables.tablesSizeBytes(
    db.readInBackground,
    tables.map((t) => userTableName(t.id)),
  );
  const [history] = await db.readInBackground(
    db.kysely
      .selectFrom('change_history')
      .select(
        sql<
          number | string
        >`coalesce(sum(length(coalesce(previous_state, '')) + length(coalesce(new_state, ''))), 0)`.as('bytes'),
      )
      .where('account_id', '=', accountId)
      .compile(),
  );
  const [files] = await db.readInBackground(
    db.kysely
      .selectFrom('file_storage')
      .select((eb) => eb.fn.sum<number | string>('file_size').as('bytes'))
      .where('user_id', '=', accountId)
      .compile(),
  );
  // File storage's objects: its kept counter (features/storage), one row.
  const objects = await db.kysely
    .selectFrom('storage_usage')
    .select('bytes')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(tableBytes) + Number(history?.bytes ?? 0) + Number(files?.bytes ?? 0) + Number(objects?.bytes ?? 0);
}
