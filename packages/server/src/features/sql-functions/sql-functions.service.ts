import type { ColumnType } from '@basalt/shared';
import type { CellValue } from '../../db/column-types/column-type.js';
import type { Db } from '../../db/database.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError, conflict, forbidden, invalid, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import { type Actor, accountActor } from '../../lib/actor/actor.js';
import { cachedTableByName, findTableByName, listTableDefinitionsOf } from '../tables/tables.service.js';
import { AUTH_UID, BodyError, type CompiledBody, compileBody } from './sql-function-body.js';
import {
  type Bound,
  countStatement,
  decodeRow,
  firstRowStatement,
  type ResultRead,
  resultShape,
  rowsStatement,
} from './sql-function-statement.js';
import {
  type SqlFunction,
  type SqlFunctionInput,
  sqlFunctionInputSchema,
  type TypedName,
} from './sql-functions.schemas.js';
import {
  deleteFunction,
  findFunctionNamed,
  insertFunction,
  listFunctionsOf,
  updateFunction,
} from './sql-functions.store.js';

// SQL functions (issue 30, `rpc`): an account's named SELECTs that its app calls at /rest/v1/rpc/<name>. Only the
// owner defines them (its console session or token). A call runs as the owner — like a PostgreSQL function with
// SECURITY DEFINER: the tables' access rules do not filter what the statement reads — so the function's call rule
// says who of the app's callers may call it at all, and `:auth_uid` gives the statement the caller's end-user id to
// filter by. The statement is checked when it is defined and again at each call (a table may have gone since).

export type { SqlFunction } from './sql-functions.schemas.js';
export { resultShape };

const SYSTEM_COLUMNS: TypedName[] = [{ name: 'id', type: 'number' }];
const TIMESTAMPS: TypedName[] = [
  { name: 'created_at', type: 'date' },
  { name: 'updated_at', type: 'date' },
];

/** tableColumns are the columns of a table's rows, as `returns setof <table>` gives them. */
function tableColumns(table: TableDefinition): TypedName[] {
  const own = Object.entries(table.schema).map(([name, column]) => ({ name, type: column.type }));
  return [...SYSTEM_COLUMNS, ...own, ...TIMESTAMPS];
}

function assertOwner(actor: Actor): void {
  if (actor.app || actor.memberId !== undefined) throw forbidden('Only the owner account defines SQL functions');
}

// A name as written in the statement: the account's table of that name, else the one table whose name differs only in
// case (PostgreSQL folds unquoted names to lower case).
function tableLookup(names: readonly string[]): (written: string) => string | null {
  const exact = new Set(names);
  return (written) => {
    if (exact.has(written)) return written;
    const folded = names.filter((n) => n.toLowerCase() === written.toLowerCase());
    return folded.length === 1 ? (folded[0] ?? null) : null;
  };
}

const bodyInvalid = (message: string) => invalid({ body: [message] }, 'sql_function_invalid');

/** statementFailure turns an engine's refusal of the owner's statement into a 400; anything else passes on. */
export function statementFailure(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code !== 'string') return error;
  // PostgreSQL's classes of a statement's own faults (data, syntax and access, cardinality, integrity, feature), and
  // SQLite's errors of a statement (never its I/O, busy or full).
  const pg = /^(21|22|23|2B|0A|42)[0-9A-Z]{3}$/.test(code);
  const sqlite =
    code === 'SQLITE_ERROR' ||
    code === 'SQLITE_MISMATCH' ||
    code === 'SQLITE_RANGE' ||
    code.startsWith('SQLITE_CONSTRAINT');
  if (!pg && !sqlite) return error;
  return new ApiError(400, pg ? code : '42601', message, { hint: null });
}

interface Prepared {
  body: CompiledBody;
  columns: TypedName[] | null;
}

