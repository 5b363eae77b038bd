import type { Actor } from '../../lib/actor/actor.js';
import { objectsUnder } from './storage.store.js';
import { findBucketOf } from './storage-buckets.service.js';
import type { Storage } from './storage-context.js';
import { forbidden, invalidInput } from './storage-errors.js';
import { fileMetadata } from './storage-listing.js';
import { hasFullAccess, mayDo, readAccess } from './storage-rules.js';

// Supabase's `/object/list-v2/<bucket>` (supabase-js `listV2`): the objects whose full name starts with `prefix`
// (a plain prefix, as S3's: `photos/ca` matches `photos/cat.png`), in name order, `limit` at a time (at most 1000),
// with an opaque `nextCursor` to go on from; `with_delimiter` folds the names below the next `/` into one folder
// (`photos/2024/`). Names are full paths, as Supabase answers them. Only name order pages with a cursor here:
// another sortBy is refused rather than answered in a different order. An app user sees only what the bucket's
// read rule lets them read, as in `/object/list`.

const MAX_LIMIT = 1000;
const PAGE = 1000;
const MAX_SCAN = 100_000;

/** Cursor is where a listing goes on: after the name `l`, skipping the folder `f` it was inside. */
interface Cursor {
  l: string;
  f?: string;
}

// Supabase's cursor is base64 of `key:value` lines; this one is too (l: start after, f: folder to skip).
function encodeCursor(cursor: Cursor): string {
  const lines = [`l:${cursor.l}`, ...(cursor.f ? [`f:${cursor.f}`] : [])];
  return Buffer.from(lines.join('\n')).toString('base64');
}

function decodeCursor(raw: unknown): Cursor | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || raw.length > 8192 || !/^[A-Za-z0-9+/=]+$/.test(raw)) {
    throw invalidInput('cursor is not a cursor this listing gave');
  }
  const cursor: Partial<Cursor> = {};
  for (const line of Buffer.from(raw, 'base64').toString('utf8').split('\n')) {
    const match = /^([lf]):(.*)$/s.exec(line);
    if (!match || match[2]?.includes('\0')) throw invalidInput('cursor is not a cursor this listing gave');
    cursor[match[1] as 'l' | 'f'] = match[2];
  }
  if (cursor.l === undefined) throw invalidInput('cursor is not a cursor this listing gave');
  return cursor as Cursor;
}

function prefixV2(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  if (typeof raw !== 'string' || Buffer.byteLength(raw) > 1024 || /[\u0000-\u001f\u007f\\]/.test(raw)) {
    throw invalidInput('prefix must be a string of at most 1024 bytes without control characters');
  }
  return raw.normalize('NFC');
}

type Entry = { folder: string; row: null; at: Cursor } | { folder: null; row: Record<string, unknown>; at: Cursor };

/** listObjectsV2 answers `/object/list-v2/<bucket>`: `{hasNext, nextCursor?, folders, objects}`. */
export async function listObjectsV2(storage: Storage, actor: Actor, bucketName: unknown, body: unknown) {
  const bucket = await findBucketOf(storage, actor.accountId, bucketName);
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw invalidInput('Expected a JSON object');
  }
  const input = (body ?? {}) as Record<string, unknown>;
  const prefix = prefixV2(input.prefix);
  const limit = input.limit ?? MAX_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalidInput(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  if (input.with_delimiter !== undefined && typeof input.with_delimiter !== 'boolean') {
    throw invalidInput('with_delimiter must be true or false');
  }
  const delimited = input.with_delimiter === true;
  const sortBy = input.sortBy as { column?: unknown; order?: unknown } | undefined;
  if (sortBy !== undefined && (typeof sortBy !== 'object' || sortBy === null || Array.isArray(sortBy))) {
    throw invalidInput('sortBy must be {column, order}');
  }
  if ((sortBy?.column ?? 'name') !== 'name' || (sortBy?.order ?? 'asc') !== 'asc') {
    throw invalidInput('list-v2 pages by name, ascending; use /object/list to sort otherwise');
  }
  const cursor = decodeCursor(input.cursor);
  const access = readAccess(bucket.access);
  if (!hasFullAccess(actor) && access.read === 'nobody') throw forbidden("The bucket's rules do not let you list it");

  const entries: Entry[] = [];
  let skipFolder = cursor?.f ?? null;
  let after = cursor?.l;
  let scanned = 0;
  let exhausted = false;
  while (entries.length <= limit && scanned < MAX_SCAN) {
    const rows = await objectsUnder(storage.db.kysely, bucket.id, prefix, { after, limit: PAGE });
    for (const row of rows) {
      scanned++;
      after = row.name;
      if (!mayDo(actor, access, 'read', row.name)) continue;
      if (delimited) {
        const slash = row.name.indexOf('/', prefix.length);
        if (slash !== -1) {
          const folder = row.name.slice(0, slash + 1);
          if (folder === skipFolder) continue;
          skipFolder = folder;
          entries.push({ folder, row: null, at: { l: row.name, f: folder } });
          if (entries.length > limit) break;
          continue;
        }
      }
      entries.push({
        folder: null,
        row: {
          id: row.id,
          name: row.name,
          key: row.name,
          bucket_id: bucket.name,
          updated_at: row.updated_at,
          created_at: row.created_at,
          last_accessed_at: row.updated_at,
          metadata: fileMetadata(row),
        },
        at: { l: row.name },
      });
      if (entries.length > limit) break;
    }
    if (rows.length < PAGE) {
      exhausted = true;
      break;
    }
  }
  const page = entries.slice(0, limit);
  const last = page[page.length - 1];
  // More to come: an entry past the limit, or a scan stopped at its bound (go on from where it stopped).
  const hasNext = entries.length > limit || (!exhausted && scanned >= MAX_SCAN);
  const nextAt =
    entries.length > limit ? last?.at : after !== undefined ? { l: after, f: skipFolder ?? undefined } : undefined;
  return {
    hasNext,
    ...(hasNext && nextAt ? { nextCursor: encodeCursor(nextAt) } : {}),
    folders: page.flatMap((entry) =>
      entry.folder !== null ? [{ id: null, name: entry.folder, key: entry.folder, bucket_id: bucket.name }] : [],
    ),
    objects: page.flatMap((entry) => (entry.row ? [entry.row] : [])),
  };
}
