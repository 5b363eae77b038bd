import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Actor } from '../../lib/actor/actor.js';
import { type BucketRow, findObject, insertObject, type ObjectRow, replaceObject } from './storage.store.js';
import { noteObjects } from './storage-activity.js';
import { BlobMissing, type BlobStore, BlobTooLarge, type ByteRange } from './storage-blobs.js';
import { findBucketOf } from './storage-buckets.service.js';
import type { Storage } from './storage-context.js';
import {
  alreadyExists,
  bucketNotFound,
  forbidden,
  invalidInput,
  objectNotFound,
  rangeNotSatisfiable,
  tooLarge,
  wrongMimeType,
} from './storage-errors.js';
import { mimeAllowed, objectName } from './storage-names.js';
import { hasFullAccess, mayDo, readAccess } from './storage-rules.js';

// Objects: written as a stream to the blob store under a new version first, then recorded in one transaction, so
// a cut upload leaves no row and a failed row leaves no bytes (they are removed); a replaced object's old bytes go
// once the new row has committed. Reads check the bucket's rules; an object a caller may not read is reported as
// missing, exactly as a missing one.

/** UploadSource is an upload's body and what its headers said. */
export interface UploadSource {
  stream: Readable;
  contentType: string;
  /** contentLength is the declared size, when known (checked before anything is read). */
  contentLength: number | null;
  cacheControl: string;
  metadata: Record<string, unknown> | null;
}

/** UploadMode says whether an upload may create, replace, or both. */
export type UploadMode = 'create' | 'replace' | 'upsert';

/** blobKeyOf is where an object's bytes live. */
export const blobKeyOf = (row: Pick<ObjectRow, 'account_id' | 'version'>) => `${row.account_id}/${row.version}`;

/** limitOf is the largest object a bucket accepts. */
export const limitOf = (storage: Storage, bucket: BucketRow) =>
  Math.min(
    storage.maxFileSize,
    bucket.file_size_limit === null ? Number.POSITIVE_INFINITY : Number(bucket.file_size_limit),
  );

/** checkUpload refuses, before any byte is read, an upload its bucket would not take. */
export function checkUpload(
  storage: Storage,
  bucket: BucketRow,
  source: Pick<UploadSource, 'contentType' | 'contentLength'>,
) {
  if (source.contentLength !== null && source.contentLength > limitOf(storage, bucket)) throw tooLarge();
  const types = bucket.allowed_mime_types ? (JSON.parse(bucket.allowed_mime_types) as string[]) : null;
  if (!mimeAllowed(source.contentType, types)) throw wrongMimeType(source.contentType);
}

/** putBlob streams bytes under a new version; 413 past the limit. */
export async function putBlob(blobs: BlobStore, accountId: string, stream: Readable, limit: number) {
  const version = randomUUID();
  try {
    const stored = await blobs.put(`${accountId}/${version}`, stream, limit);
    return { version, ...stored };
  } catch (error) {
    if (error instanceof BlobTooLarge) throw tooLarge();
    if (isClientStreamError(error)) throw invalidInput('The upload was cut off or malformed');
    throw error;
  }
}

// A body the client cut, or a form that breaks off, is the client's fault (400), not the server's.
function isClientStreamError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    'statusCode' in error ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ECONNRESET' ||
    error.message === 'aborted' ||
    /unexpected end of form|malformed|multipart/i.test(error.message)
  );
}

/** uploadObject stores an object; answers Supabase's `{Id, Key}`. */
export async function uploadObject(
  storage: Storage,
  actor: Actor,
  bucketName: unknown,
  rawName: unknown,
  source: UploadSource,
  mode: UploadMode,
): Promise<{ Id: string; Key: string }> {
  const bucket = await findBucketOf(storage, actor.accountId, bucketName);
  const name = objectName(rawName);
  const access = readAccess(bucket.access);
  const mayCreate = mayDo(actor, access, 'insert', name);
  const mayReplace = mayDo(actor, access, 'update', name);
  if ((mode === 'create' && !mayCreate) || (mode === 'replace' && !mayReplace) || (!mayCreate && !mayReplace)) {
    throw forbidden();
  }
  checkUpload(storage, bucket, source);
  const before = await findObject(storage.db.kysely, bucket.id, name);
  if (before && mode === 'create') throw alreadyExists();
  if (!before && mode === 'replace') throw objectNotFound();
  const stored = await putBlob(storage.blobs, actor.accountId, source.stream, limitOf(storage, bucket));
  const now = new Date().toISOString();
  const fields = {
    owner: actor.endUser?.id ?? null,
    size: stored.size,
    mime_type: source.contentType,
    cache_control: source.cacheControl,
    etag: stored.md5,
    version: stored.version,
    user_metadata: source.metadata ? JSON.stringify(source.metadata) : null,
    updated_at: now,
  };
  let outcome: { id: string; replaced: string | null };
  try {
    outcome = await storage.db.transaction(async (scope) => {
      const existing = await findObject(scope.kysely, bucket.id, name);
      if (existing) {
        if (mode === 'create' || !mayReplace) throw mode === 'create' ? alreadyExists() : forbidden();
        await replaceObject(scope.kysely, existing, fields);
        await noteObjects(scope, actor, {
          accountId: actor.accountId,
          bucket: bucket.name,
          names: [name],
          kind: 'written',
        });
        return { id: existing.id, replaced: blobKeyOf(existing) };
      }
      if (mode === 'replace') throw objectNotFound();
      if (!mayCreate) throw forbidden();
      const id = randomUUID();
      await insertObject(scope.kysely, {
        id,
        bucket_id: bucket.id,
        account_id: actor.accountId,
        name,
        created_at: now,
        ...fields,
      });
      await noteObjects(scope, actor, {
        accountId: actor.accountId,
        bucket: bucket.name,
        names: [name],
        kind: 'written',
      });
      return { id, replaced: null };
    });
  } catch (error) {
    await storage.blobs.delete([`${actor.accountId}/${stored.version}`]).catch(() => undefined);
    throw error;
  }
  if (outcome.replaced) await storage.blobs.delete([outcome.replaced]).catch(() => undefined);
  return { Id: outcome.id, Key: `${bucket.name}/${name}` };
}

