import type { Selectable } from 'kysely';
import type { SqlFunctionsTable } from '../../db/schema/function-tables.js';
import type { Executor } from '../../db/user-tables.js';
import type { SqlFunction, SqlFunctionInput, SqlFunctionMode } from './sql-functions.schemas.js';

// The sql_functions table (migrations 0039, 0041): one row per function, its parameters and return shape as JSON
// text; overloads of one name differ in `signature` (their sorted parameter names).

type Row = Selectable<SqlFunctionsTable>;

const toFunction = (row: Row): SqlFunction => ({
  id: Number(row.id),
  accountId: row.account_id,
  name: row.name,
  description: row.description,
  params: JSON.parse(row.params),
  returns: JSON.parse(row.returns),
  body: row.body,
  mode: row.mode === 'write' ? 'write' : 'read',
  callRule: row.call_rule as SqlFunction['callRule'],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** signatureOf is what tells overloads apart: the parameter names, sorted. */
export const signatureOf = (params: ReadonlyArray<{ name: string }>) =>
  params
    .map((p) => p.name)
    .sort()
    .join(',');

/** StoredDefinition is a checked definition with the mode its statement has. */
export interface StoredDefinition {
  input: SqlFunctionInput;
  mode: SqlFunctionMode;
}

const columnsOf = ({ input, mode }: StoredDefinition) => ({
  name: input.name,
  description: input.description ?? null,
  params: JSON.stringify(input.params),
  returns: JSON.stringify(input.returns),
  body: input.body,
  call_rule: input.callRule,
  signature: signatureOf(input.params),
  mode,
});

/** listFunctionsOf lists an account's functions by name (overloads by id). */
export async function listFunctionsOf(db: Executor, accountId: string): Promise<SqlFunction[]> {
  const rows = await db
    .selectFrom('sql_functions')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map(toFunction);
}

/** listFunctionsNamed is an account's functions of that name: one, its overloads, or none. */
export async function listFunctionsNamed(db: Executor, accountId: string, name: string): Promise<SqlFunction[]> {
  const rows = await db
    .selectFrom('sql_functions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .orderBy('id')
    .execute();
  return rows.map(toFunction);
}

/** findFunctionById is an account's function of that id, or null. */
export async function findFunctionById(db: Executor, accountId: string, id: number): Promise<SqlFunction | null> {
  const row = await db
    .selectFrom('sql_functions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toFunction(row) : null;
}

/** findOverload is an account's function of that name and those parameter names, or null. */
export async function findOverload(
  db: Executor,
  accountId: string,
  name: string,
  params: ReadonlyArray<{ name: string }>,
): Promise<SqlFunction | null> {
  const row = await db
    .selectFrom('sql_functions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .where('signature', '=', signatureOf(params))
    .executeTakeFirst();
  return row ? toFunction(row) : null;
}

/**
 * insertFunction stores a new function and returns its id; `restore` puts a deleted one back with its id and
 * creation time (history's revert of a delete).
 */
export async function insertFunction(
  db: Executor,
  accountId: string,
  definition: StoredDefinition,
  restore?: { id: number; createdAt: string },
): Promise<number> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('sql_functions')
    .values({
      ...(restore ? { id: restore.id } : {}),
      account_id: accountId,
      ...columnsOf(definition),
      created_at: restore?.createdAt ?? now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** updateFunction replaces a function's definition; false when it has none of that id. */
export async function updateFunction(
  db: Executor,
  accountId: string,
  id: number,
  definition: StoredDefinition,
): Promise<boolean> {
  const result = await db
    .updateTable('sql_functions')
    .set({ ...columnsOf(definition), updated_at: new Date().toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** deleteFunction removes a function; false when it has none of that id. */
export async function deleteFunction(db: Executor, accountId: string, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sql_functions')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
