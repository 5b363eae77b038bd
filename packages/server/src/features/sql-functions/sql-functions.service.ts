import type { ColumnType } from '@basalt/shared';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { Db } from '../../db/database.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError, conflict, forbidden, invalid, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { listTableDefinitionsOf } from '../tables/tables.service.js';
import { AUTH_UID, BodyError } from './sql-function-body.js';
import { type Bound, firstRowStatement } from './sql-function-statement.js';
import { type CompiledStatement, compileStatement, type WritePlan } from './sql-function-write.js';
import {
  type SqlFunction,
  type SqlFunctionInput,
  sqlFunctionInputSchema,
  type TypedName,
} from './sql-functions.schemas.js';
import {
  deleteFunction,
  findFunctionById,
  findOverload,
  insertFunction,
  listFunctionsNamed,
  listFunctionsOf,
  type StoredDefinition,
  updateFunction,
} from './sql-functions.store.js';
import { type DefinitionNote, journalDefinition } from './sql-functions-history.js';

// SQL functions (issue 30, `rpc`): an account's named statements that its app calls at /rest/v1/rpc/<name>. Only
// the owner defines them (its console session or token). A definition is one SELECT (a read function) or one
// INSERT, UPDATE or DELETE (a write function, carried out through the records service: sql-function-write.ts);
// several functions may share a name when their parameters' names differ (overloads, picked by the arguments a
// call names). Creating, changing and deleting one is recorded in history and revertable
// (sql-functions-history.ts). The call side is sql-function-calls.ts.

export type { SqlFunction } from './sql-functions.schemas.js';

const SYSTEM_COLUMNS: TypedName[] = [{ name: 'id', type: 'number' }];
const TIMESTAMPS: TypedName[] = [
  { name: 'created_at', type: 'date' },
  { name: 'updated_at', type: 'date' },
];

/** tableColumns are the columns of a table's rows, as `returns setof <table>` gives them. */
export function tableColumns(table: TableDefinition): TypedName[] {
  const own = Object.entries(table.schema).map(([name, column]) => ({ name, type: column.type }));
  return [...SYSTEM_COLUMNS, ...own, ...TIMESTAMPS];
}

function assertOwner(actor: Actor): void {
  if (actor.app || actor.memberId !== undefined) throw forbidden('Only the owner account defines SQL functions');
}

/**
 * tableLookup finds a name as written in the statement: the account's table of that name, else the one table whose
 * name differs only in case (PostgreSQL folds unquoted names to lower case).
 */
