import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, open } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileBody } from './storage-file-body.js';

// Where objects' bytes live: a folder under the data dir, or an S3-compatible service (storage-s3.ts). Keys are
// made by Basalt (`<account>/<version>`), never by a client, so no object name can reach a file outside the store.
// A put streams: it never holds an object in memory, stops at its size limit, and leaves nothing behind when the
// body is cut or too large (a temporary file renamed once complete).

/** ByteRange is an inclusive range of bytes of a stored object. */
export interface ByteRange {
  start: number;
  end: number;
}

/** BlobStore keeps objects' bytes under keys Basalt made. */
export interface BlobStore {
  /** put stores a stream; past maxBytes it stores nothing and throws BlobTooLarge. Returns the size and MD5. */
  put(key: string, data: Readable, maxBytes: number): Promise<{ size: number; md5: string }>;
  /** get opens stored bytes (a range of them) as a stream, or throws BlobMissing. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * read reads a few stored bytes (a small object, a short range) whole, or throws BlobMissing: on disk one open,
   * one read and one close, where a stream costs five file operations and a pipe for 10 KB.
   */
  read?(key: string, range: ByteRange): Promise<Buffer>;
  /** delete removes stored bytes; missing ones are not an error. */
  delete(keys: string[]): Promise<void>;
  /** deleteAccount removes every stored byte of an account (its deletion); none is not an error. */
  deleteAccount(accountId: string): Promise<void>;
  /** keys lists every stored key (for backups). */
  keys(): AsyncIterable<string>;
  /** sweep removes what uploads cut by a killed server left behind, untouched for olderThanMs; returns how many. */
  sweep(olderThanMs: number): Promise<number>;
}

/** BlobTooLarge is a put that went past its limit. */
export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The object exceeded the maximum allowed size of ${maxBytes} bytes`);
    this.name = 'BlobTooLarge';
  }
}

/** BlobMissing is a get of a key that holds nothing. */
export class BlobMissing extends Error {
  constructor(key: string) {
    super(`No stored bytes under ${key}`);
    this.name = 'BlobMissing';
  }
}

const KEY = /^[A-Za-z0-9-]{1,64}\/[A-Za-z0-9-]{1,64}$/;

/** checkKey refuses a key Basalt would not have made. */
export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid storage key ${key}`);
  return key;
}

/** checkAccount refuses an account id that could not be a key's first part (so never `.partial` or `..`). */
export function checkAccount(accountId: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(accountId)) throw new Error(`Invalid account id ${accountId}`);
  return accountId;
}

/** meteredStream counts and hashes what passes, and fails past maxBytes. */
export function meteredStream(maxBytes: number): Transform & { size: () => number; md5: () => string } {
  const hash = createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) {
        done(new BlobTooLarge(maxBytes));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let digest: string | null = null;
  return Object.assign(meter, {
    size: () => size,
    md5: () => {
      digest ??= hash.digest('hex');
      return digest;
    },
  });
}

// Opened once, not checked first then opened: the missing file is the open's ENOENT.
async function openBlob(file: string, key: string): Promise<fs.FileHandle> {
  try {
    return await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissing(key);
    throw error;
  }
}

/** diskBlobs keeps bytes under `root/<account>/<version>`, written to `root/.partial/` and renamed when complete. */
export function diskBlobs(root: string): BlobStore {
  const partials = path.join(root, '.partial');
  const fileOf = (key: string) => path.join(root, checkKey(key));
  // Folders made by this process, not made again on every put (a folder removed since: see the rename below).
  const made = new Set<string>();
  const folder = async (dir: string) => {
    if (made.has(dir)) return;
    await fs.mkdir(dir, { recursive: true });
    made.add(dir);
  };
  return {
    async put(key, data, maxBytes) {
      const file = fileOf(key);
      await folder(path.dirname(file));
      await folder(partials);
      const partial = path.join(partials, randomUUID());
      const meter = meteredStream(maxBytes);
      const out = createWriteStream(partial, { mode: 0o600 });
      try {
        await pipeline(data, meter, out);
        await fs.rename(partial, file).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          await fs.mkdir(path.dirname(file), { recursive: true });
          await fs.rename(partial, file);
        });
      } catch (error) {
        made.clear();
        // The write stream opens its file on its own time: removed before it closed, the file could reappear.
        if (!out.closed) await new Promise((closed) => out.once('close', closed));
        await fs.rm(partial, { force: true });
        throw error;
      }
      return { size: meter.size(), md5: meter.md5() };
    },
    async get(key, range) {
      const file = fileOf(key);
      // A plain descriptor (not a FileHandle's promise reads), opened once: the missing file is its ENOENT.
      const fd = await new Promise<number>((opened, failed) =>
        open(file, 'r', (error, fd) => {
          if (!error) opened(fd);
          else failed(error.code === 'ENOENT' ? new BlobMissing(key) : error);
        }),
      );
      return new FileBody(fd, range?.start ?? 0, range?.end ?? Number.POSITIVE_INFINITY);
    },
    async read(key, range) {
      const handle = await openBlob(fileOf(key), key);
      try {
        const length = range.end - range.start + 1;
        const bytes = Buffer.allocUnsafe(length);
        let done = 0;
        while (done < length) {
          const { bytesRead } = await handle.read(bytes, done, length - done, range.start + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        // Shorter than its row says (changed by hand): what is there, as a stream would have sent.
        return done === length ? bytes : bytes.subarray(0, done);
      } finally {
        await handle.close();
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => fs.rm(fileOf(key), { force: true })));
    },
    async deleteAccount(accountId) {
      const dir = path.join(root, checkAccount(accountId));
      made.delete(dir);
      await fs.rm(dir, { recursive: true, force: true });
    },
    async sweep(olderThanMs) {
      const names = await fs.readdir(partials).catch(() => [] as string[]);
      let removed = 0;
      for (const name of names) {
        const file = path.join(partials, name);
        const stat = await fs.stat(file).catch(() => null);
        if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
          await fs.rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },
    async *keys() {
      let accounts: string[];
      try {
        accounts = await fs.readdir(root);
      } catch {
        return;
      }
      for (const account of accounts) {
        if (account.startsWith('.')) continue; // .partial, .resumable
        for (const version of await fs.readdir(path.join(root, account)).catch(() => [] as string[])) {
          const key = `${account}/${version}`;
          if (KEY.test(key)) yield key;
        }
      }
    },
  };
}
