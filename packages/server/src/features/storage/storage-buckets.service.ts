import { randomUUID } from 'node:crypto';
import type { Actor } from '../../lib/actor/actor.js';
import {
  allObjectsOf,
  type BucketRow,
  countObjects,
  deleteBucket as deleteBucketRow,
  deleteObjects,
  findBucket,
  insertBucket,
  listBuckets as listBucketRows,
  updateBucket as updateBucketRow,
} from './storage.store.js';
import { noteBucket } from './storage-activity.js';
import { bucketKey, type Storage } from './storage-context.js';
import { alreadyExists, bucketNotEmpty, bucketNotFound, forbidden, invalidInput } from './storage-errors.js';
import { bucketName } from './storage-names.js';
import { type BucketAccess, DEFAULT_ACCESS, hasFullAccess, parseAccess, readAccess } from './storage-rules.js';

// Buckets: an account's own (two accounts may each have `avatars`). Only the account itself, its API keys and its
// app's service key manage them; the app's users reach objects under the bucket's rules and never its settings.

const MAX_MIME_TYPES = 100;

/** BucketJson is a bucket as Supabase Storage answers it (plus Basalt's access rules). */
export interface BucketJson {
  id: string;
  name: string;
  owner: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  access: BucketAccess;
  created_at: string;
  updated_at: string;
}

/** bucketJson renders a stored bucket. */
export function bucketJson(row: BucketRow): BucketJson {
  return {
    id: row.name,
    name: row.name,
    owner: row.account_id,
    public: row.public === 1,
    file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
    allowed_mime_types: row.allowed_mime_types ? (JSON.parse(row.allowed_mime_types) as string[]) : null,
    access: readAccess(row.access),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** sizeLimitOf reads `file_size_limit`: bytes as a number, or a string such as "5MB"; null/undefined for none. */
export function sizeLimitOf(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '' || raw === 0) return null;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw;
  if (typeof raw === 'string') {
    const match = /^\s*(\d{1,15})\s*(b|kb|mb|gb)?\s*$/i.exec(raw);
    if (match) {
      const bytes = Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1);
      if (Number.isSafeInteger(bytes) && bytes > 0) return bytes;
    }
  }
  throw invalidInput('file_size_limit must be a positive number of bytes or a size such as "5MB"');
}

function mimeTypesOf(raw: unknown): string[] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length > MAX_MIME_TYPES) throw invalidInput('allowed_mime_types must be a list');
  for (const type of raw) {
    if (typeof type !== 'string' || !/^[\w.+-]+\/([\w.+-]+|\*)$/.test(type)) {
      throw invalidInput(`Invalid MIME type in allowed_mime_types: ${String(type).slice(0, 100)}`);
    }
  }
  return raw.length === 0 ? null : (raw as string[]);
}

const objectBody = (body: unknown): Record<string, unknown> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidInput('Expected a JSON object');
  return body as Record<string, unknown>;
};

function mustManage(actor: Actor): void {
  if (!hasFullAccess(actor)) throw forbidden('Only the account (or its service key) manages buckets');
}

/** findBucketOf reads an account's bucket through the cache, or 404. */
export async function findBucketOf(storage: Storage, accountId: string, name: unknown): Promise<BucketRow> {
  if (typeof name !== 'string' || name.length > 100) throw bucketNotFound();
  const found = await storage.buckets.get(bucketKey(accountId, name));
  if (!found) throw bucketNotFound();
  return found;
}