/** readableObject finds an object the actor may read (null actor: only through a public bucket), else 404. */
export async function readableObject(
  storage: Storage,
  actor: Actor | null,
  bucket: BucketRow,
  rawName: unknown,
): Promise<ObjectRow> {
  const name = objectName(rawName);
  // The account itself reads everything: its bucket's rules are not even parsed.
  const mayRead = !actor || hasFullAccess(actor) || mayDo(actor, readAccess(bucket.access), 'read', name);
  if (actor && !mayRead && bucket.public !== 1) throw objectNotFound();
  if (!actor && bucket.public !== 1) throw objectNotFound();
  const row = await findObject(storage.db.kysely, bucket.id, name);
  if (!row) throw objectNotFound();
  return row;
}

/**
 * publicHolder is, of the public buckets of one name (every account's, oldest first), the first that holds the
 * object: a keyless public URL names no account, and each account's bucket names stay its own, so when two accounts
 * made a bucket of one name public, each one's objects are still found (a path both hold is the oldest bucket's).
 */
export async function publicHolder(storage: Storage, buckets: BucketRow[], rawName: unknown): Promise<BucketRow> {
  const name = objectName(rawName);
  for (const bucket of buckets) if (await findObject(storage.db.kysely, bucket.id, name)) return bucket;
  throw buckets.length === 0 ? bucketNotFound() : objectNotFound();
}

/** objectInfo is an object's metadata as Supabase's `/object/info` answers it. */
export function objectInfo(row: ObjectRow, bucket: BucketRow) {
  return {
    id: row.id,
    name: row.name,
    bucket_id: bucket.name,
    version: row.version,
    size: Number(row.size),
    content_type: row.mime_type,
    cache_control: row.cache_control,
    etag: `"${row.etag}"`,
    metadata: row.user_metadata ? JSON.parse(row.user_metadata) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_modified: row.updated_at,
  };
}

/** Download is what a GET of an object answers: the status, headers and (unless 304 or HEAD) the bytes. */
export interface Download {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  /** stream is the bytes: a stream, or a small object's buffer. */
  stream: Readable | Buffer | null;
}

/** parseRange reads a single `bytes=a-b` range; null for none or one it does not serve (the whole object then). */
export function parseRange(header: unknown, size: number): ByteRange | 'unsatisfiable' | null {
  if (typeof header !== 'string') return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

// Objects up to this size (or ranges up to it) are read whole and sent as one buffer.
const SMALL_BYTES = 64 * 1024;

// A row whose bytes are gone (restored without its files, or removed by hand) is reported as missing.
async function openBlob(storage: Storage, row: ObjectRow, range: ByteRange): Promise<Readable | Buffer> {
  const whole = range.start === 0 && range.end === Number(row.size) - 1;
  try {
    if (storage.blobs.read && range.end - range.start < SMALL_BYTES) {
      return await storage.blobs.read(blobKeyOf(row), range);
    }
    return await storage.blobs.get(blobKeyOf(row), whole ? undefined : range);
  } catch (error) {
    if (error instanceof BlobMissing) throw objectNotFound();
    throw error;
  }
}

/** download opens an object for a GET or HEAD: ranges (206), ETag and If-None-Match (304). */
export async function download(
  storage: Storage,
  row: ObjectRow,
  request: { headers: Record<string, unknown>; head: boolean; attachment: string | null },
): Promise<Download> {
  const size = Number(row.size);
  const etag = `"${row.etag}"`;
  const headers: Record<string, string> = {
    'Content-Type': row.mime_type,
    ETag: etag,
    'Cache-Control': row.cache_control,
    'Last-Modified': new Date(row.updated_at).toUTCString(),
    'Accept-Ranges': 'bytes',
  };
  if (request.attachment !== null) {
    const file = request.attachment || row.name.split('/').pop() || 'download';
    headers['Content-Disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(file)}`;
  }
  const inm = request.headers['if-none-match'];
  if (typeof inm === 'string' && inm.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    return { status: 304, headers, stream: null };
  }
  const range = parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    throw rangeNotSatisfiable();
  }
  if (range) {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
    headers['Content-Length'] = String(range.end - range.start + 1);
    return { status: 206, headers, stream: request.head ? null : await openBlob(storage, row, range) };
  }
  headers['Content-Length'] = String(size);
  const all = { start: 0, end: size - 1 };
  return { status: 200, headers, stream: request.head || size === 0 ? null : await openBlob(storage, row, all) };
}
