import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { Config } from '../config.js';
import type { DialectName } from '../db/dialect/dialect.js';
import { startAuthServer } from './auth.fixtures.js';
import type { TestServer } from './test-server.js';

// Fixtures of the storage suites: a real S3-compatible server (s3rver, on 127.0.0.1) and servers storing on disk
// or on it. Each suite runs on both backends.

/** StorageBackend names where a suite's server keeps bytes. */
export type StorageBackend = 'disk' | 's3';

/** storageBackends are the backends every storage suite runs on. */
export const storageBackends: StorageBackend[] = ['disk', 's3'];

/** S3Fake is a running s3rver with one bucket. */
export interface S3Fake {
  settings: NonNullable<Config['storage']['s3']>;
  close(): Promise<void>;
}

/** startS3 starts s3rver on a free port of 127.0.0.1 with a bucket named `basalt`. */
export async function startS3(): Promise<S3Fake> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: 'basalt', configs: [] }],
  });
  const address = await server.run();
  return {
    settings: {
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      bucket: 'basalt',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** startStorageServer starts a server storing on a backend (s3: on the given s3rver). */
export function startStorageServer(
  dialect: DialectName,
  backend: StorageBackend,
  s3: S3Fake | null,
  storage: Partial<Config['storage']> = {},
): Promise<TestServer> {
  const base = { maxFileSize: 50 * 1024 * 1024, s3: backend === 's3' && s3 ? s3.settings : null };
  return startAuthServer(dialect, { storage: { ...base, ...storage } });
}
