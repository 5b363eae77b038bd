import type { Generated } from 'kysely';

// Edge functions and their secrets: versions, invocations, usage, sealed secrets and data keys.
// Timestamps are ISO-8601 UTC strings and JSON is text on both engines, so that stores read the same values from
// SQLite and PostgreSQL; booleans are 0/1 integers for the same reason.

/** EdgeFunctionsTable holds edge functions (features/functions): the code being edited and the version that runs. */
export interface EdgeFunctionsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  /** Lower-cased name, unique per account. */
  name_key: string;
  code: string;
  /** The URL under /api/edge/ it answers at; unique on the instance. */
  route: string;
  is_active: number;
  /** 1: only a signed-in caller of the account may invoke it (Supabase's verify_jwt). */
  verify_jwt: number;
  /** The edge_function_versions.version that runs; null: never deployed. */
  deployed_version: number | null;
  last_deployed: string | null;
  created_at: string;
  updated_at: string;
}

/** EdgeFunctionVersionsTable holds every deployed version: its source and the bundle Deno runs. */
export interface EdgeFunctionVersionsTable {
  id: Generated<number>;
  function_id: number;
  version: number;
  code: string;
  bundle: string;
  created_at: string;
}

/** FunctionInvocationsTable holds each invocation of a function (its log), kept for a few days. */
export interface FunctionInvocationsTable {
  id: Generated<number>;
  account_id: string;
  function_id: number;
  method: string;
  status: number;
  duration_ms: number;
  cpu_ms: number;
  memory_mb: number;
  error: string | null;
  /** JSON array of {level, message}: the function's console output. */
  logs: string;
  created_at: string;
}

/** FunctionUsageTable counts invocations, errors and compute per function and hour (what billing reads). */
export interface FunctionUsageTable {
  function_id: number;
  /** The hour's start, ISO 8601 UTC. */
  hour: string;
  account_id: string;
  /** bigint columns: PostgreSQL answers them as strings, so stores convert. */
  invocations: number | string;
  errors: number | string;
  cpu_ms: number | string;
  duration_ms: number | string;
}

/** SecretsTable holds the secrets functions read: an encrypted value is AES-256-GCM ciphertext (lib/crypto). */
export interface SecretsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  value: string;
  is_encrypted: number;
  created_at: string;
}

/** AccountDataKeysTable holds each account's secrets key, wrapped by the master key named by master_key_id. */
export interface AccountDataKeysTable {
  account_id: string;
  wrapped_key: string;
  master_key_id: string;
  created_at: string;
}

/** SqlFunctionsTable holds the SQL functions of `/rest/v1/rpc` (features/sql-functions, migration 0039). */
export interface SqlFunctionsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  description: string | null;
  /** JSON: [{name, type}], in order. */
  params: string;
  /** JSON: the return shape (scalar, one row or rows). */
  returns: string;
  /** The one SELECT statement as the owner wrote it (`:name` placeholders, the account's table names). */
  body: string;
  /** Who of the app's callers may call it: nobody, authenticated or public. */
  call_rule: string;
  /** The sorted parameter names, comma-separated: overloads of one name differ in it (migration 0041). */
  signature: string;
  /** read (a SELECT) or write (INSERT, UPDATE or DELETE), from the statement. */
  mode: string;
  created_at: string;
  updated_at: string;
}