/** createBucket creates a bucket of the actor's account; answers `{name}`. */
export async function createBucket(storage: Storage, actor: Actor, body: unknown): Promise<{ name: string }> {
  mustManage(actor);
  const input = objectBody(body);
  const name = bucketName(input.name ?? input.id);
  if (input.id !== undefined && input.name !== undefined && input.id !== input.name) {
    throw invalidInput('id and name must be the same');
  }
  const now = new Date().toISOString();
  const access = input.access === undefined ? DEFAULT_ACCESS : parseAccess(input.access);
  const mimeTypes = mimeTypesOf(input.allowed_mime_types);
  const row: BucketRow = {
    id: randomUUID(),
    account_id: actor.accountId,
    name,
    public: input.public === true ? 1 : 0,
    file_size_limit: sizeLimitOf(input.file_size_limit),
    allowed_mime_types: mimeTypes ? JSON.stringify(mimeTypes) : null,
    access: JSON.stringify(access),
    created_at: now,
    updated_at: now,
  };
  if (await findBucket(storage.db.kysely, actor.accountId, name)) throw alreadyExists();
  await storage.db.transaction(async (scope) => {
    try {
      await insertBucket(scope.kysely, row);
    } catch {
      // Two creations of one name at once: the unique index decides.
      throw alreadyExists();
    }
    await noteBucket(scope, actor, 'CREATE', name, { public: row.public === 1 });
    scope.publish('storage.bucket.changed', { accountId: actor.accountId, name });
  });
  return { name };
}

/** listBuckets lists the actor's account's buckets (app users see them only when the rules let them read). */
export async function listBuckets(storage: Storage, actor: Actor): Promise<BucketJson[]> {
  mustManage(actor);
  return (await listBucketRows(storage.db.kysely, actor.accountId)).map(bucketJson);
}

/** getBucket reads one bucket. */
export async function getBucket(storage: Storage, actor: Actor, name: unknown): Promise<BucketJson> {
  mustManage(actor);
  return bucketJson(await findBucketOf(storage, actor.accountId, name));
}

/** updateBucket changes a bucket's public flag, limits or rules. */
export async function updateBucket(storage: Storage, actor: Actor, name: unknown, body: unknown) {
  mustManage(actor);
  const bucket = await findBucketOf(storage, actor.accountId, name);
  const input = objectBody(body);
  const set: Parameters<typeof updateBucketRow>[2] = { updated_at: new Date().toISOString() };
  if (input.public !== undefined) {
    if (typeof input.public !== 'boolean') throw invalidInput('public must be true or false');
    set.public = input.public ? 1 : 0;
  }
  if ('file_size_limit' in input) set.file_size_limit = sizeLimitOf(input.file_size_limit);
  if ('allowed_mime_types' in input) {
    const types = mimeTypesOf(input.allowed_mime_types);
    set.allowed_mime_types = types ? JSON.stringify(types) : null;
  }
  if (input.access !== undefined) set.access = JSON.stringify(parseAccess(input.access, readAccess(bucket.access)));
  await storage.db.transaction(async (scope) => {
    await updateBucketRow(scope.kysely, bucket.id, set);
    await noteBucket(scope, actor, 'UPDATE', bucket.name, {
      changed: Object.keys(set).filter((k) => k !== 'updated_at'),
    });
    scope.publish('storage.bucket.changed', { accountId: actor.accountId, name: bucket.name });
  });
  return { message: 'Successfully updated' };
}

/** emptyBucket removes every object of a bucket: rows first, bytes once they are gone. */
export async function emptyBucket(storage: Storage, actor: Actor, name: unknown) {
  mustManage(actor);
  const bucket = await findBucketOf(storage, actor.accountId, name);
  const removed = await storage.db.transaction(async (scope) => {
    const objects = await allObjectsOf(scope.kysely, bucket.id);
    await deleteObjects(
      scope.kysely,
      objects.map((o) => o.id),
    );
    await noteBucket(scope, actor, 'DELETE', bucket.name, { emptied: objects.length });
    return objects;
  });
  await storage.blobs.delete(removed.map((o) => `${o.account_id}/${o.version}`));
  return { message: 'Successfully emptied' };
}

/** deleteBucket deletes an empty bucket (409 while it holds objects). */
export async function deleteBucket(storage: Storage, actor: Actor, name: unknown) {
  mustManage(actor);
  const bucket = await findBucketOf(storage, actor.accountId, name);
  await storage.db.transaction(async (scope) => {
    if ((await countObjects(scope.kysely, bucket.id)) > 0) throw bucketNotEmpty();
    await deleteBucketRow(scope.kysely, bucket.id);
    await noteBucket(scope, actor, 'DELETE', bucket.name);
    scope.publish('storage.bucket.changed', { accountId: actor.accountId, name: bucket.name });
  });
  return { message: 'Successfully deleted' };
}
