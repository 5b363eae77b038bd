import type { Actor } from '../../lib/actor/actor.js';
import { type ObjectRow, objectsUnder } from './storage.store.js';
import { findBucketOf } from './storage-buckets.service.js';
import type { Storage } from './storage-context.js';
import { forbidden, invalidInput } from './storage-errors.js';
import { prefixOf } from './storage-names.js';
import { hasFullAccess, mayDo, readAccess } from './storage-rules.js';

// Listing a bucket as Supabase's `/object/list` does: the entries directly under a prefix, folders (a name with a
// further `/`) as entries without an id, files with their metadata; `search` filters names (a prefix of the
// entry's name, case-insensitive), sorted by name, created_at or updated_at, paged by limit and offset. An app user
// sees only the objects the bucket's read rule lets them see. At most MAX_SCAN objects are looked at per call.

const MAX_SCAN = 100_000;
const PAGE = 1000;
const MAX_LIMIT = 1000;
const SORTABLE = new Set(['name', 'created_at', 'updated_at', 'last_accessed_at']);

/** ListEntry is one line of a listing. */
export interface ListEntry {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

/** fileMetadata is an object's metadata as Supabase lists it. */
export function fileMetadata(row: ObjectRow): Record<string, unknown> {
  return {
    eTag: `"${row.etag}"`,
    size: Number(row.size),
    mimetype: row.mime_type,
    cacheControl: row.cache_control,
    lastModified: row.updated_at,
    contentLength: Number(row.size),
    httpStatusCode: 200,
  };
}

const numberIn = (raw: unknown, fallback: number, max: number, field: string) => {
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > max) {
    throw invalidInput(`${field} must be a whole number from 0 to ${max}`);
  }
  return raw;
};

/** listObjects answers `/object/list/<bucket>`. */
export async function listObjects(storage: Storage, actor: Actor, bucketName: unknown, body: unknown) {
  const bucket = await findBucketOf(storage, actor.accountId, bucketName);
  const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const prefix = prefixOf(input.prefix);
  const limit = numberIn(input.limit, 100, MAX_LIMIT, 'limit');
  const offset = numberIn(input.offset, 0, MAX_SCAN, 'offset');
  const search = input.search === undefined || input.search === '' ? '' : input.search;
  if (typeof search !== 'string' || search.length > 1024) throw invalidInput('search must be a string');
  const sortBy = (input.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = sortBy.column ?? 'name';
  const order = sortBy.order ?? 'asc';
  if (typeof column !== 'string' || !SORTABLE.has(column)) throw invalidInput('sortBy.column is not sortable');
  if (order !== 'asc' && order !== 'desc') throw invalidInput('sortBy.order must be asc or desc');
  const access = readAccess(bucket.access);
  if (!hasFullAccess(actor) && access.read === 'nobody') throw forbidden("The bucket's rules do not let you list it");

  const entries = new Map<string, ListEntry>();
  const needle = search.toLowerCase();
  let after: string | undefined;
  for (let scanned = 0; scanned < MAX_SCAN; scanned += PAGE) {
    const rows = await objectsUnder(storage.db.kysely, bucket.id, prefix, { after, limit: PAGE });
    for (const row of rows) {
      if (!mayDo(actor, access, 'read', row.name)) continue;
      const rest = row.name.slice(prefix.length);
      const slash = rest.indexOf('/');
      const entryName = slash === -1 ? rest : rest.slice(0, slash);
      if (needle && !entryName.toLowerCase().startsWith(needle)) continue;
      if (slash !== -1) {
        if (!entries.has(`d:${entryName}`)) entries.set(`d:${entryName}`, folder(entryName));
      } else {
        entries.set(`f:${entryName}`, {
          name: entryName,
          id: row.id,
          updated_at: row.updated_at,
          created_at: row.created_at,
          last_accessed_at: row.updated_at,
          metadata: fileMetadata(row),
        });
      }
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]?.name;
  }
  const sorted = [...entries.values()].sort((a, b) => compare(a, b, column as keyof ListEntry));
  if (order === 'desc') sorted.reverse();
  return sorted.slice(offset, offset + limit);
}

const folder = (name: string): ListEntry => ({
  name,
  id: null,
  updated_at: null,
  created_at: null,
  last_accessed_at: null,
  metadata: null,
});

function compare(a: ListEntry, b: ListEntry, column: keyof ListEntry): number {
  const left = String(a[column] ?? '');
  const right = String(b[column] ?? '');
  if (left !== right) return left < right ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
