import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { modulesRoot, runLowPriority } from '../../db/backup/low-priority.js';

// Basalt's archives (instance backups, account exports): one gzip-compressed tar file whose first entry is
// manifest.json, then the parts the manifest lists with their SHA-256. Written from a folder and read back into
// one, streamed both ways: an archive is never held in memory whole. Reading refuses what a Basalt archive never
// holds (links, devices, absolute paths, `..`), and more entries or bytes than the caller allows.

/** MANIFEST_FILE is the manifest's name inside every archive. */
export const MANIFEST_FILE = 'manifest.json';

/** ArchiveError is an archive that cannot be read; the message says why, for the person who sent it. */
export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

/** ArchivePartFile is one file of an archive, as its manifest lists it. */
export interface ArchivePartFile {
  path: string;
  bytes: number;
  sha256: string;
}

/** hashFile reads a file once and returns its size and SHA-256 (hex). */
export async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

// Hashing a backup's files, in a child process at the lowest priority (db/backup/low-priority.ts).
const HASH = `
  const { createHash } = await import('node:crypto');
  const { createReadStream } = await import('node:fs');
  const path = await import('node:path');
  const described = [];
  for (const file of input.files) {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of createReadStream(path.join(input.dir, file))) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    described.push({ path: file, bytes, sha256: hash.digest('hex') });
  }
  return described;`;

/**
 * describeFiles lists files of a folder with their sizes and checksums, as a manifest names them, reading them
 * `pace` (0–1] of the time (db/backup/pace.ts).
 */
export async function describeFiles(
  dir: string,
  files: string[],
  options: { pace?: number } = {},
): Promise<ArchivePartFile[]> {
  return runLowPriority<ArchivePartFile[]>(HASH, { dir, files }, options);
}

// Compressing is what a backup spends its time on: Node's zlib does it on the thread pool, so the event loop
// (and every request in flight) never waits for it, where node-tar's own gzip runs on the main thread. Level 1 is
// several times faster than the default and compresses database pages almost as well.
const GZIP_LEVEL = 1;

/** packArchive writes the named files of `dir` (the manifest first) as a .tar.gz stream into `out`. */
export async function packArchive(dir: string, files: string[], out: NodeJS.WritableStream): Promise<void> {
  await pipeline(
    tar.c({ cwd: dir, portable: true, noDirRecurse: true }, [MANIFEST_FILE, ...files]),
    zlib.createGzip({ level: GZIP_LEVEL }),
    out,
  );
}

// Packing a backup, in a child process at the lowest priority (db/backup/low-priority.ts), started where `tar`
// resolves.
const PACK = `
  const tar = await import('tar');
  const zlib = await import('node:zlib');
  const fs = await import('node:fs');
  const { pipeline } = await import('node:stream/promises');
  const fd = fs.openSync(input.out, 'w');
  try {
    await pipeline(
      tar.c({ cwd: input.dir, portable: true, noDirRecurse: true }, input.files),
      zlib.createGzip({ level: input.level }),
      fs.createWriteStream('', { fd, autoClose: false }),
    );
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return null;`;

/**
 * writeArchiveFile writes the archive to `file` through a temporary name, flushed to disk before it is renamed:
 * a crash or a full disk never leaves a partial file under the final name; it works `pace` (0–1] of the time.
 * Returns its size.
 */
export async function writeArchiveFile(
  dir: string,
  files: string[],
  file: string,
  options: { pace?: number } = {},
): Promise<number> {
  const partial = `${file}.partial`;
  try {
    await runLowPriority(
      PACK,
      { dir, files: [MANIFEST_FILE, ...files], out: partial, level: GZIP_LEVEL },
      { cwd: modulesRoot('tar'), pace: options.pace },
    );
    await fs.rename(partial, file);
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
  return (await fs.stat(file)).size;
}

/** ExtractLimits bound what one archive may unpack to. */
export interface ExtractLimits {
  maxEntries: number;
  maxBytes: number;
}

const ENTRY_PATH = /^(?:[A-Za-z0-9_.-]+\/)*[A-Za-z0-9_.-]+\/?$/;

/** extractArchive unpacks a .tar.gz file into the empty folder `into`; it returns the files it wrote. */
export async function extractArchive(file: string, into: string, limits: ExtractLimits): Promise<string[]> {
  await fs.mkdir(into, { recursive: true });
  if (!(await startsLikeGzip(file))) {
    throw new ArchiveError('The archive could not be read: it is not a gzip-compressed tar file');
  }
  const files: string[] = [];
  let bytes = 0;
  let refused: string | null = null;
  const refuse = (reason: string) => {
    refused ??= reason;
    return false;
  };
  try {
    const unpack = tar.x({
      cwd: into,
      strict: true,
      preservePaths: false,
      noChmod: true,
      filter: (entryPath, entry) => {
        const type = 'type' in entry ? entry.type : 'File';
        const size = 'size' in entry ? Number(entry.size) : 0;
        if (type !== 'File' && type !== 'Directory') return refuse(`it holds a ${type} entry (${entryPath})`);
        if (!ENTRY_PATH.test(entryPath) || entryPath.split('/').includes('..')) {
          return refuse(`it holds an entry with an unsafe path (${JSON.stringify(entryPath.slice(0, 100))})`);
        }
        if (type === 'File') {
          files.push(entryPath);
          bytes += size;
        }
        if (files.length > limits.maxEntries) return refuse(`it holds more than ${limits.maxEntries} files`);
        if (bytes > limits.maxBytes) return refuse(`it unpacks to more than ${limits.maxBytes} bytes`);
        return true;
      },
    });
    // Gunzipped on the thread pool, like packArchive compresses.
    await pipeline(createReadStream(file), zlib.createGunzip(), unpack);
  } catch (error) {
    throw new ArchiveError(`The archive could not be read: ${describeReadError(error)}`);
  }
  if (refused) throw new ArchiveError(`The archive was refused: ${refused}`);
  if (files.length === 0) throw new ArchiveError('The archive could not be read: it is empty or not a .tar.gz file');
  return files;
}

// A gzip stream starts with the bytes 1f 8b.
async function startsLikeGzip(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

function describeReadError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || /incorrect header|invalid/i.test(message)) {
    return 'it is not a gzip-compressed tar file, or it is damaged';
  }
  if (/unexpected end|truncated|TAR_BAD_ARCHIVE/i.test(`${code} ${message}`)) return 'it is truncated';
  return message;
}

/** verifyFiles checks each listed file's size and SHA-256 against the unpacked folder; it names the first mismatch. */
export async function verifyFiles(dir: string, listed: ArchivePartFile[]): Promise<void> {
  for (const part of listed) {
    const file = path.join(dir, part.path);
    let actual: { bytes: number; sha256: string };
    try {
      actual = await hashFile(file);
    } catch {
      throw new ArchiveError(`The archive is incomplete: ${part.path} is missing`);
    }
    if (actual.bytes !== part.bytes || actual.sha256 !== part.sha256) {
      throw new ArchiveError(`The archive is damaged: the checksum of ${part.path} does not match its manifest`);
    }
  }
}
