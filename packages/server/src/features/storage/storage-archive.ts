import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ArchivePart } from '../backups/backup-deps.js';
import { allVersions } from './storage.store.js';
import { checkKey } from './storage-blobs.js';
import type { Storage } from './storage-context.js';

// Stored files in an instance backup: one archive part, `storage`, holding the bytes of every object the
// database names, at `<account>/<version>` (the database part carries their rows). A restore puts them back in
// whichever backend this server uses, so a backup taken on disk restores onto S3 and the other way round.

/** storageArchivePart is file storage's part of instance backups. */
export function storageArchivePart(storage: Storage): ArchivePart {
  return {
    name: 'storage',
    format: 'blobs-v1',
    async write(dir) {
      const files: string[] = [];
      for (const row of await allVersions(storage.db.kysely)) {
        const key = checkKey(`${row.account_id}/${row.version}`);
        const file = path.join(dir, key);
        await fs.mkdir(path.dirname(file), { recursive: true });
        try {
          await pipeline(await storage.blobs.get(key), createWriteStream(file));
        } catch {
          // A row whose bytes are gone (a crash between bytes and row) has nothing to back up.
          await fs.rm(file, { force: true });
          continue;
        }
        files.push(key);
      }
      return files;
    },
    async restore(dir, files) {
      for (const key of files) {
        // A file of the archive is stored only under a key Basalt itself would have made.
        checkKey(key);
        await storage.blobs.put(key, createReadStream(path.join(dir, key)), Number.POSITIVE_INFINITY);
      }
    },
  };
}
