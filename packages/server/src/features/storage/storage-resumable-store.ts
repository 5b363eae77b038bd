import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore, KvStore } from '@tus/utils';
import type { StorageConfig } from '../../config.js';

// Where unfinished TUS uploads live: with the shared blob store, so that a PATCH reaching another node than the
// POST continues the same upload. On S3, @tus/s3-store keeps the parts as a multipart upload and the upload's
// description as `<id>.info` in the same S3 bucket; on disk, @tus/file-store keeps both under the storage folder
// (`<data dir>/storage/.resumable`), the folder several nodes must share anyway (docs/storage.md). Nothing of an
// upload is kept in a node's memory: the S3 store's metadata cache would answer one node with what another has
// since changed, so it is replaced by one that keeps nothing.

/** RESUMABLE_EXPIRY_MS is how long an unfinished upload may wait for its next byte. */
export const RESUMABLE_EXPIRY_MS = 24 * 3600 * 1000;

/** RESUMABLE_DIR is the folder of unfinished uploads under the disk store's root. */
export const RESUMABLE_DIR = '.resumable';

// A KvStore that keeps nothing: every read goes to the shared store.
const noCache: KvStore<never> = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

/** resumableStore makes the TUS data store of a server: on S3 when configured, else under the disk store's root. */
export function resumableStore(s3: StorageConfig['s3'], diskRoot: string): DataStore {
  if (s3) {
    return new S3Store({
      expirationPeriodInMilliseconds: RESUMABLE_EXPIRY_MS,
      cache: noCache,
      s3ClientConfig: {
        bucket: s3.bucket,
        region: s3.region,
        forcePathStyle: s3.forcePathStyle,
        ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      },
    });
  }
  return new FileStore({
    directory: path.join(diskRoot, RESUMABLE_DIR),
    expirationPeriodInMilliseconds: RESUMABLE_EXPIRY_MS,
  });
}
