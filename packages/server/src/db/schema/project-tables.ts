import type { Generated } from 'kysely';

// Projects and what belongs to them: members, table links, schema layouts, SQL connections, files, query history.
// Timestamps are ISO-8601 UTC strings and JSON is text on both engines, so that stores read the same values from
// SQLite and PostgreSQL; booleans are 0/1 integers for the same reason.

/** ProjectsTable holds projects, the team workspaces accounts are members of (migration 0010). */
export interface ProjectsTable {
  id: string;
  name: string;
  description: string | null;
  owner_id: string;
  icon: string | null;
  color: string | null;
  is_active: number;
  created_at: string;
  updated_at: string;
}

/** ProjectMembershipsTable holds who is a member of which project, with which role. */
export interface ProjectMembershipsTable {
  id: Generated<number>;
  project_id: string;
  account_id: string;
  /** OWNER, ADMIN, DEVELOPER, EDITOR or VIEWER. */
  role: string;
  joined_at: string;
  invited_by: string | null;
  created_at: string;
}

/** TableProjectsTable links tables to projects (no foreign key to user_tables: a restored table keeps its links). */
export interface TableProjectsTable {
  id: Generated<number>;
  table_id: number;
  project_id: string;
  created_at: string;
}

/** SchemaLayoutsTable holds a project's Schema Editor layout: its elements (JSON), version and deleted ids. */
export interface SchemaLayoutsTable {
  id: Generated<number>;
  project_id: string;
  name: string;
  layout: string;
  version: number;
  /** JSON array of the element ids deleted in the room (so a late update cannot bring one back). */
  deleted_ids: string;
  is_default: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** SchemaLayoutVersionsTable keeps a project's recent layout versions, the bases editors' updates merge against. */
export interface SchemaLayoutVersionsTable {
  project_id: string;
  version: number;
  layout: string;
  created_at: string;
}

/** DatabaseConnectionsTable holds a project's SQL targets (features/sql); secrets only sealed. */
export interface DatabaseConnectionsTable {
  id: Generated<number>;
  project_id: string;
  user_id: string;
  name: string;
  provider: string;
  engine: string;
  /** The connection string with its password masked, or null when given by details. */
  connection_string: string | null;
  /** JSON of the details without the password, or null when given by a string. */
  connection_details: string | null;
  /** The connection string or details in full, sealed (features/sql/connection-secrets.ts). */
  secret_sealed: string;
  is_active: number;
  last_connected: string | null;
  created_at: string;
  updated_at: string;
}

/** FileStorageTable holds uploaded files; their bytes are in the file storage under file_path (lib/storage). */
export interface FileStorageTable {
  id: Generated<number>;
  project_id: string;
  user_id: string;
  file_name: string;
  file_type: string;
  file_path: string;
  file_size: number;
  public_url: string | null;
  /** JSON object: {description}. */
  metadata: string;
  created_at: string;
}

/** QueryHistoryTable holds one row per SQL run (features/sql). */
export interface QueryHistoryTable {
  id: Generated<number>;
  project_id: string;
  user_id: string;
  connection_id: number | null;
  file_id: number | null;
  query: string;
  execution_time: number;
  rows_affected: number;
  successful: number;
  error_message: string | null;
  dry_run: number;
  executed_at: string;
}
