import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import {
  ACCOUNT_EXPORT_LIMITS,
  type AccountImportReport,
  createTableSchema,
  TABLE_LIMITS,
  type TableSchema,
} from '@basalt/shared';
import { z } from 'zod';
import { backupDirOf } from '../../config.js';
import type { Db } from '../../db/database.js';
import { addToHistoryCount } from '../../db/history-counts.js';
import { userTableName } from '../../db/identifiers.js';
import { recountRowCount } from '../../db/row-counts.js';
import { refillSearchIndexes } from '../../db/text-search/search-index.js';
import { receiveFile } from '../../http/archive-upload.js';
import { badRequest } from '../../http/errors.js';
import { fieldErrorsOf } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { ArchiveError, extractArchive, MANIFEST_FILE, verifyFiles } from '../../lib/archive/archive.js';
import { createTable } from '../tables/tables.service.js';
import { parseRowValue } from './account-values.js';
import { insertCheckpoint, insertHistoryEntry, insertRows, listDefinitionNames } from './portability.store.js';

// An account's archive (account-export.ts) brought into the signed-in account, on this instance or any other:
// each table made anew (a new name when the account already has one of that name), its rows written with their
// ids, its access rules kept, and its history and checkpoints pointing at the new tables. Everything is checked
// before anything is written (a dry run stops there and reports what would happen); the writing is one
// transaction, so a refused import leaves nothing behind.

const EXTRACT_LIMITS = { maxEntries: ACCOUNT_EXPORT_LIMITS.tablesMax + 10, maxBytes: 256 * 1024 ** 3 };
const BATCH = 500;

const manifestSchema = z.object({
  format: z.literal('basalt-backup'),
  formatVersion: z.literal(1),
  kind: z.literal('account'),
  includeHistory: z.boolean(),
  parts: z
    .array(
      z.object({
        name: z.literal('account'),
        format: z.literal('account-v1'),
        files: z.array(z.object({ path: z.string().max(300), bytes: z.number().int().min(0), sha256: z.string() })),
      }),
    )
    .length(1),
});

const tablesSchema = z.object({
  tables: z
    .array(
      z.object({
        id: z.number().int().positive(),
        name: z.string().max(200),
        description: z.string().max(2000).nullable(),
        schema: z.record(z.string(), z.unknown()),
        access: z.record(z.string(), z.unknown()).nullable(),
        columns: z.array(z.string().max(63)).max(TABLE_LIMITS.columnsMax + 3),
        rows: z.number().int().min(0),
      }),
    )
    .max(ACCOUNT_EXPORT_LIMITS.tablesMax),
});

/** ImportQuery is what POST /api/account/import reads from its query. */
export const importQuerySchema = z
  .object({ dryRun: z.enum(['true', 'false'], { error: 'dryRun must be true or false' }).default('false') })
  .strict();

type ArchivedTable = z.infer<typeof tablesSchema>['tables'][number];
type PlannedTable = {
  source: ArchivedTable;
  name: string;
  schema: TableSchema;
  request: z.infer<typeof createTableSchema>;
};

const refused = (message: string) => badRequest('invalid_archive', message);

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    throw refused(`The archive is not an account export: ${path.basename(file)} is missing or not JSON`);
  }
}

async function* lines(file: string): AsyncGenerator<unknown> {
  const reader = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of reader) if (line) yield JSON.parse(line);
}

