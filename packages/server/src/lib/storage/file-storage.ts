import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Where uploaded files' bytes live. Rows (file_storage) name a file by its key; the bytes are behind this small
// interface so that object storage (buckets, S3) can take the data directory's place without touching callers.

/** FileStorage keeps bytes under keys such as `sql/<projectId>/<uuid>.sql`. */
export interface FileStorage {
  /** put stores a stream under a key and returns its size; past maxBytes it stores nothing and throws FileTooLarge. */
  put(key: string, data: Readable, options?: { maxBytes?: number }): Promise<{ size: number }>;
  /** get opens a stored file as a stream, or throws FileMissing. */
  get(key: string): Promise<Readable>;
  /** delete removes a stored file; a missing one is not an error. */
  delete(key: string): Promise<void>;
}

/** FileTooLarge is a put that went past its maxBytes. */
export class FileTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLarge';
  }
}

/** FileMissing is a get of a key that holds nothing. */
export class FileMissing extends Error {
  constructor(key: string) {
    super(`No stored file ${key}`);
    this.name = 'FileMissing';
  }
}

const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** dataDirStorage keeps files under `<dataDir>/files/`, written to a temporary name and renamed when complete. */
export function dataDirStorage(dataDir: string): FileStorage {
  const root = path.resolve(dataDir, 'files');
  const fileOf = (key: string) => {
    if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
      throw new Error(`Invalid storage key ${key}`);
    }
    return path.join(root, key);
  };
  return {
    async put(key, data, options = {}) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.partial`;
      let size = 0;
      const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
      const out = createWriteStream(partial, { mode: 0o600 });
      try {
        await pipeline(
          data,
          async function* (chunks: AsyncIterable<Buffer>) {
            for await (const chunk of chunks) {
              size += chunk.length;
              if (size > max) throw new FileTooLarge(max);
              yield chunk;
            }
          },
          out,
        );
        await fs.rename(partial, file);
      } catch (error) {
        // The stream opens its file on its own time: removed before it has closed, the file could appear after.
        if (!out.closed) await new Promise((closed) => out.once('close', closed));
        await fs.rm(partial, { force: true });
        throw error;
      }
      return { size };
    },
    async get(key) {
      const file = fileOf(key);
      try {
        await fs.access(file);
      } catch {
        throw new FileMissing(key);
      }
      return createReadStream(file);
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}
