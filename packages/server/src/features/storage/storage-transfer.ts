import { randomUUID } from 'node:crypto';
import type { Actor } from '../../lib/actor/actor.js';
import { deleteObjects, findObject, findObjects, insertObject, renameObject } from './storage.store.js';
import { noteObjects } from './storage-activity.js';
import { findBucketOf } from './storage-buckets.service.js';
import type { Storage } from './storage-context.js';
import { alreadyExists, invalidInput, objectNotFound } from './storage-errors.js';
import { fileMetadata } from './storage-listing.js';
import { objectName } from './storage-names.js';
import { blobKeyOf, putBlob, readableObject } from './storage-objects.service.js';
import { mayDo, readAccess } from './storage-rules.js';

// Removing, moving, copying and signing objects. An object the caller may not see is never named in an answer:
// removing it removes nothing (as Supabase's policies do), moving, copying or signing it is 404 "Object not found".

const MAX_PATHS = 1000;
const MAX_EXPIRY_SECONDS = 10 * 365 * 24 * 3600;

const objectBody = (body: unknown): Record<string, unknown> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidInput('Expected a JSON object');
  return body as Record<string, unknown>;
};

function pathsOf(raw: unknown, field: string): string[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_PATHS) {
    throw invalidInput(`${field} must be a list of 1 to ${MAX_PATHS} paths`);
  }
  return [...new Set(raw.map((path) => objectName(path)))];
}

/** removeObjects removes the named objects the actor may delete; answers the removed ones. */
export async function removeObjects(storage: Storage, actor: Actor, bucketName: unknown, body: unknown) {
  const bucket = await findBucketOf(storage, actor.accountId, bucketName);
  const names = pathsOf(objectBody(body).prefixes, 'prefixes');
  const access = readAccess(bucket.access);
  const removed = await storage.db.transaction(async (scope) => {
    const rows = (await findObjects(scope.kysely, bucket.id, names)).filter((row) =>
      mayDo(actor, access, 'delete', row.name),
    );
    await deleteObjects(
      scope.kysely,
      rows.map((row) => row.id),
    );
    if (rows.length > 0) {
      await noteObjects(scope, actor, {
        accountId: actor.accountId,
        bucket: bucket.name,
        names: rows.map((row) => row.name),
        kind: 'removed',
      });
    }
    return rows;
  });
  await storage.blobs.delete(removed.map(blobKeyOf)).catch(() => undefined);
  return removed.map((row) => ({
    bucket_id: bucket.name,
    name: row.name,
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    metadata: fileMetadata(row),
  }));
}

interface TransferInput {
  from: Awaited<ReturnType<typeof findBucketOf>>;
  to: Awaited<ReturnType<typeof findBucketOf>>;
  source: string;
  destination: string;
}

async function transferOf(storage: Storage, actor: Actor, body: unknown): Promise<TransferInput> {
  const input = objectBody(body);
  const from = await findBucketOf(storage, actor.accountId, input.bucketId);
  const to = input.destinationBucket ? await findBucketOf(storage, actor.accountId, input.destinationBucket) : from;
  return { from, to, source: objectName(input.sourceKey), destination: objectName(input.destinationKey) };
}

/** moveObject renames an object, within or across buckets (its bytes stay where they are). */
export async function moveObject(storage: Storage, actor: Actor, body: unknown) {
  const { from, to, source, destination } = await transferOf(storage, actor, body);
  const row = await readableObject(storage, actor, from, source);
  if (
    !mayDo(actor, readAccess(from.access), 'delete', source) ||
    !mayDo(actor, readAccess(to.access), 'insert', destination)
  ) {
    throw objectNotFound();
  }
  const now = new Date().toISOString();
  await storage.db.transaction(async (scope) => {
    if (await findObject(scope.kysely, to.id, destination)) throw alreadyExists();
    await renameObject(scope.kysely, row.id, to.id, destination, now);
    await noteObjects(scope, actor, {
      accountId: actor.accountId,
      bucket: from.name,
      names: [source],
      kind: 'removed',
    });
    await noteObjects(scope, actor, {
      accountId: actor.accountId,
      bucket: to.name,
      names: [destination],
      kind: 'written',
    });
  });
  return { message: 'Successfully moved' };
}