// A name the account has no table of: the archive's, else with _2, _3… (cut to fit the length limit).
function freeName(name: string, taken: Set<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = name.slice(0, TABLE_LIMITS.tableNameMax - suffix.length) + suffix;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

async function plan(db: Db, actor: Actor, dir: string) {
  const manifest = manifestSchema.safeParse(await readJson(path.join(dir, MANIFEST_FILE)));
  if (!manifest.success) {
    throw refused(
      'The archive is not an account export (its manifest is not one): use Settings → Backups for a backup',
    );
  }
  await verifyFiles(dir, manifest.data.parts[0]?.files ?? []);
  const parsed = tablesSchema.safeParse(await readJson(path.join(dir, 'account', 'tables.json')));
  if (!parsed.success) throw refused('The archive is not an account export: its tables.json is not valid');
  const taken = new Set(await listDefinitionNames(db.kysely, actor.accountId));
  const planned: PlannedTable[] = [];
  for (const table of parsed.data.tables) {
    const name = freeName(table.name, taken);
    taken.add(name.toLowerCase());
    const request = createTableSchema.safeParse({
      name,
      description: table.description ?? undefined,
      schema: table.schema,
      ...(table.access ? { access: table.access } : {}),
    });
    if (!request.success) {
      const problem = Object.entries(fieldErrorsOf(request.error))[0];
      throw refused(`Table "${table.name}" of the archive cannot be created: ${problem?.[1][0] ?? 'it is not valid'}`);
    }
    const schema = request.data.schema as TableSchema;
    const expected = ['id', 'created_at', 'updated_at', ...Object.keys(schema)];
    if (table.columns.join('\u0000') !== expected.join('\u0000')) {
      throw refused(`Table "${table.name}" of the archive lists columns its schema does not have`);
    }
    planned.push({ source: table, name, schema, request: request.data });
  }
  return { planned, includeHistory: manifest.data.includeHistory };
}

async function count(file: string): Promise<number> {
  let n = 0;
  for await (const _ of lines(file)) n++;
  return n;
}

/** importAccount receives an account's archive and imports it (or, for a dry run, reports what it would do). */
export async function importAccount(
  db: Db,
  config: Parameters<typeof backupDirOf>[0] & { backups: { uploadMaxBytes: number } },
  actor: Actor,
  body: Readable,
  dryRun: boolean,
): Promise<AccountImportReport> {
  const root = path.join(backupDirOf(config), `.import-${randomUUID()}`);
  const dir = path.join(root, 'unpacked');
  await fs.mkdir(root, { recursive: true });
  try {
    await receiveFile(body, path.join(root, 'archive.tar.gz'), config.backups.uploadMaxBytes);
    try {
      await extractArchive(path.join(root, 'archive.tar.gz'), dir, EXTRACT_LIMITS);
    } catch (error) {
      if (error instanceof ArchiveError) throw refused(error.message);
      throw error;
    }
    const { planned, includeHistory } = await plan(db, actor, dir).catch((error: unknown) => {
      if (error instanceof ArchiveError) throw refused(error.message);
      throw error;
    });
    const historyFile = path.join(dir, 'account', 'history.ndjson');
    const history = includeHistory ? await historyEntries(historyFile) : [];
    const checkpoints = includeHistory ? await count(path.join(dir, 'account', 'checkpoints.ndjson')) : 0;
    const report: AccountImportReport = {
      dryRun,
      tables: planned.map((p) => ({
        name: p.source.name,
        importedAs: p.name,
        renamed: p.name !== p.source.name,
        rows: p.source.rows,
        history: history.filter((h) => h.table_id === p.source.id).length,
        checkpoints: 0,
      })),
      totals: { tables: planned.length, rows: 0, history: history.length, checkpoints },
    };
    report.totals.rows = report.tables.reduce((n, t) => n + t.rows, 0);
    if (dryRun) {
      for (const table of planned) await checkRows(db, dir, table);
      return report;
    }
    await db
      .transaction(async (scope) => {
        const tableIds = new Map<number, number>();
        for (const table of planned) {
          const created = await createTable(scope, actor, table.request);
          tableIds.set(table.source.id, created.id);
          await copyRows(scope, dir, table, created.id);
          // The rows came past the records path: a searchable column's index is built from them.
          await refillSearchIndexes(scope.kysely, scope.dialect.name, created.id, created.schema);
        }
        await copyHistory(scope, actor, dir, history, tableIds);
      })
      .catch((error: unknown) => {
        // Rows that break a unique column, or a required one: the archive's fault, and nothing was written.
        const problem = db.dialect.userTables.describeError(error);
        if (problem) throw refused(`The archive's rows could not be written (${problem.kind}); nothing was imported`);
        throw error;
      });
    return report;
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

type ArchivedEntry = Record<string, unknown> & { id: number; table_id: number };

async function historyEntries(file: string): Promise<ArchivedEntry[]> {
  const entries: ArchivedEntry[] = [];
  for await (const entry of lines(file)) {
    const e = entry as ArchivedEntry;
    if (!Number.isInteger(e?.id) || !Number.isInteger(e?.table_id) || typeof e.change_type !== 'string') {
      throw refused('The archive is not an account export: an entry of its history is not valid');
    }
    entries.push(e);
  }
  return entries;
}

async function* convertedRows(dir: string, table: PlannedTable, dialect: Db['dialect']) {
  const shape = { id: 0, schema: table.schema };
  let n = 0;
  for await (const row of lines(path.join(dir, 'account', 'rows', `${table.source.id}.ndjson`))) {
    n++;
    if (!Array.isArray(row) || row.length !== table.source.columns.length) {
      throw refused(`Row ${n} of table "${table.source.name}" does not have ${table.source.columns.length} values`);
    }
    const stored: Record<string, unknown> = {};
    table.source.columns.forEach((column, i) => {
      const value = parseRowValue(shape, column, row[i], dialect);
      if (!value.ok) throw refused(`Row ${n} of table "${table.source.name}": "${column}" ${value.message}`);
      stored[column] = value.stored;
    });
    yield stored;
  }
}

async function checkRows(db: Db, dir: string, table: PlannedTable): Promise<void> {
  for await (const _ of convertedRows(dir, table, db.dialect)) {
    // Each row is converted, which is the check.
  }
}

async function copyRows(scope: Db, dir: string, table: PlannedTable, tableId: number): Promise<void> {
  let batch: Record<string, unknown>[] = [];
  let maxId = 0;
  for await (const row of convertedRows(dir, table, scope.dialect)) {
    maxId = Math.max(maxId, Number(row.id));
    batch.push(row);
    if (batch.length >= BATCH) {
      await insertRows(scope.kysely, tableId, batch);
      batch = [];
    }
  }
  await insertRows(scope.kysely, tableId, batch);
  await scope.dialect.userTables.syncIdSequence(scope.kysely, userTableName(tableId), maxId);
  await recountRowCount(scope.kysely, scope.dialect, tableId);
}

// A cascade's cause names a table by its id, which the import renumbers.
function causeIn(cause: string | null, tableIds: Map<number, number>): string | null {
  const [table, record] = cause?.split(':') ?? [];
  const tableId = tableIds.get(Number(table));
  return tableId === undefined || record === undefined ? null : `${tableId}:${record}`;
}

async function copyHistory(
  scope: Db,
  actor: Actor,
  dir: string,
  entries: ArchivedEntry[],
  tableIds: Map<number, number>,
): Promise<void> {
  const changeIds = new Map<number, number>();
  const perTable = new Map<number, number>();
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  for (const entry of entries) {
    const tableId = tableIds.get(entry.table_id);
    if (tableId === undefined) continue;
    const id = await insertHistoryEntry(scope.kysely, {
      account_id: actor.accountId,
      table_id: tableId,
      table_name: text(entry.table_name) ?? '',
      record_id: Number.isInteger(entry.record_id) ? Number(entry.record_id) : null,
      change_type: String(entry.change_type),
      previous_state: text(entry.previous_state),
      new_state: text(entry.new_state),
      actor_id: text(entry.actor_id),
      created_at: text(entry.created_at) ?? new Date().toISOString(),
      revert_of: changeIds.get(Number(entry.revert_of)) ?? null,
      change_group: text(entry.change_group),
      caused_by: causeIn(text(entry.caused_by), tableIds),
    });
    changeIds.set(entry.id, id);
    perTable.set(tableId, (perTable.get(tableId) ?? 0) + 1);
  }
  for (const [tableId, n] of perTable) await addToHistoryCount(scope, { accountId: actor.accountId, tableId }, n);
  for await (const item of lines(path.join(dir, 'account', 'checkpoints.ndjson'))) {
    const checkpoint = item as Record<string, unknown>;
    const tableId = tableIds.get(Number(checkpoint.table_id));
    if (tableId === undefined || typeof checkpoint.name !== 'string') continue;
    await insertCheckpoint(scope.kysely, {
      account_id: actor.accountId,
      table_id: tableId,
      name: checkpoint.name.slice(0, 200),
      description: text(checkpoint.description),
      change_id: checkpoint.change_id === null ? null : (changeIds.get(Number(checkpoint.change_id)) ?? null),
      created_by: actor.accountId,
      created_at: text(checkpoint.created_at) ?? new Date().toISOString(),
    });
  }
}
