import { z } from 'zod';

// SQL Execution: database connections of a project, its SQL files, runs of SQL against a connection and their
// history. The server validates requests with these and the console reads the answers with them.

/** SQL_LIMITS are the limits of SQL runs, files and connections. */
export const SQL_LIMITS = {
  timeoutMin: 1000,
  timeoutMax: 300_000,
  timeoutDefault: 30_000,
  /** Rows kept per statement in a result; rowCount still says how many there were. */
  resultRows: 1000,
  /** Rows the console shows per statement ("Showing 10 of N rows"). */
  previewRows: 10,
  /** Largest SQL file accepted by the upload. */
  fileMaxBytes: 10 * 1024 * 1024,
  /** Characters of a run's SQL kept in the query history. */
  historyQueryMax: 100_000,
  nameMax: 100,
  descriptionMax: 500,
  variablesMax: 100,
} as const;

/** DATABASE_PROVIDERS are where a registered database is hosted. */
export const DATABASE_PROVIDERS = ['SUPABASE', 'NEON', 'PLANETSCALE', 'CURSOR', 'CUSTOM'] as const;
/** DATABASE_ENGINES are the engines of the data model; MONGODB is refused (not supported yet). */
export const DATABASE_ENGINES = ['POSTGRESQL', 'MYSQL', 'MONGODB'] as const;
/** DatabaseEngine is one of DATABASE_ENGINES. */
export type DatabaseEngine = (typeof DATABASE_ENGINES)[number];

const noNul = (text: string) => !text.includes('\u0000');
const text = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .max(max, `${what} cannot exceed ${max} characters`)
    .refine(noNul, `${what} cannot contain NUL characters`);

const timeoutSchema = z
  .number({ error: 'Timeout must be a number of milliseconds' })
  .int('Timeout must be a whole number of milliseconds')
  .min(SQL_LIMITS.timeoutMin, 'Timeout must be at least 1000ms')
  .max(SQL_LIMITS.timeoutMax, 'Timeout cannot exceed 5 minutes')
  .default(SQL_LIMITS.timeoutDefault);

const variableReplacementsSchema = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Variable names are letters, digits and underscores'),
    z
      .union([z.string(), z.number(), z.boolean()], { error: 'Variable values must be text, numbers or booleans' })
      .transform(String)
      .refine(noNul, 'Variable values cannot contain NUL characters'),
  )
  .refine((values) => Object.keys(values).length <= SQL_LIMITS.variablesMax, 'Too many variables')
  .default({});

/** sqlRunOptionsSchema is `options` of both runs, with the defaults of the spec. */
export const sqlRunOptionsSchema = z
  .object({
    dryRun: z.boolean({ error: 'dryRun must be true or false' }).default(false),
    transactional: z.boolean({ error: 'transactional must be true or false' }).default(true),
    stopOnError: z.boolean({ error: 'stopOnError must be true or false' }).default(true),
    timeout: timeoutSchema,
    variableReplacements: variableReplacementsSchema,
  })
  .default({
    dryRun: false,
    transactional: true,
    stopOnError: true,
    timeout: SQL_LIMITS.timeoutDefault,
    variableReplacements: {},
  });
/** SqlRunOptions are a run's options with their defaults applied. */
export type SqlRunOptions = z.output<typeof sqlRunOptionsSchema>;

