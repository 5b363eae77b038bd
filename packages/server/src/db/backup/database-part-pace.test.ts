import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, testDialects } from '../../testing/test-server.js';
import { type Db, migrateToLatest } from '../database.js';
import { writeDatabasePart } from './database-part.js';
import { Pacer } from './pace.js';

// BACKUP_PACE: a paced backup reads a copy of the database (SQLite's logical format) only its share of the time,
// and its progress still moves; inside PostgreSQL's snapshot (pg_dump, or the logical rows) it reads flat out, since
// the snapshot costs the writes more the longer it is held.

const ROWS = 8_000;
const SHARE = 0.2;
const SLICE_MS = 10;

describe.each(testDialects)('a paced backup on %s', (dialect) => {
  let db: Db;
  let close: () => Promise<void>;
  let work: string;

  beforeAll(async () => {
    ({ db, close } = await openTestDb(dialect));
    await migrateToLatest(db);
    // About 8 MB of rows that compress as real data does (random hex), in a table of the schema.
    await sql`CREATE TABLE bulk (id integer PRIMARY KEY, padding text NOT NULL)`.execute(db.kysely);
    for (let start = 1; start <= ROWS; start += 1000) {
      const rows = Array.from(
        { length: 1000 },
        (_, i) => sql`(${start + i}, ${Buffer.from(crypto.getRandomValues(new Uint8Array(500))).toString('hex')})`,
      );
      await sql`INSERT INTO bulk (id, padding) VALUES ${sql.join(rows)}`.execute(db.kysely);
    }
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-pace-'));
  }, 120_000);

  afterAll(async () => {
    await close?.();
    await fs.rm(work, { recursive: true, force: true });
  });

  const formats = dialect === 'postgres' ? [false, true] : [true];
  it.each(formats)(
    'reads at its pace where it may, with progress (logical: %s)',
    async (logical) => {
      if (!logical && (await db.backup.nativeFormat()) === null) return;
      const pacer = new Pacer(SHARE, SLICE_MS);
      const progress: number[] = [];
      const dir = path.join(work, `database-${logical}`);
      const started = performance.now();
      const part = await writeDatabasePart(db, dir, {
        logical,
        workDir: work,
        pacer,
        onProgress: ({ bytes }) => progress.push(bytes),
      });
      const elapsed = performance.now() - started;
      expect(part.format).toBe(logical ? 'logical' : 'pg-dump');
      if (dialect === 'postgres') {
        expect(pacer.stats.restedMs).toBe(0);
      } else {
        // Unpaced it rests nothing; paced at a fifth, about four fifths of the reading is rest (less the slice it
        // ended in and the copy before the reading). A slower machine reads longer and rests longer alike.
        expect(pacer.stats.restedMs / elapsed).toBeGreaterThan(0.5);
        expect(pacer.stats.workedMs).toBeLessThan(elapsed * SHARE + SLICE_MS * 2);
      }
      // pg_dump's file is looked at twice a second: a quick dump may report only its end.
      expect(new Set(progress).size).toBeGreaterThan(dialect === 'postgres' && !logical ? 0 : 3);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      const written = await Promise.all(part.files.map((file) => fs.stat(path.join(dir, file))));
      expect(written.reduce((sum, stat) => sum + stat.size, 0)).toBeGreaterThan(2_000_000);
    },
    120_000,
  );
});
