import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { BASALT_VERSION, normalizeAccess, type TableSchema } from '@basalt/shared';
import { z } from 'zod';
import { backupDirOf } from '../../config.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { Db } from '../../db/database.js';
import { columnTypeIn } from '../../db/user-tables.js';
import { badRequest } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { describeFiles, MANIFEST_FILE, packArchive } from '../../lib/archive/archive.js';
import { listOwnCheckpoints, listOwnDefinitions, readHistoryPage, readRowsPage } from './portability.store.js';

// An account's own data as one archive (docs/backups.md "An account's data"): its tables' definitions (schema and
// access rules), their rows as the APIs give them, and optionally their history and checkpoints, each part with
// its SHA-256 in the manifest. It is written into a work folder and streamed to the client from there, never held
// in memory; the folder is removed once sent. Stored files are not in it yet (no storage area exists).

/** exportQuerySchema reads GET /api/account/export's query. */
export const exportQuerySchema = z
  .object({
    history: z.enum(['true', 'false'], { error: 'history must be true or false' }).default('true'),
    files: z.enum(['true', 'false'], { error: 'files must be true or false' }).default('false'),
  })
  .strict();

/** AccountExport is an archive ready to stream, and what to call once it was sent. */
export interface AccountExport {
  stream: Readable;
  fileName: string;
  done(): Promise<void>;
}

async function writeNdjson(file: string, pages: AsyncIterable<unknown[]>): Promise<number> {
  const out = createWriteStream(file);
  let count = 0;
  for await (const page of pages) {
    for (const item of page) {
      count++;
      if (!out.write(`${JSON.stringify(item)}\n`)) await new Promise((resolve) => out.once('drain', resolve));
    }
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return count;
}

/** exportAccount writes the actor's own tables into an archive and returns it as a stream. */
export async function exportAccount(
  db: Db,
  config: Parameters<typeof backupDirOf>[0],
  actor: Actor,
  query: z.infer<typeof exportQuerySchema>,
): Promise<AccountExport> {
  if (query.files === 'true') {
    throw badRequest('files_unavailable', 'This instance stores no files yet: export without files (files=false)');
  }
  const dir = path.join(backupDirOf(config), `.export-${randomUUID()}`);
  await fs.mkdir(path.join(dir, 'account', 'rows'), { recursive: true });
  try {
    const definitions = await listOwnDefinitions(db.kysely, actor.accountId);
    const tables = [];
    const files: string[] = ['account/tables.json'];
    for (const definition of definitions) {
      const shape = { id: Number(definition.id), schema: JSON.parse(definition.schema) as TableSchema };
      const columns = ['id', 'created_at', 'updated_at', ...Object.keys(shape.schema)];
      const rows = await writeNdjson(
        path.join(dir, 'account', 'rows', `${shape.id}.ndjson`),
        pagesOf(db, shape, columns),
      );
      files.push(`account/rows/${shape.id}.ndjson`);
      tables.push({
        id: shape.id,
        name: definition.name,
        description: definition.description,
        schema: shape.schema,
        access: definition.access ? normalizeAccess(JSON.parse(definition.access)) : null,
        createdAt: definition.created_at,
        updatedAt: definition.updated_at,
        columns,
        rows,
      });
    }
    await fs.writeFile(path.join(dir, 'account', 'tables.json'), JSON.stringify({ tables }));
    const tableIds = tables.map((t) => t.id);
    if (query.history === 'true') {
      await writeNdjson(path.join(dir, 'account', 'history.ndjson'), historyPages(db, actor.accountId, tableIds));
      const checkpoints = await listOwnCheckpoints(db.kysely, actor.accountId, tableIds);
      await writeNdjson(
        path.join(dir, 'account', 'checkpoints.ndjson'),
        (async function* () {
          yield checkpoints;
        })(),
      );
      files.push('account/history.ndjson', 'account/checkpoints.ndjson');
    }
    const manifest = {
      format: 'basalt-backup',
      formatVersion: 1,
      kind: 'account',
      basaltVersion: BASALT_VERSION,
      engine: db.dialect.name,
      createdAt: new Date().toISOString(),
      includeHistory: query.history === 'true',
      includeFiles: false,
      parts: [{ name: 'account', format: 'account-v1', files: await describeFiles(dir, files) }],
    };
    await fs.writeFile(path.join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    const stream = new PassThrough();
    const packed = packArchive(dir, files, stream).catch((error: unknown) => stream.destroy(error as Error));
    return {
      stream,
      fileName: `basalt-account-${new Date().toISOString().slice(0, 10)}.tar.gz`,
      async done() {
        await packed;
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

// A table's rows in pages, each row as an array of API values in the columns' order.
async function* pagesOf(db: Db, shape: { id: number; schema: TableSchema }, columns: string[]) {
  let after = 0;
  for (;;) {
    const rows = await readRowsPage(db.kysely, shape.id, after);
    if (rows.length === 0) return;
    yield rows.map((row) =>
      columns.map((column) => {
        const type = columnTypeIn(shape, column);
        return type ? columnTypeOf(type).fromStorage(row[column], db.dialect.name) : (row[column] ?? null);
      }),
    );
    after = Number(rows.at(-1)?.id ?? after);
  }
}

async function* historyPages(db: Db, accountId: string, tableIds: number[]) {
  let after = 0;
  for (;;) {
    const page = await readHistoryPage(db.kysely, accountId, tableIds, after);
    if (page.length === 0) return;
    yield page;
    after = Number(page.at(-1)?.id ?? after);
  }
}