const positiveId = (message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(Number.MAX_SAFE_INTEGER, message);

/** executeSqlFileSchema is POST /api/projects/:id/files/execute-sql. */
export const executeSqlFileSchema = z.object({
  fileId: positiveId('Select a SQL file to execute'),
  connectionId: positiveId('Database connection is required').optional(),
  options: sqlRunOptionsSchema,
});
/** ExecuteSqlFileInput is a run of a SQL file. */
export type ExecuteSqlFileInput = z.input<typeof executeSqlFileSchema>;

/** executeDirectSqlSchema is POST /api/projects/:id/execute-direct-sql. */
export const executeDirectSqlSchema = z.object({
  sql: z
    .string({ error: 'SQL query is required' })
    .refine((sql) => sql.trim().length > 0, 'SQL query is required')
    .refine(noNul, 'SQL cannot contain NUL characters'),
  connectionId: positiveId('Database connection is required'),
  options: sqlRunOptionsSchema,
});
/** ExecuteDirectSqlInput is a run of SQL typed in the console. */
export type ExecuteDirectSqlInput = z.input<typeof executeDirectSqlSchema>;

/** sqlStatementResultSchema is one statement's outcome: `result` holds its first rows, rowCount how many. */
export const sqlStatementResultSchema = z.object({
  statement: z.string(),
  success: z.boolean(),
  executionTime: z.number(),
  rowCount: z.number(),
  result: z.array(z.record(z.string(), z.unknown())),
  error: z.string().nullable(),
});
/** SqlStatementResult is one statement's outcome. */
export type SqlStatementResult = z.infer<typeof sqlStatementResultSchema>;

/** sqlExecutionResultSchema is the answer of both runs. */
export const sqlExecutionResultSchema = z.object({
  message: z.string(),
  dryRun: z.boolean(),
  summary: z.object({
    totalStatements: z.number(),
    successfulStatements: z.number(),
    failedStatements: z.number(),
    dryRun: z.boolean(),
  }),
  results: z.array(sqlStatementResultSchema),
});
/** SqlExecutionResult is the answer of a run. */
export type SqlExecutionResult = z.infer<typeof sqlExecutionResultSchema>;

/** connectionDetailsSchema is a connection given field by field instead of as a URL. */
export const connectionDetailsSchema = z.object({
  host: text('Host', 255).refine((host) => host.trim().length > 0, 'Host is required'),
  port: z
    .number({ error: 'Port must be a number' })
    .int()
    .min(1, 'Port must be 1 to 65535')
    .max(65535, 'Port must be 1 to 65535')
    .optional(),
  database: text('Database', 255).optional(),
  username: text('Username', 255).optional(),
  password: text('Password', 1024).optional(),
  ssl: z.boolean({ error: 'ssl must be true or false' }).optional(),
});
/** ConnectionDetails are a connection's fields. */
export type ConnectionDetails = z.infer<typeof connectionDetailsSchema>;

const engineSchema = z
  .enum(DATABASE_ENGINES, { error: 'Engine must be one of: POSTGRESQL, MYSQL' })
  .refine((engine) => engine !== 'MONGODB', 'MongoDB connections are not supported yet');

const connectionFields = {
  name: text('Name', SQL_LIMITS.nameMax).refine((name) => name.trim().length > 0, 'Name is required'),
  provider: z.enum(DATABASE_PROVIDERS, {
    error: 'Provider must be one of: SUPABASE, NEON, PLANETSCALE, CURSOR, CUSTOM',
  }),
  engine: engineSchema,
  connectionString: text('Connection string', 2048).optional(),
  connectionDetails: connectionDetailsSchema.optional(),
  isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
};

/** createConnectionSchema is POST /api/projects/:id/database-connections. */
export const createConnectionSchema = z
  .object(connectionFields)
  .refine((input) => Boolean(input.connectionString?.trim()) !== Boolean(input.connectionDetails), {
    message: 'Give either a connection string or connection details',
    path: ['connectionString'],
  });
/** CreateConnectionInput is a new connection. */
export type CreateConnectionInput = z.input<typeof createConnectionSchema>;

/** updateConnectionSchema is PATCH …/database-connections/:connectionId: any of the fields. */
export const updateConnectionSchema = z
  .object({
    name: connectionFields.name.optional(),
    provider: connectionFields.provider.optional(),
    engine: engineSchema.optional(),
    connectionString: connectionFields.connectionString,
    connectionDetails: connectionFields.connectionDetails,
    isActive: connectionFields.isActive,
  })
  .strict()
  .refine((input) => !(input.connectionString && input.connectionDetails), {
    message: 'Give either a connection string or connection details',
    path: ['connectionString'],
  });
/** UpdateConnectionInput is a change of a connection. */
export type UpdateConnectionInput = z.input<typeof updateConnectionSchema>;

/** databaseConnectionSchema is a connection as the API answers it: its secret parts masked. */
export const databaseConnectionSchema = z.object({
  id: z.number(),
  projectId: z.string(),
  userId: z.string(),
  name: z.string(),
  provider: z.enum(DATABASE_PROVIDERS),
  engine: z.enum(DATABASE_ENGINES),
  /** The URL with its password replaced by ****, or null when the connection was given by details. */
  connectionString: z.string().nullable(),
  /** The details without the password (hasPassword says whether one is kept). */
  connectionDetails: z
    .object({
      host: z.string(),
      port: z.number(),
      database: z.string().nullable(),
      username: z.string().nullable(),
      ssl: z.boolean(),
      hasPassword: z.boolean(),
    })
    .nullable(),
  isActive: z.boolean(),
  lastConnected: z.string().nullable(),
  createdAt: z.string(),
});
/** DatabaseConnection is one registered connection. */
export type DatabaseConnection = z.infer<typeof databaseConnectionSchema>;

/** connectionTestSchema is the answer of POST …/database-connections/:connectionId/test. */
export const connectionTestSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  latencyMs: z.number().nullable(),
  serverVersion: z.string().nullable(),
  lastConnected: z.string().nullable(),
});
/** ConnectionTest is a connection test's outcome. */
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

/** storedFileSchema is a row of file_storage as the API answers it. */
export const storedFileSchema = z.object({
  id: z.number(),
  projectId: z.string(),
  userId: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  /** The storage key of the bytes (not a path on the server's disk). */
  filePath: z.string(),
  fileSize: z.number(),
  publicUrl: z.string().nullable(),
  metadata: z.object({ description: z.string().nullable() }).catchall(z.unknown()),
  createdAt: z.string(),
});
/** StoredFile is an uploaded file. */
export type StoredFile = z.infer<typeof storedFileSchema>;

/** uploadDescriptionSchema is the description field of the upload. */
export const uploadDescriptionSchema = text('Description', SQL_LIMITS.descriptionMax).optional();

/** queryHistoryEntrySchema is one run in the query history. */
export const queryHistoryEntrySchema = z.object({
  id: z.number(),
  projectId: z.string(),
  userId: z.string(),
  query: z.string(),
  executionTime: z.number(),
  rowsAffected: z.number(),
  successful: z.boolean(),
  errorMessage: z.string().nullable(),
  executedAt: z.string(),
  connectionId: z.number().nullable(),
  fileId: z.number().nullable(),
  dryRun: z.boolean(),
});
/** QueryHistoryEntry is one run in the query history. */
export type QueryHistoryEntry = z.infer<typeof queryHistoryEntrySchema>;

/** connectionTablesSchema is GET …/database-connections/:connectionId/tables: names for the editor's completion. */
export const connectionTablesSchema = z.object({
  tables: z.array(z.object({ name: z.string(), columns: z.array(z.string()) })),
});
/** ConnectionTables are a connection's tables and their columns. */
export type ConnectionTables = z.infer<typeof connectionTablesSchema>;
