import { z } from 'zod';
import { COLUMN_TYPES, columnTypeSchema, IDENTIFIER_PATTERN } from './tables.schemas.js';

/** AUTH_UID is the placeholder of a SQL function's statement that holds the caller's end-user id. */
export const AUTH_UID = 'auth_uid';

// SQL functions (`/rest/v1/rpc/<name>`, docs/rpc.md): a definition as POST /api/functions/sql and PUT …/:name take
// it, and as the API answers it.

/** SQL_FUNCTION_LIMITS bound a definition: enough for any real function, small enough to check quickly. */
export const SQL_FUNCTION_LIMITS = {
  nameMax: 63,
  bodyMax: 10_000,
  paramsMax: 20,
  columnsMax: 100,
  descriptionMax: 500,
};

const name = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .min(1, `${what} is required`)
    .max(SQL_FUNCTION_LIMITS.nameMax, `${what} must be at most ${SQL_FUNCTION_LIMITS.nameMax} characters`)
    .regex(IDENTIFIER_PATTERN, `${what} must start with a letter and hold only letters, digits and underscores`);

const typed = (what: string) => z.object({ name: name(what), type: columnTypeSchema }).strict();

// A JSON value, without zod's recursive json type (react-hook-form's paths would recurse through it forever).
const defaultValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()),
]);

/**
 * sqlFunctionParamSchema is a parameter: a name, a column type and, optionally, a default (a JSON value of that
 * type, checked by the server) that a call may then leave out, like `p integer DEFAULT 10`.
 */
export const sqlFunctionParamSchema = z
  .object({
    name: name('A parameter name'),
    type: columnTypeSchema,
    default: defaultValue.optional(),
  })
  .strict();

/** SQL_FUNCTION_MODES: a function that only reads (callable with GET), or one that writes (POST only). */
export const SQL_FUNCTION_MODES = ['read', 'write'] as const;
export type SqlFunctionMode = (typeof SQL_FUNCTION_MODES)[number];

const uniqueNames = (items: Array<{ name: string }>) => new Set(items.map((i) => i.name)).size === items.length;

/** CALL_RULES say who of the app's callers may call a function; the owner and the service key always may. */
export const CALL_RULES = ['nobody', 'authenticated', 'public'] as const;
export type CallRule = (typeof CALL_RULES)[number];

const SYSTEM_COLUMN_TYPES: Record<string, string | undefined> = {
  id: 'number',
  created_at: 'date',
  updated_at: 'date',
};

/** sqlFunctionReturnsSchema is the return shape: a scalar of a column type, one row, or rows (columns or a table's). */
export const sqlFunctionReturnsSchema = z
  .object({
    kind: z.enum(['scalar', 'row', 'rows'], { error: 'returns.kind must be one of: scalar, row, rows' }),
    type: columnTypeSchema.optional(),
    columns: z
      .array(typed('A column name'))
      .min(1, 'columns must list at least one column')
      .max(SQL_FUNCTION_LIMITS.columnsMax)
      .refine(uniqueNames, 'Column names must be unique')
      .optional(),
    table: name('The table name').optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.kind === 'scalar') {
      if (!value.type || value.columns || value.table) {
        ctx.addIssue({ code: 'custom', message: `A scalar return needs a type (${COLUMN_TYPES.join(', ')}) only` });
      }
    } else if (value.type || (value.columns === undefined) === (value.table === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'A row or rows return needs either columns or a table' });
    }
    // Filters read these names as every table's own columns.
    for (const column of value.columns ?? []) {
      const fixed = SYSTEM_COLUMN_TYPES[column.name];
      if (fixed && column.type !== fixed) {
        ctx.addIssue({ code: 'custom', message: `A column named ${column.name} must be of type ${fixed}` });
      }
    }
  });

/** sqlFunctionInputSchema is a whole definition. */
export const sqlFunctionInputSchema = z
  .object({
    name: name('The function name'),
    description: z.string().max(SQL_FUNCTION_LIMITS.descriptionMax).nullable().optional(),
    params: z
      .array(sqlFunctionParamSchema)
      .max(SQL_FUNCTION_LIMITS.paramsMax, `A function takes at most ${SQL_FUNCTION_LIMITS.paramsMax} parameters`)
      .refine(uniqueNames, 'Parameter names must be unique')
      .refine((ps) => ps.every((p) => p.name !== AUTH_UID), `${AUTH_UID} is given by Basalt: name it otherwise`)
      .default([]),
    returns: sqlFunctionReturnsSchema,
    body: z
      .string({ error: 'body is required' })
      .min(1, 'body is required')
      .max(SQL_FUNCTION_LIMITS.bodyMax, `body must be at most ${SQL_FUNCTION_LIMITS.bodyMax} characters`),
    callRule: z.enum(CALL_RULES, { error: 'callRule must be one of: nobody, authenticated, public' }).default('nobody'),
  })
  .strict();

/** SqlFunctionInput is a checked definition. */
export type SqlFunctionInput = z.output<typeof sqlFunctionInputSchema>;
/** SqlFunctionReturns is a function's return shape. */
export type SqlFunctionReturns = z.output<typeof sqlFunctionReturnsSchema>;
/** TypedName is a parameter or a result column. */
export type TypedName = z.output<ReturnType<typeof typed>>;
/** SqlFunctionParam is a parameter, with its default when it has one. */
export type SqlFunctionParam = z.output<typeof sqlFunctionParamSchema>;

/** sqlFunctionSchema is a stored function as the API answers it. */
export const sqlFunctionSchema = z.object({
  id: z.number(),
  accountId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  params: z.array(z.object({ name: z.string(), type: columnTypeSchema, default: defaultValue.optional() })),
  returns: sqlFunctionReturnsSchema,
  body: z.string(),
  /** Whether its statement reads (SELECT) or writes (INSERT, UPDATE or DELETE), from the statement itself. */
  mode: z.enum(SQL_FUNCTION_MODES),
  callRule: z.enum(CALL_RULES),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** SqlFunction is a stored definition. */
export type SqlFunction = z.output<typeof sqlFunctionSchema>;