// Checks a definition against the account's tables and tries it on this engine (LIMIT 0, every parameter NULL).
async function prepare(db: Db, actor: Actor, input: SqlFunctionInput): Promise<Prepared> {
  const tables = await listTableDefinitionsOf(db, actor);
  const byName = new Map(tables.map((t) => [t.name, t]));
  let body: CompiledBody;
  try {
    body = await compileBody(input.body, {
      params: input.params.map((p) => p.name),
      tableNamed: tableLookup([...byName.keys()]),
    });
  } catch (error) {
    if (error instanceof BodyError) throw bodyInvalid(error.message);
    throw error;
  }
  let columns: TypedName[] | null = input.returns.columns ?? null;
  if (input.returns.table !== undefined) {
    const table = byName.get(input.returns.table);
    if (!table)
      throw invalid({ 'returns.table': [`${input.returns.table} is not one of your tables`] }, 'sql_function_invalid');
    columns = tableColumns(table);
  }
  const bound: Bound = {
    types: typesOf(input),
    values: new Map(),
    tableIds: new Map(body.tables.map((name) => [name, byName.get(name)?.id ?? -1])),
  };
  try {
    await db.readRows(firstRowStatement(db.dialect, body, bound, columns, 0).compiled());
  } catch (error) {
    const failure = statementFailure(error);
    if (failure instanceof ApiError) throw bodyInvalid(`The statement fails on this database: ${failure.message}`);
    throw failure;
  }
  return { body, columns };
}

function typesOf(fn: Pick<SqlFunctionInput, 'params'>): Map<string, ColumnType> {
  return new Map<string, ColumnType>([...fn.params.map((p) => [p.name, p.type] as const), [AUTH_UID, 'text']]);
}

const notFoundNamed = (name: string) => notFound(`Could not find the SQL function '${name}'`, 'sql_function_not_found');

/** listSqlFunctions lists the owner's functions. */
export async function listSqlFunctions(db: Db, actor: Actor): Promise<SqlFunction[]> {
  assertOwner(actor);
  return listFunctionsOf(db.kysely, actor.accountId);
}

/** getSqlFunction is one of the owner's functions (404 when it has none of that name). */
export async function getSqlFunction(db: Db, actor: Actor, name: string): Promise<SqlFunction> {
  assertOwner(actor);
  const fn = await findFunctionNamed(db.kysely, actor.accountId, name);
  if (!fn) throw notFoundNamed(name);
  return fn;
}

/** createSqlFunction checks and stores a new function (409 when the name is taken). */
export async function createSqlFunction(db: Db, actor: Actor, raw: unknown): Promise<SqlFunction> {
  assertOwner(actor);
  const input = parseInput(sqlFunctionInputSchema, raw);
  await prepare(db, actor, input);
  return db.transaction(async (scope) => {
    if (await findFunctionNamed(scope.kysely, actor.accountId, input.name)) {
      throw conflict(`A SQL function named ${input.name} already exists`, 'sql_function_exists');
    }
    await insertFunction(scope.kysely, actor.accountId, input);
    return (await findFunctionNamed(scope.kysely, actor.accountId, input.name)) as SqlFunction;
  });
}

/** replaceSqlFunction replaces a function's whole definition (its name too). */
export async function replaceSqlFunction(db: Db, actor: Actor, name: string, raw: unknown): Promise<SqlFunction> {
  assertOwner(actor);
  const input = parseInput(sqlFunctionInputSchema, raw);
  await prepare(db, actor, input);
  return db.transaction(async (scope) => {
    if (input.name !== name && (await findFunctionNamed(scope.kysely, actor.accountId, input.name))) {
      throw conflict(`A SQL function named ${input.name} already exists`, 'sql_function_exists');
    }
    if (!(await updateFunction(scope.kysely, actor.accountId, name, input))) throw notFoundNamed(name);
    return (await findFunctionNamed(scope.kysely, actor.accountId, input.name)) as SqlFunction;
  });
}

/** deleteSqlFunction removes one of the owner's functions. */
export async function deleteSqlFunction(db: Db, actor: Actor, name: string): Promise<void> {
  assertOwner(actor);
  if (!(await deleteFunction(db.kysely, actor.accountId, name))) throw notFoundNamed(name);
}

/** findCallable is the actor's account's function of that name, or null. */
export function findCallable(db: Db, actor: Actor, name: string): Promise<SqlFunction | null> {
  return findFunctionNamed(db.kysely, actor.accountId, name);
}

/** mayCall tells whether the actor may call the function: the owner and the service key always, else its call rule. */
export function mayCall(actor: Actor, fn: SqlFunction): boolean {
  if (!actor.app || actor.app.role === 'service_role') return true;
  if (fn.callRule === 'public') return true;
  return fn.callRule === 'authenticated' && actor.endUser !== undefined;
}

