import { SYSTEM_COLUMNS, type TableSchema } from '@basalt/shared';
import type { UserTableShape } from '../../db/user-tables.js';

/**
 * TableDefinition is one table as the server uses it: the definition row, with `schema` holding only the
 * user's columns, in order (the system columns id, created_at and updated_at are implied).
 */
export interface TableDefinition extends UserTableShape {
  accountId: string;
  name: string;
  description: string | null;
  schemaVersion: number;
  createdAt: string;
  updatedAt: string;
}

/** TableResponse is a table as the APIs show it; its schema starts with the `id` column, as the console draws it. */
export interface TableResponse {
  id: number;
  name: string;
  description: string | null;
  schema: TableSchema;
  createdAt: string;
  updatedAt: string;
}

/** schemaWithIdColumn is a user schema with the `id` system column first. */
export function schemaWithIdColumn(schema: TableSchema): TableSchema {
  return { id: { ...SYSTEM_COLUMNS.id }, ...schema };
}

/** toTableResponse renders a definition for the APIs. */
export function toTableResponse(table: TableDefinition): TableResponse {
  return {
    id: table.id,
    name: table.name,
    description: table.description,
    schema: schemaWithIdColumn(table.schema),
    createdAt: table.createdAt,
    updatedAt: table.updatedAt,
  };
}
