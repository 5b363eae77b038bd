import type { CellValue } from '../../db/column-types/column-type.js';
import type { Db } from '../../db/database.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import { type Actor, accountActor } from '../../lib/actor/actor.js';
import { cachedTableByName, findTableByName, listTableDefinitionsOf } from '../tables/tables.service.js';
import { AUTH_UID, BodyError } from './sql-function-body.js';
import {
  type Bound,
  countStatement,
  decodeRow,
  firstRowStatement,
  type ResultRead,
  resultShape,
  rowsStatement,
  valuesBody,
} from './sql-function-statement.js';
import { type CompiledStatement, compileStatement } from './sql-function-write.js';
import { returnedRows, runWritePlan } from './sql-function-write-run.js';
import type { SqlFunction, TypedName } from './sql-functions.schemas.js';
import { statementFailure, tableColumns, tableLookup, typesOf } from './sql-functions.service.js';
import { listFunctionsNamed } from './sql-functions.store.js';

// A call of a SQL function (features/rest/rest-rpc.ts answers it). A call runs as the owner — like a PostgreSQL
// function with SECURITY DEFINER: the tables' access rules do not filter what the statement reads or writes — so
// the function's call rule says who of the app's callers may call it at all, and `:auth_uid` gives the statement the
// caller's end-user id. The statement is compiled again against the account's tables as they are at each call.

export { resultShape };

/** findCallables are the actor's account's functions of that name: one, its overloads, or none. */
export function findCallables(db: Db, actor: Actor, name: string): Promise<SqlFunction[]> {
  return listFunctionsNamed(db.kysely, actor.accountId, name);
}

/** mayCall tells whether the actor may call the function: the owner and the service key always, else its call rule. */
export function mayCall(actor: Actor, fn: SqlFunction): boolean {
  if (!actor.app || actor.app.role === 'service_role') return true;
  if (fn.callRule === 'public') return true;
  return fn.callRule === 'authenticated' && actor.endUser !== undefined;
}

interface CallTables {
  statement: CompiledStatement;
  byName: Map<string, TableDefinition>;
}

const tablesOf = (statement: CompiledStatement) =>
  statement.kind === 'read' ? statement.body.tables : [...statement.plan.selection.tables, statement.plan.table];

// The statement compiled against the account's tables as they are now: from this process's cache of definitions
// when it holds every table the function names (the usual call: no read), else from the account's definitions,
// warming the cache for the next call.
async function callTables(db: Db, owner: Actor, fn: SqlFunction): Promise<CallTables> {
  const params = fn.params.map((p) => p.name);
  const cached = new Map<string, TableDefinition>();
  const fromCache = (written: string) => {
    const table = cachedTableByName(db, owner, written);
    if (table) cached.set(table.name, table);
    return table?.name ?? null;
  };
  try {
    const statement = await compileStatement(fn.body, { params, tableNamed: fromCache });
    if (fn.returns.table === undefined || fromCache(fn.returns.table)) return { statement, byName: cached };
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
  }
  const tables = await listTableDefinitionsOf(db, owner);
  const byName = new Map(tables.map((t) => [t.name, t]));
  let statement: CompiledStatement;
  try {
    statement = await compileStatement(fn.body, { params, tableNamed: tableLookup([...byName.keys()]) });
  } catch (error) {
    // A table it reads was dropped or renamed since it was defined.
    throw new ApiError(400, '42P01', `The SQL function ${fn.name} cannot run: ${(error as Error).message}`);
  }
  await Promise.all(tablesOf(statement).map((name) => findTableByName(db, owner, name)));
  return { statement, byName };
}

/** PreparedCall is a function ready to run for one caller: its statement, tables resolved, and result columns. */
export interface PreparedCall {
  fn: SqlFunction;
  statement: CompiledStatement;
  bound: Bound;
  /** null for a scalar. */
  columns: TypedName[] | null;
  /** The table a write function writes. */
  target: TableDefinition | null;
}

/** prepareCall checks the function against the account's tables as they are now and binds the arguments. */
export async function prepareCall(
  db: Db,
  actor: Actor,
  fn: SqlFunction,
  args: ReadonlyMap<string, CellValue>,
): Promise<PreparedCall> {
  const { statement, byName } = await callTables(db, accountActor(actor.accountId), fn);
  let columns: TypedName[] | null = fn.returns.columns ?? null;
  if (fn.returns.table !== undefined) {
    const table = byName.get(fn.returns.table);
    if (!table) throw new ApiError(400, '42P01', `relation "${fn.returns.table}" does not exist`);
    columns = tableColumns(table);
  }
  const values = new Map(args);
  values.set(AUTH_UID, actor.endUser?.id ?? null);
  const tableIds = new Map(tablesOf(statement).map((name) => [name, byName.get(name)?.id ?? -1]));
  const target = statement.kind === 'write' ? (byName.get(statement.plan.table) ?? null) : null;
  return { fn, statement, bound: { types: typesOf(fn), values, tableIds }, columns, target };
}

