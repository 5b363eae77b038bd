import { type Kysely, type Selectable, sql } from 'kysely';
import type { StorageBucketsTable, StorageObjectsTable } from '../../db/schema/storage-tables.js';
import type { SystemDatabase } from '../../db/schema.js';

// The SQL of buckets and objects. Every query names the account: a bucket of another account is not found.

type Db = Kysely<SystemDatabase>;

/** BucketRow is a stored bucket. */
export type BucketRow = Selectable<StorageBucketsTable>;
/** ObjectRow is a stored object's metadata. */
export type ObjectRow = Selectable<StorageObjectsTable>;

/** findBucket reads an account's bucket by name. */
export function findBucket(db: Db, accountId: string, name: string): Promise<BucketRow | undefined> {
  return db
    .selectFrom('storage_buckets')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
}

// How many accounts' public buckets of one name a keyless URL looks through.
const PUBLIC_NAMESAKES = 16;

/** findPublicBuckets reads the public buckets of a name, of every account, oldest first. */
export function findPublicBuckets(db: Db, name: string): Promise<BucketRow[]> {
  return db
    .selectFrom('storage_buckets')
    .selectAll()
    .where('name', '=', name)
    .where('public', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .limit(PUBLIC_NAMESAKES)
    .execute();
}

/** listBuckets lists an account's buckets by name. */
export function listBuckets(db: Db, accountId: string): Promise<BucketRow[]> {
  return db.selectFrom('storage_buckets').selectAll().where('account_id', '=', accountId).orderBy('name').execute();
}

/** insertBucket stores a new bucket. */
export async function insertBucket(db: Db, row: BucketRow): Promise<void> {
  await db.insertInto('storage_buckets').values(row).execute();
}

/** updateBucket changes a bucket's settings. */
export async function updateBucket(
  db: Db,
  id: string,
  set: Partial<Pick<BucketRow, 'public' | 'file_size_limit' | 'allowed_mime_types' | 'access' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('storage_buckets').set(set).where('id', '=', id).execute();
}

/** deleteBucket removes a bucket (its objects' rows go with it). */
export async function deleteBucket(db: Db, id: string): Promise<void> {
  await db.deleteFrom('storage_buckets').where('id', '=', id).execute();
}

/** countObjects counts a bucket's objects. */
export async function countObjects(db: Db, bucketId: string): Promise<number> {
  const row = await db
    .selectFrom('storage_objects')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('bucket_id', '=', bucketId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** findObject reads an object of a bucket by name. */
export function findObject(db: Db, bucketId: string, name: string): Promise<ObjectRow | undefined> {
  return db
    .selectFrom('storage_objects')
    .selectAll()
    .where('bucket_id', '=', bucketId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/** findObjects reads the objects of a bucket among names. */
export function findObjects(db: Db, bucketId: string, names: string[]): Promise<ObjectRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('storage_objects')
    .selectAll()
    .where('bucket_id', '=', bucketId)
    .where('name', 'in', names)
    .execute();
}

/** objectsUnder reads a bucket's objects whose names start with a prefix, in name order, from `after` on. */
export function objectsUnder(
  db: Db,
  bucketId: string,
  prefix: string,
  options: { after?: string; limit: number },
): Promise<ObjectRow[]> {
  let query = db.selectFrom('storage_objects').selectAll().where('bucket_id', '=', bucketId);
  // Not LIKE: names may hold `%` and `_`; the same on both engines whatever their collation.
  if (prefix) query = query.where(sql<boolean>`substr(name, 1, ${[...prefix].length}) = ${prefix}`);
  if (options.after) query = query.where('name', '>', options.after);
  return query.orderBy('name').limit(options.limit).execute();
}

/** allObjectsOf reads every object of a bucket (emptying it). */
export function allObjectsOf(db: Db, bucketId: string): Promise<Pick<ObjectRow, 'id' | 'version' | 'account_id'>[]> {
  return db
    .selectFrom('storage_objects')
    .select(['id', 'version', 'account_id'])
    .where('bucket_id', '=', bucketId)
    .execute();
}

/** insertObject stores an object's metadata (and counts it in its account's usage). */
export async function insertObject(db: Db, row: ObjectRow): Promise<void> {
  await db.insertInto('storage_objects').values(row).execute();
  await countUsage(db, row.account_id, Number(row.size), 1);
}

/**
 * countUsage adds to an account's kept storage counters, in the transaction of the write that changes them (usage
 * reads them instead of summing objects).
 */
async function countUsage(db: Db, accountId: string, bytes: number, objects: number): Promise<void> {
  if (bytes === 0 && objects === 0) return;
  await db
    .insertInto('storage_usage')
    .values({ account_id: accountId, bytes, objects })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({
        bytes: sql`storage_usage.bytes + ${bytes}`,
        objects: sql`storage_usage.objects + ${objects}`,
      }),
    )
    .execute();
}

/** storageUsageOf reads an account's kept storage counters. */
export async function storageUsageOf(db: Db, accountId: string): Promise<{ bytes: number; objects: number }> {
  const row = await db
    .selectFrom('storage_usage')
    .select(['bytes', 'objects'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return { bytes: Number(row?.bytes ?? 0), objects: Number(row?.objects ?? 0) };
}

/** replaceObject points an existing object at new bytes. */
export async function replaceObject(
  db: Db,
  before: Pick<ObjectRow, 'id' | 'account_id' | 'size'>,
  set: Omit<ObjectRow, 'id' | 'bucket_id' | 'account_id' | 'name' | 'created_at'>,
): Promise<void> {
  await db.updateTable('storage_objects').set(set).where('id', '=', before.id).execute();
  await countUsage(db, before.account_id, Number(set.size) - Number(before.size), 0);
}

/** renameObject moves an object to another bucket or name. */
export async function renameObject(db: Db, id: string, bucketId: string, name: string, now: string): Promise<void> {
  await db
    .updateTable('storage_objects')
    .set({ bucket_id: bucketId, name, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** deleteObjects removes objects' metadata by id (and their count in usage). */
export async function deleteObjects(db: Db, ids: string[]): Promise<void> {
  for (let at = 0; at < ids.length; at += 500) {
    const some = ids.slice(at, at + 500);
    const removed = await db
      .deleteFrom('storage_objects')
      .where('id', 'in', some)
      .returning(['account_id', 'size'])
      .execute();
    const byAccount = new Map<string, { bytes: number; objects: number }>();
    for (const row of removed) {
      const sum = byAccount.get(row.account_id) ?? { bytes: 0, objects: 0 };
      sum.bytes += Number(row.size);
      sum.objects += 1;
      byAccount.set(row.account_id, sum);
    }
    for (const [accountId, sum] of byAccount) await countUsage(db, accountId, -sum.bytes, -sum.objects);
  }
}

/** allVersions lists every object's bytes key (backups, recovery). */
export function allVersions(db: Db): Promise<Pick<ObjectRow, 'account_id' | 'version'>[]> {
  return db.selectFrom('storage_objects').select(['account_id', 'version']).execute();
}
