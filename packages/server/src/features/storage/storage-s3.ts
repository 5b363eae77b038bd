import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageConfig } from '../../config.js';
import { BlobMissing, type BlobStore, checkAccount, checkKey, meteredStream } from './storage-blobs.js';

// The S3 backend (STORAGE_S3_*): any S3-compatible service through the AWS SDK v3. Uploads go through
// lib-storage's Upload, which sends large objects as a multipart upload and aborts it when the body fails (cut,
// or over its limit), so nothing is left behind. Several nodes sharing one S3 bucket share every object.

const PREFIX = 'basalt-storage/';

/** s3Blobs keeps bytes in an S3 bucket under `basalt-storage/<account>/<version>`. */
export function s3Blobs(settings: NonNullable<StorageConfig['s3']>): BlobStore {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // The SDK's default since 2025 adds a CRC32 of every body sent and asks for one on every read: work on every
    // byte that nothing here uses (SigV4 and the ETag already cover the bytes).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  return {
    async put(key, data, maxBytes) {
      const meter = meteredStream(maxBytes);
      data.on('error', (error) => meter.destroy(error));
      data.pipe(meter);
      const upload = new Upload({ client, params: { Bucket, Key: PREFIX + checkKey(key), Body: meter } });
      const failed = new Promise<never>((_, reject) => meter.once('error', reject));
      try {
        await Promise.race([upload.done(), failed]);
      } catch (error) {
        await upload.abort().catch(() => undefined);
        throw error;
      }
      return { size: meter.size(), md5: meter.md5() };
    },
    async get(key, range) {
      try {
        const out = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: PREFIX + checkKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return out.Body as Readable;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') throw new BlobMissing(key);
        throw error;
      }
    },
    async delete(keys) {
      for (let at = 0; at < keys.length; at += 1000) {
        const Objects = keys.slice(at, at + 1000).map((key) => ({ Key: PREFIX + checkKey(key) }));
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects } }));
      }
    },
    async deleteAccount(accountId) {
      const Prefix = `${PREFIX}${checkAccount(accountId)}/`;
      // Listed a page at a time and deleted as listed: the listing of a large account never sits in memory.
      for (;;) {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, MaxKeys: 1000 }));
        const Objects = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
        if (Objects.length === 0) return;
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects } }));
        if (!page.IsTruncated) return;
      }
    },
    // A cut upload's parts are aborted by the upload itself; a killed server's are left to the bucket's lifecycle.
    sweep: async () => 0,
    async *keys() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken }));
        for (const item of page.Contents ?? []) if (item.Key) yield item.Key.slice(PREFIX.length);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