interface CallTables {
  body: CompiledBody;
  byName: Map<string, TableDefinition>;
}

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
    const body = await compileBody(fn.body, { params, tableNamed: fromCache });
    if (fn.returns.table === undefined || fromCache(fn.returns.table)) return { body, byName: cached };
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
  }
  const tables = await listTableDefinitionsOf(db, owner);
  const byName = new Map(tables.map((t) => [t.name, t]));
  let body: CompiledBody;
  try {
    body = await compileBody(fn.body, { params, tableNamed: tableLookup([...byName.keys()]) });
  } catch (error) {
    // A table it reads was dropped or renamed since it was defined.
    throw new ApiError(400, '42P01', `The SQL function ${fn.name} cannot run: ${(error as Error).message}`);
  }
  await Promise.all(body.tables.map((name) => findTableByName(db, owner, name)));
  return { body, byName };
}

/** PreparedCall is a function ready to run for one caller: its statement, tables resolved, and result columns. */
export interface PreparedCall {
  fn: SqlFunction;
  body: CompiledBody;
  bound: Bound;
  /** null for a scalar. */
  columns: TypedName[] | null;
}

/** prepareCall checks the function against the account's tables as they are now and binds the arguments. */
export async function prepareCall(
  db: Db,
  actor: Actor,
  fn: SqlFunction,
  args: ReadonlyMap<string, CellValue>,
): Promise<PreparedCall> {
  const { body, byName } = await callTables(db, accountActor(actor.accountId), fn);
  let columns: TypedName[] | null = fn.returns.columns ?? null;
  if (fn.returns.table !== undefined) {
    const table = byName.get(fn.returns.table);
    if (!table) throw new ApiError(400, '42P01', `relation "${fn.returns.table}" does not exist`);
    columns = tableColumns(table);
  }
  const values = new Map(args);
  values.set(AUTH_UID, actor.endUser?.id ?? null);
  const tableIds = new Map(body.tables.map((name) => [name, byName.get(name)?.id ?? -1]));
  return { fn, body, bound: { types: typesOf(fn), values, tableIds }, columns };
}

async function read<R>(db: Db, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    throw statementFailure(error);
  }
}

/** firstRow runs a prepared call for its first row (scalar or row functions); null when there is none. */
export async function firstRow(db: Db, call: PreparedCall): Promise<Record<string, unknown> | null> {
  const rows = await read(db, () =>
    db.readRows<Record<string, unknown>>(firstRowStatement(db.dialect, call.body, call.bound, call.columns).compiled()),
  );
  const [raw] = rows;
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
  const rows = await read(db, () =>
    db.readRows<Record<string, unknown>>(rowsStatement(db.dialect, call.body, call.bound, columns, request).compiled()),
  );
  return rows.map((raw) => decodeRow(db.dialect, columns, raw));
}

/** resultCount counts the rows a rows function gives under a condition. */
export async function resultCount(db: Db, call: PreparedCall, where: ResultRead['where']): Promise<number> {
  const [row] = await read(db, () =>
    db.readRows<{ n: number | string }>(
      countStatement(db.dialect, call.body, call.bound, call.columns ?? [], where).compiled(),
    ),
  );
  return Number(row?.n ?? 0);
}

/** DescribedFunction is a function's signature with its result columns resolved (generated types read it). */
export interface DescribedFunction {
  name: string;
  params: TypedName[];
  returns: { kind: 'scalar' | 'row' | 'rows'; type?: ColumnType | undefined; columns: TypedName[] };
}

/** describeSqlFunctions lists the owner's functions' signatures; a table-returning one gets the table's columns now. */
export async function describeSqlFunctions(db: Db, actor: Actor): Promise<DescribedFunction[]> {
  const [fns, tables] = await Promise.all([listSqlFunctions(db, actor), listTableDefinitionsOf(db, actor)]);
  const byName = new Map(tables.map((t) => [t.name, t]));
  return fns.map((fn) => {
    const table = fn.returns.table === undefined ? undefined : byName.get(fn.returns.table);
    const columns = table ? tableColumns(table) : (fn.returns.columns ?? []);
    return { name: fn.name, params: fn.params, returns: { kind: fn.returns.kind, type: fn.returns.type, columns } };
  });
}
