import type { ColumnType } from '@basalt/shared';
import type { CellValue } from '../../db/column-types/column-type.js';
import { parseNumericText } from '../../db/column-types/number.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { Db } from '../../db/database.js';
import type { DialectName } from '../../db/dialect/dialect.js';
import type { Condition } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import {
  createRecords,
  deleteRecords,
  type RecordInput,
  type RecordRow,
  updateRecords,
} from '../records/records.service.js';
import { type Bound, selectionStatement } from './sql-function-statement.js';
import { type ReturningColumn, selectionColumn, type WritePlan } from './sql-function-write.js';

// A write function's call (sql-function-write.ts): in one transaction, the selection finds what to write (locking
// an UPDATE's or a DELETE's rows on PostgreSQL, as the UPDATE itself would), then the records service writes it,
// so history entries, activity, row counts, change events and reference checks are exactly a REST write's.

// Ids per records-service call: well inside both engines' limits of bound values.
const IDS_PER_CALL = 1_000;

/**
 * definerActor is who a function's write acts as: the owner's full access (like the app's service key: no table
 * rule filters it, SECURITY DEFINER), with the caller's end user named in history and activity as the one who acted.
 */
export function definerActor(caller: Actor): Actor {
  return {
    accountId: caller.accountId,
    app: { ref: caller.app?.ref ?? '', role: 'service_role' },
    ...(caller.endUser ? { endUser: caller.endUser } : {}),
  };
}

// A value the selection computed, as the record input of the column it goes to (the records service validates it).
function inputOf(dialect: DialectName, type: ColumnType, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Date) return raw.toISOString();
  if (typeof raw === 'bigint') return Number(raw);
  switch (type) {
    case 'number':
      return typeof raw === 'string' ? (parseNumericText(raw) ?? raw) : raw;
    case 'boolean':
      return typeof raw === 'number' ? raw !== 0 : raw;
    case 'text':
      return typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
    case 'json':
    case 'array':
      return columnTypeOf(type).fromStorage(raw, dialect);
    default:
      return raw;
  }
}

function columnType(table: TableDefinition, column: string): ColumnType {
  if (column === 'id') return 'number';
  const definition = table.schema[column];
  if (!definition) throw new ApiError(400, '42703', `column "${column}" of relation "${table.name}" does not exist`);
  return definition.type;
}

function inputsOf(db: Db, table: TableDefinition, plan: WritePlan, raw: Record<string, unknown>): RecordInput {
  return Object.fromEntries(
    plan.columns.map((column, i) => [
      column,
      inputOf(db.dialect.name, columnType(table, column), raw[selectionColumn(i)]),
    ]),
  ) as RecordInput;
}

const idsIn = (ids: number[]): Condition => ({ kind: 'in', column: 'id', values: ids });

function chunked<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += IDS_PER_CALL) out.push(items.slice(i, i + IDS_PER_CALL));
  return out;
}

// The first selected row of each record (an UPDATE … FROM may join one record to several rows, as in PostgreSQL).
function byRecord(rows: Array<Record<string, unknown>>): Map<number, Record<string, unknown>> {
  const out = new Map<number, Record<string, unknown>>();
  for (const row of rows) {
    const id = Number(row.rpc_id);
    if (!out.has(id)) out.set(id, row);
  }
  return out;
}

async function update(
  scope: Db,
  actor: Actor,
  table: TableDefinition,
  plan: WritePlan,
  rows: Array<Record<string, unknown>>,
) {
  // Records given the same values are updated together: a constant SET is one records-service call per chunk.
  const groups = new Map<string, { patch: RecordInput; ids: number[] }>();
  for (const [id, raw] of byRecord(rows)) {
    const patch = inputsOf(scope, table, plan, raw);
    const key = JSON.stringify(patch);
    const group = groups.get(key) ?? { patch, ids: [] };
    group.ids.push(id);
    groups.set(key, group);
  }
  const written: RecordRow[] = [];
  for (const { patch, ids } of groups.values()) {
    for (const chunk of chunked(ids)) written.push(...(await updateRecords(scope, actor, table, idsIn(chunk), patch)));
  }
  return written.sort((a, b) => a.id - b.id);
}

/**
 * runWritePlan carries out a write function's call through the records service and hands the written records to
 * `finish`, in the same transaction (its refusal rolls the write back).
 */
export function runWritePlan<T>(
  db: Db,
  caller: Actor,
  table: TableDefinition,
  plan: WritePlan,
  bound: Bound,
  finish: (scope: Db, written: RecordRow[]) => Promise<T>,
): Promise<T> {
  const actor = definerActor(caller);
  return db.transaction(async (scope) => finish(scope, await writeIn(scope, actor, table, plan, bound)));
}

async function writeIn(
  scope: Db,
  actor: Actor,
  table: TableDefinition,
  plan: WritePlan,
  bound: Bound,
): Promise<RecordRow[]> {
  const lock = plan.op !== 'insert';
  const rows = await scope.run<Record<string, unknown>>(
    selectionStatement(scope.dialect, plan.selection, bound, lock).compiled(),
  );
  if (rows.length === 0) return [];
  if (plan.op === 'insert') {
    return createRecords(
      scope,
      actor,
      table,
      rows.map((raw) => inputsOf(scope, table, plan, raw)),
    );
  }
  if (plan.op === 'update') return update(scope, actor, table, plan, rows);
  const deleted: RecordRow[] = [];
  for (const chunk of chunked([...byRecord(rows).keys()])) {
    deleted.push(...(await deleteRecords(scope, actor, table, idsIn(chunk))));
  }
  return deleted;
}

/** returnedRows are the written records as RETURNING names them. */
export function returnedRows(
  table: TableDefinition,
  returning: ReturningColumn[] | 'all' | null,
  records: RecordRow[],
): Array<Record<string, CellValue>> {
  if (returning === null || returning === 'all') return records as Array<Record<string, CellValue>>;
  for (const { column } of returning) {
    if (column !== 'created_at' && column !== 'updated_at') columnType(table, column);
  }
  return records.map((record) =>
    Object.fromEntries(returning.map(({ column, as }) => [as, (record as Record<string, CellValue>)[column] ?? null])),
  );
}
