import type { Generated } from 'kysely';

// Accounts' tables and what is kept of them: definitions, history, checkpoints, counts, activity, API keys.
// Timestamps are ISO-8601 UTC strings and JSON is text on both engines, so that stores read the same values from
// SQLite and PostgreSQL; booleans are 0/1 integers for the same reason.

/** UserTablesTable holds table definitions; each one's rows live in the real table `t_<id>`. */
export interface UserTablesTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  /** Lower-cased name, unique per account, so that table names clash case-insensitively. */
  name_key: string;
  description: string | null;
  /** JSON object of the user's columns (name → {type, required, unique}), in order; system columns implied. */
  schema: string;
  /** Incremented by every change of the definition, so a cached copy can tell it is stale. */
  schema_version: number;
  /** JSON of the access rules (migration 0013); null: the default, nobody but the owner. */
  access: string | null;
  created_at: string;
  updated_at: string;
}

/** ChangeHistoryTable holds every schema and record change; it outlives the table it describes. */
export interface ChangeHistoryTable {
  id: Generated<number>;
  account_id: string;
  table_id: number;
  table_name: string;
  record_id: number | null;
  change_type: string;
  /** JSON of the state before the change (null for creations). */
  previous_state: string | null;
  /** JSON of the state after the change (null for deletions). */
  new_state: string | null;
  actor_id: string | null;
  created_at: string;
  /** The change a revert undid; null for every other change (migration 0004). */
  revert_of: number | null;
  /** Shared by the entries of one delete that cascaded; null for every other change (migration 0042). */
  change_group: string | null;
  /** On an entry a reference's rule wrote: the deleted row that caused it, `<tableId>:<recordId>`. */
  caused_by: string | null;
}

/** CheckpointsTable holds named checkpoints: a table's latest change when each was made (null: it had none). */
export interface CheckpointsTable {
  id: Generated<number>;
  account_id: string;
  table_id: number;
  name: string;
  description: string | null;
  change_id: number | null;
  created_by: string | null;
  created_at: string;
}

/** ChangeHistoryCountsTable holds how many history entries each account has of each table, in shards (db/history-counts.ts). */
export interface ChangeHistoryCountsTable {
  account_id: string;
  table_id: number;
  shard: number;
  change_count: number;
}

/** TableRowCountsTable holds each user table's exact row count and write versions, in shards (db/row-counts.ts). */
export interface TableRowCountsTable {
  table_id: number;
  shard: number;
  /** bigint: PostgreSQL returns it as text. */
  row_count: number | string;
  version: number | string;
}

/** ActivityLogsTable holds the per-account activity feed. */
export interface ActivityLogsTable {
  id: Generated<number>;
  account_id: string;
  action: string;
  resource: string;
  details: string | null;
  created_at: string;
}

/** ApiKeysTable holds the public record API's keys: a hash of each secret, never the secret itself. */
export interface ApiKeysTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  /** sha256 (hex) of the whole secret; unique, looked up by every API-key request. */
  key_hash: string;
  /** The secret's first characters (`bsk_` + 8), shown in the console to tell keys apart. */
  prefix: string;
  created_at: string;
  /** When the key was last used, to the minute (refreshed at most once a minute per process). */
  last_used_at: string | null;
}