export function tableLookup(names: readonly string[]): (written: string) => string | null {
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

/** typesOf is each placeholder's type: the parameters', and the caller's id (text). */
export function typesOf(fn: Pick<SqlFunctionInput, 'params'>): Map<string, ColumnType> {
  return new Map<string, ColumnType>([...fn.params.map((p) => [p.name, p.type] as const), [AUTH_UID, 'text']]);
}

// Each default must be a value of its parameter's type, as a call's argument must.
function checkDefaults(input: SqlFunctionInput): void {
  input.params.forEach((param, i) => {
    if (param.default === undefined || param.default === null) return;
    const parsed = columnTypeOf(param.type).parseInput(param.default, { from: 'json' });
    if (!parsed.ok) {
      throw invalid(
        { [`params.${i}.default`]: [`The default of ${param.name} ${parsed.message}`] },
        'sql_function_invalid',
      );
    }
  });
}

// A write's columns and RETURNING against its table, and the declared result against what RETURNING gives.
function checkWrite(input: SqlFunctionInput, plan: WritePlan, table: TableDefinition, declared: TypedName[] | null) {
  const own = new Set(Object.keys(table.schema));
  for (const column of plan.columns) {
    if (column === 'created_at' || column === 'updated_at') throw bodyInvalid(`${column} is set by Basalt`);
    if (!own.has(column) && !(column === 'id' && plan.op === 'insert')) {
      throw bodyInvalid(`column "${column}" of relation "${table.name}" does not exist`);
    }
  }
  if (plan.returning === null) {
    throw bodyInvalid('A write function says what it gives back with RETURNING (RETURNING *, or RETURNING id)');
  }
  const all = tableColumns(table).map((c) => c.name);
  const returned = plan.returning === 'all' ? all : plan.returning.map((r) => r.as);
  for (const r of plan.returning === 'all' ? [] : plan.returning) {
    if (!all.includes(r.column)) throw bodyInvalid(`column "${r.column}" of relation "${table.name}" does not exist`);
  }
  if (input.returns.kind === 'scalar' && returned.length !== 1) {
    throw bodyInvalid('A function returning a scalar RETURNs one column');
  }
  for (const column of declared ?? []) {
    if (!returned.includes(column.name)) throw bodyInvalid(`RETURNING gives no column ${column.name}`);
  }
}

// Checks a definition against the account's tables and tries it on this engine (LIMIT 0, every parameter NULL).
async function prepare(db: Db, actor: Actor, input: SqlFunctionInput): Promise<StoredDefinition> {
  checkDefaults(input);
  const tables = await listTableDefinitionsOf(db, actor);
  const byName = new Map(tables.map((t) => [t.name, t]));
  let statement: CompiledStatement;
  try {
    statement = await compileStatement(input.body, {
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
  const body = statement.kind === 'read' ? statement.body : statement.plan.selection;
  if (statement.kind === 'write') {
    checkWrite(input, statement.plan, byName.get(statement.plan.table) as TableDefinition, columns);
  }
  const bound: Bound = {
    types: typesOf(input),
    values: new Map(),
    tableIds: new Map(body.tables.map((name) => [name, byName.get(name)?.id ?? -1])),
  };
  try {
    await db.readRows(
      firstRowStatement(db.dialect, body, bound, statement.kind === 'read' ? columns : null, 0).compiled(),
    );
  } catch (error) {
    const failure = statementFailure(error);
    if (failure instanceof ApiError) throw bodyInvalid(`The statement fails on this database: ${failure.message}`);
    throw failure;
  }
  return { input, mode: statement.kind };
}

const notFoundNamed = (key: string) => notFound(`Could not find the SQL function '${key}'`, 'sql_function_not_found');

// A function named in a path: by id (digits; names start with a letter), or by name when only one has it.
async function functionAt(db: Db, actor: Actor, key: string): Promise<SqlFunction> {
  if (/^\d{1,15}$/.test(key)) {
    const fn = await findFunctionById(db.kysely, actor.accountId, Number(key));
    if (fn) return fn;
    throw notFoundNamed(key);
  }
  const named = await listFunctionsNamed(db.kysely, actor.accountId, key);
  if (named.length === 0) throw notFoundNamed(key);
  if (named.length > 1) {
    throw conflict(
      `${named.length} SQL functions are named ${key} (overloads): name one by its id (${named.map((f) => f.id).join(', ')})`,
      'sql_function_ambiguous',
    );
  }
  return named[0] as SqlFunction;
}

async function assertFree(db: Db, actor: Actor, input: SqlFunctionInput, except?: number): Promise<void> {
  const taken = await findOverload(db.kysely, actor.accountId, input.name, input.params);
  if (taken && taken.id !== except) {
    const params = input.params.map((p) => p.name).join(', ');
    throw conflict(`A SQL function ${input.name}(${params}) already exists`, 'sql_function_exists');
  }
}

/** listSqlFunctions lists the owner's functions. */
export async function listSqlFunctions(db: Db, actor: Actor): Promise<SqlFunction[]> {
  assertOwner(actor);
  return listFunctionsOf(db.kysely, actor.accountId);
}

/** getSqlFunction is one of the owner's functions by id, or by name when it has no overloads. */
export async function getSqlFunction(db: Db, actor: Actor, key: string): Promise<SqlFunction> {
  assertOwner(actor);
  return functionAt(db, actor, key);
}

/**
 * defineSqlFunction checks and stores a function (409 when one of that name takes the same parameters); `note`
 * puts a deleted one back as it was (history's revert).
 */
export async function defineSqlFunction(
  db: Db,
  actor: Actor,
  raw: unknown,
  note: DefinitionNote = {},
): Promise<SqlFunction> {
  assertOwner(actor);
  const definition = await prepare(db, actor, parseInput(sqlFunctionInputSchema, raw));
  return db.transaction(async (scope) => {
    await assertFree(scope, actor, definition.input);
    const id = await insertFunction(scope.kysely, actor.accountId, definition, note.restore);
    const created = (await findFunctionById(scope.kysely, actor.accountId, id)) as SqlFunction;
    await journalDefinition(scope, actor, 'FUNCTION_CREATE', null, created, note);
    return created;
  });
}

/** replaceSqlFunction replaces a function's whole definition (its name too). */
export async function replaceSqlFunction(
  db: Db,
  actor: Actor,
  key: string,
  raw: unknown,
  note: DefinitionNote = {},
): Promise<SqlFunction> {
  assertOwner(actor);
  const definition = await prepare(db, actor, parseInput(sqlFunctionInputSchema, raw));
  return db.transaction(async (scope) => {
    const before = await functionAt(scope, actor, key);
    await assertFree(scope, actor, definition.input, before.id);
    await updateFunction(scope.kysely, actor.accountId, before.id, definition);
    const after = (await findFunctionById(scope.kysely, actor.accountId, before.id)) as SqlFunction;
    await journalDefinition(scope, actor, 'FUNCTION_UPDATE', before, after, note);
    return after;
  });
}

/** deleteSqlFunction removes one of the owner's functions. */
export async function deleteSqlFunction(db: Db, actor: Actor, key: string, note: DefinitionNote = {}): Promise<void> {
  assertOwner(actor);
  await db.transaction(async (scope) => {
    const before = await functionAt(scope, actor, key);
    if (!(await deleteFunction(scope.kysely, actor.accountId, before.id))) throw notFoundNamed(key);
    await journalDefinition(scope, actor, 'FUNCTION_DELETE', before, null, note);
  });
}

/** DescribedFunction is a function's signature with its result columns resolved (generated types read it). */
export interface DescribedFunction {
  name: string;
  params: Array<TypedName & { optional: boolean }>;
  returns: { kind: 'scalar' | 'row' | 'rows'; type?: ColumnType | undefined; columns: TypedName[] };
}

/** describeSqlFunctions lists the owner's functions' signatures; a table-returning one gets the table's columns now. */
export async function describeSqlFunctions(db: Db, actor: Actor): Promise<DescribedFunction[]> {
  const [fns, tables] = await Promise.all([listSqlFunctions(db, actor), listTableDefinitionsOf(db, actor)]);
  const byName = new Map(tables.map((t) => [t.name, t]));
  return fns.map((fn) => {
    const table = fn.returns.table === undefined ? undefined : byName.get(fn.returns.table);
    const columns = table ? tableColumns(table) : (fn.returns.columns ?? []);
    const params = fn.params.map((p) => ({ name: p.name, type: p.type, optional: p.default !== undefined }));
    return { name: fn.name, params, returns: { kind: fn.returns.kind, type: fn.returns.type, columns } };
  });
}