async function read<R>(run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    throw statementFailure(error);
  }
}

function readBody(call: PreparedCall) {
  if (call.statement.kind !== 'read') throw new Error('readBody: the function writes');
  return call.statement.body;
}

/** firstRow runs a prepared read call for its first row (scalar or row functions); null when there is none. */
export async function firstRow(db: Db, call: PreparedCall): Promise<Record<string, unknown> | null> {
  const statement = firstRowStatement(db.dialect, readBody(call), call.bound, call.columns);
  const [raw] = await read(() => db.readRows<Record<string, unknown>>(statement.compiled()));
  if (!raw) return null;
  return call.columns ? decodeRow(db.dialect, call.columns, raw) : raw;
}

/** scalarOf reads a scalar function's value: its first row's one column, as the declared type. */
export function scalarOf(db: Db, call: PreparedCall, row: Record<string, unknown> | null): CellValue {
  if (!row) return null;
  const values = Object.values(row);
  if (values.length !== 1) {
    throw new ApiError(
      400,
      '42P13',
      `The SQL function ${call.fn.name} returns a scalar, but its statement gives ${values.length} columns`,
    );
  }
  const type = call.fn.returns.type ?? 'text';
  return decodeRow(db.dialect, [{ name: 'v', type }], { v: values[0] }).v ?? null;
}

/** resultRows runs a prepared rows function for the rows a read selects. */
export async function resultRows(
  db: Db,
  call: PreparedCall,
  request: ResultRead,
): Promise<Array<Record<string, CellValue>>> {
  const columns = call.columns ?? [];
  const statement = rowsStatement(db.dialect, readBody(call), call.bound, columns, request);
  const rows = await read(() => db.readRows<Record<string, unknown>>(statement.compiled()));
  return rows.map((raw) => decodeRow(db.dialect, columns, raw));
}

/** resultCount counts the rows a rows function gives under a condition. */
export async function resultCount(db: Db, call: PreparedCall, where: ResultRead['where']): Promise<number> {
  const statement = countStatement(db.dialect, readBody(call), call.bound, call.columns ?? [], where);
  const [row] = await read(() => db.readRows<{ n: number | string }>(statement.compiled()));
  return Number(row?.n ?? 0);
}

/**
 * writtenCall is a rows function's written records as a read call of their own (sql-function-statement.ts
 * valuesBody), for filters, order, paging and counts; null when they are too many to bind.
 */
export function writtenCall(call: PreparedCall, rows: Array<Record<string, CellValue>>): PreparedCall | null {
  const values = valuesBody(call.columns ?? [], rows);
  if (!values) return null;
  return { ...call, statement: { kind: 'read', body: values.body }, bound: values.bound, target: null };
}

/**
 * writeResult carries out a write function's call through the records service and hands `finish` what its
 * RETURNING gives — a scalar function's value, a row function's first record (or null), a rows function's records —
 * inside the write's transaction: what `finish` reads runs there, and its refusal rolls the write back.
 */
export async function writeResult<T>(
  db: Db,
  actor: Actor,
  call: PreparedCall,
  finish: (scope: Db, result: unknown) => Promise<T>,
): Promise<T> {
  const { statement, target } = call;
  if (statement.kind !== 'write' || !target) throw new Error('writeResult: the function reads');
  const project = (row: Record<string, CellValue>) =>
    Object.fromEntries((call.columns ?? []).map((c) => [c.name, row[c.name] ?? null]));
  const shaped = (rows: Array<Record<string, CellValue>>): unknown => {
    if (call.columns === null) return rows[0] ? (Object.values(rows[0])[0] ?? null) : null;
    if (call.fn.returns.kind === 'row') return rows[0] ? project(rows[0]) : null;
    return rows.map(project);
  };
  return read(() =>
    runWritePlan(db, actor, target, statement.plan, call.bound, (scope, written) =>
      finish(scope, shaped(returnedRows(target, statement.plan.returning, written))),
    ),
  );
}
