import type { Selectable } from 'kysely';
import type { SqlFunctionsTable } from '../../db/schema/function-tables.js';
import type { Executor } from '../../db/user-tables.js';
import type { SqlFunction, SqlFunctionInput } from './sql-functions.schemas.js';

// The sql_functions table (migration 0039): one row per function, its parameters and return shape as JSON text.

type Row = Selectable<SqlFunctionsTable>;

const toFunction = (row: Row): SqlFunction => ({
  id: Number(row.id),
  accountId: row.account_id,
  name: row.name,
  description: row.description,
  params: JSON.parse(row.params),
  returns: JSON.parse(row.returns),
  body: row.body,
  callRule: row.call_rule as SqlFunction['callRule'],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const columnsOf = (input: SqlFunctionInput) => ({
  name: input.name,
  description: input.description ?? null,
  params: JSON.stringify(input.params),
  returns: JSON.stringify(input.returns),
  body: input.body,
  call_rule: input.callRule,
});

/** listFunctionsOf lists an account's functions by name. */
export async function listFunctionsOf(db: Executor, accountId: string): Promise<SqlFunction[]> {
  const rows = await db
    .selectFrom('sql_functions')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('name')
    .execute();
  return rows.map(toFunction);
}

/** findFunctionNamed is an account's function of that name, or null. */
export async function findFunctionNamed(db: Executor, accountId: string, name: string): Promise<SqlFunction | null> {
  const row = await db
    .selectFrom('sql_functions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? toFunction(row) : null;
}

/** insertFunction stores a new function. */
export async function insertFunction(db: Executor, accountId: string, input: SqlFunctionInput): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('sql_functions')
    .values({ account_id: accountId, ...columnsOf(input), created_at: now, updated_at: now })
    .execute();
}

/** updateFunction replaces a function's definition; false when there is none of that name. */
export async function updateFunction(
  db: Executor,
  accountId: string,
  name: string,
  input: SqlFunctionInput,
): Promise<boolean> {
  const result = await db
    .updateTable('sql_functions')
    .set({ ...columnsOf(input), updated_at: new Date().toISOString() })
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** deleteFunction removes a function; false when there is none of that name. */
export async function deleteFunction(db: Executor, accountId: string, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sql_functions')
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
