import path from 'node:path';
import type { Config } from '../../config.js';
import { accountTag } from '../../db/bus/account-events.js';
import type { Db } from '../../db/database.js';
import { type BusCache, busCache } from '../../lib/cache/bus-cache.js';
import { type BucketRow, findBucket } from './storage.store.js';
import { type BlobStore, diskBlobs } from './storage-blobs.js';
import { BlobResumableStore } from './storage-resumable-store.js';
import { s3Blobs } from './storage-s3.js';
import { createSigner, type Signer } from './storage-signing.js';
import './storage-events.js';

// File storage's long-lived parts, made once per server (app.ts): where bytes live, the signer of signed URLs,
// and each node's cache of buckets (read on every object call), forgotten on every node when a bucket changes.

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** Storage is what the storage services need besides the caller. */
export interface Storage {
  db: Db;
  blobs: BlobStore;
  signer: Signer;
  /** maxFileSize is the instance's limit of one object (STORAGE_MAX_FILE_SIZE). */
  maxFileSize: number;
  /** buckets caches buckets by `<account>/<name>` (null: none). */
  buckets: BusCache<BucketRow | null>;
  /** resumable keeps unfinished TUS uploads where every node finds them (storage-resumable-store.ts). */
  resumable: BlobResumableStore;
}

/** bucketKey is a bucket's key in the cache. */
export const bucketKey = (accountId: string, name: string) => `${accountId}/${name}`;

/** createStorage makes the storage of one server from its configuration. */
export function createStorage(db: Db, config: Pick<Config, 'dataDir' | 'storage'>): Storage {
  const blobs = config.storage.s3 ? s3Blobs(config.storage.s3) : diskBlobs(path.join(config.dataDir, 'storage'));
  const buckets = busCache<BucketRow | null>(db, {
    load: async (key) => {
      const slash = key.indexOf('/');
      return (await findBucket(db.kysely, key.slice(0, slash), key.slice(slash + 1))) ?? null;
    },
    invalidatedBy: {
      'storage.bucket.changed': ({ accountId, name }) => ({ keys: [bucketKey(accountId, name)] }),
      'account.deleted': ({ accountId }) => ({ tags: [accountTag(accountId)] }),
    },
    tagsOf: (key) => [accountTag(key.slice(0, key.indexOf('/')))],
    ttlMs: TTL_MS,
    maxEntries: MAX_ENTRIES,
  });
  return {
    db,
    blobs,
    signer: createSigner(db),
    maxFileSize: config.storage.maxFileSize,
    buckets,
    resumable: new BlobResumableStore(db, blobs),
  };
}
