import type { SqlDialect } from '../../db/dialect/dialect.js';
import { uniqueIndexName, userTableName } from '../../db/identifiers.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';

// The records service's errors, with PostgREST's codes so that every API can pass them on,
// and messages that name the user's table and column — never `t_<id>`. translateDatabaseError is the one
// place engine errors become ApiErrors (Directus' translateDatabaseError).

const shown = (name: string) => (name.length > 80 ? `${name.slice(0, 80)}…` : name);

/** unknownColumn is a body key that is not a column (PGRST204). */
export function unknownColumn(table: TableDefinition, column: string): ApiError {
  return new ApiError(
    400,
    'PGRST204',
    `Could not find the '${shown(column)}' column of '${table.name}' in the schema cache`,
    {
      fieldErrors: { [shown(column)]: [`"${table.name}" has no column "${shown(column)}"`] },
    },
  );
}

/** unknownFilterColumn is a filter or order column that is not a column (42703). */
export function unknownFilterColumn(table: TableDefinition, column: string): ApiError {
  return new ApiError(400, '42703', `column ${table.name}.${shown(column)} does not exist`);
}

/** invalidValue is a value its column cannot hold (22P02); column null means the record itself. */
export function invalidValue(table: TableDefinition, column: string | null, problem: string): ApiError {
  if (column === null) return new ApiError(400, 'PGRST102', problem);
  const message = `Invalid value for "${column}" in "${table.name}": ${problem}`;
  return new ApiError(400, '22P02', message, { fieldErrors: { [column]: [`"${column}" ${problem}`] } });
}

/** invalidFilter is a filter that does not fit its column (an operator or value of the wrong kind). */
export function invalidFilter(message: string, code = '42883'): ApiError {
  return new ApiError(400, code, message);
}

/**
 * jsonPathNeedsJson is PostgreSQL's 42883 for `->`/`->>` on what holds no JSON: a column of another type
 * (`text -> unknown`), or the text a `->>` step gave (only the last step may be `->>`).
 */
export function jsonPathNeedsJson(field: string, pgTypeName: string, arrow: string): ApiError {
  return new ApiError(400, '42883', `operator does not exist: ${pgTypeName} ${arrow} unknown`, {
    hint:
      pgTypeName === 'text' && field.includes('->>')
        ? `"${shown(field)}": ->> gives text, which has no keys; use -> for every step but the last`
        : `"${shown(field)}" is a ${pgTypeName} column; JSON paths need a json or array column`,
  });
}

/** invalidJsonPath is a JSON path no engine follows alike: too long, a NUL in a key, an index past `integer`. */
export function invalidJsonPath(message: string, code: 'PGRST100' | '22021' | '22003'): ApiError {
  return new ApiError(400, code, message);
}

/** invalidRegex is a match/imatch pattern the engine refuses (2201B). */
export function invalidRegex(message: string, hint?: string): ApiError {
  return new ApiError(400, '2201B', message, hint ? { hint } : {});
}

/**
 * queryTimeout is a statement the database stopped at its time limit (57014). Only what the client sent (a
 * filter, a pattern) can make a record query that slow, so it is a 400 that says what to do, not a 500.
 */
function queryTimeout(): ApiError {
  return new ApiError(400, '57014', 'The query took too long; narrow the filter', {
    hint: 'Filter with eq, in or ranges on the column, or use a shorter pattern',
  });
}

/** notNullViolation is a missing value of a required column (23502). */
export function notNullViolation(table: TableDefinition, column: string): ApiError {
  return new ApiError(
    400,
    '23502',
    `null value in column "${column}" of relation "${table.name}" violates not-null constraint`,
    { fieldErrors: { [column]: [`"${column}" is required`] } },
  );
}

/**
 * uniqueDetail is PostgreSQL's detail of a unique violation, `Key (title)=(Apple) already exists.`, with the
 * value as PostgreSQL prints it (db/pg-text.ts). The column is never quoted: PostgreSQL quotes `Title` or
 * `order` there, and its keyword list changes between versions; SQLite's answer could not follow it.
 */
export const uniqueDetail = (column: string, valueText: string) => `Key (${column})=(${valueText}) already exists.`;

// PostgreSQL's own detail, `Key ("Title")=(x) already exists.`, reworded with the bare column name.
const PG_UNIQUE_DETAIL = /^Key \((.*?)\)=\((.*)\) already exists\.$/s;

/** uniqueViolation is a value another record of the table already has (23505, 409). */
export function uniqueViolation(table: TableDefinition, column: string, detail: string | null): ApiError {
  const constraint = column === 'id' ? `${table.name}_pkey` : `${table.name}_${column}_key`;
  return new ApiError(409, '23505', `duplicate key value violates unique constraint "${constraint}"`, {
    details: detail ?? `Key (${column}) already exists.`,
    fieldErrors: { [column]: [`"${column}" must be unique: another record in "${table.name}" already has this value`] },
  });
}

/** tableChanged is a write that met a schema another process changed meanwhile. */
function tableChanged(table: TableDefinition): ApiError {
  return new ApiError(
    409,
    'table_changed',
    `The table "${table.name}" changed while the request ran; please try again`,
  );
}

function uniqueColumnOf(table: TableDefinition, sqlColumn: string | null, constraint: string | null): string | null {
  if (sqlColumn) return sqlColumn;
  if (constraint === `${userTableName(table.id)}_pkey`) return 'id';
  for (const column in table.schema) {
    if (constraint === uniqueIndexName(table.id, column)) return column;
  }
  return null;
}

/** translateDatabaseError turns an engine error about a table's data into an ApiError, or returns null. */
export function translateDatabaseError(dialect: SqlDialect, error: unknown, table: TableDefinition): ApiError | null {
  if (error instanceof ApiError) return error;
  const info = dialect.userTables.describeError(error);
  if (!info) return null;
  switch (info.kind) {
    case 'unique': {
      const column = uniqueColumnOf(table, info.column, info.constraint) ?? 'id';
      const value = info.detail === null ? undefined : PG_UNIQUE_DETAIL.exec(info.detail)?.[2];
      return uniqueViolation(table, column, value === undefined ? info.detail : uniqueDetail(column, value));
    }
    case 'notNull':
      return notNullViolation(table, info.column ?? 'id');
    case 'invalidValue':
      return new ApiError(400, '22P02', info.message);
    case 'invalidRegex':
      return invalidRegex(info.message, info.hint);
    case 'timeout':
      return queryTimeout();
    case 'duplicateInStatement':
      return new ApiError(400, '21000', 'A request cannot change the same record twice');
    case 'undefinedColumn':
    case 'undefinedTable':
      return tableChanged(table);
  }
}