/** copyObject copies an object's bytes to a new name, within or across buckets. */
export async function copyObject(storage: Storage, actor: Actor, body: unknown) {
  const { from, to, source, destination } = await transferOf(storage, actor, body);
  const row = await readableObject(storage, actor, from, source);
  if (!mayDo(actor, readAccess(to.access), 'insert', destination)) throw objectNotFound();
  if (await findObject(storage.db.kysely, to.id, destination)) throw alreadyExists();
  const stored = await putBlob(
    storage.blobs,
    actor.accountId,
    await storage.blobs.get(blobKeyOf(row)),
    Number.POSITIVE_INFINITY,
  );
  const now = new Date().toISOString();
  const id = randomUUID();
  try {
    await storage.db.transaction(async (scope) => {
      if (await findObject(scope.kysely, to.id, destination)) throw alreadyExists();
      await insertObject(scope.kysely, {
        ...row,
        id,
        bucket_id: to.id,
        name: destination,
        owner: actor.endUser?.id ?? null,
        version: stored.version,
        created_at: now,
        updated_at: now,
      });
      await noteObjects(scope, actor, {
        accountId: actor.accountId,
        bucket: to.name,
        names: [destination],
        kind: 'written',
      });
    });
  } catch (error) {
    await storage.blobs.delete([`${actor.accountId}/${stored.version}`]).catch(() => undefined);
    throw error;
  }
  return { Id: id, Key: `${to.name}/${destination}` };
}

function expiryOf(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > MAX_EXPIRY_SECONDS) {
    throw invalidInput(`expiresIn must be a whole number of seconds from 1 to ${MAX_EXPIRY_SECONDS}`);
  }
  return Math.floor(Date.now() / 1000) + raw;
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** signObject signs a download URL of one object: `{signedURL: "/object/sign/<bucket>/<path>?token=…"}`. */
export async function signObject(storage: Storage, actor: Actor, bucketName: unknown, rawName: unknown, body: unknown) {
  const bucket = await findBucketOf(storage, actor.accountId, bucketName);
  const row = await readableObject(storage, actor, bucket, rawName);
  const e = expiryOf(objectBody(body).expiresIn);
  const token = await storage.signer.sign({ a: actor.accountId, b: bucket.name, n: row.name, e });
  return { signedURL: `/object/sign/${encodePath(bucket.name)}/${encodePath(row.name)}?token=${token}` };
}

/** signObjects signs many: each path answers its URL or its error, as Supabase does. */
export async function signObjects(storage: Storage, actor: Actor, bucketName: unknown, body: unknown) {
  const bucket = await findBucketOf(storage, actor.accountId, bucketName);
  const input = objectBody(body);
  const names = pathsOf(input.paths, 'paths');
  const e = expiryOf(input.expiresIn);
  const access = readAccess(bucket.access);
  const found = new Map((await findObjects(storage.db.kysely, bucket.id, names)).map((row) => [row.name, row]));
  return Promise.all(
    names.map(async (name) => {
      const row = found.get(name);
      if (!row || !(bucket.public === 1 || mayDo(actor, access, 'read', name))) {
        return {
          error: 'Either the object does not exist or you do not have access to it',
          path: name,
          signedURL: null,
        };
      }
      const token = await storage.signer.sign({ a: actor.accountId, b: bucket.name, n: name, e });
      return {
        error: null,
        path: name,
        signedURL: `/object/sign/${encodePath(bucket.name)}/${encodePath(name)}?token=${token}`,
      };
    }),
  );
}

const UPLOAD_URL_SECONDS = 2 * 3600;

/** signUpload signs an upload URL (valid two hours, as Supabase's): `{url, token}`. */
export async function signUpload(
  storage: Storage,
  actor: Actor,
  bucketName: unknown,
  rawName: unknown,
  upsert: boolean,
) {
  const bucket = await findBucketOf(storage, actor.accountId, bucketName);
  const name = objectName(rawName);
  const access = readAccess(bucket.access);
  if (!mayDo(actor, access, 'insert', name) || (upsert && !mayDo(actor, access, 'update', name))) {
    throw objectNotFound();
  }
  const e = Math.floor(Date.now() / 1000) + UPLOAD_URL_SECONDS;
  const token = await storage.signer.sign({
    a: actor.accountId,
    b: bucket.name,
    n: name,
    e,
    u: 1,
    ...(upsert ? { x: 1 as const } : {}),
  });
  return { url: `/object/upload/sign/${encodePath(bucket.name)}/${encodePath(name)}?token=${token}`, token };
}
