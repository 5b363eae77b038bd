import { SYSTEM_COLUMNS, type TableAccess, type TableSchema } from '@basalt/shared';
import type { TableDefinition } from '../../db/user-tables.js';
import { accessOf } from './table-access.js';

export type { TableDefinition } from '../../db/user-tables.js';

/** TableResponse is a table as the APIs show it; its schema starts with the `id` column, as the console draws it. */
export interface TableResponse {
  id: number;
  name: string;
  description: string | null;
  schema: TableSchema;
  /** Who of the app's callers may read and write the rows (issue "Apps with their own users"). */
  access: TableAccess;
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
    access: accessOf(table),
    createdAt: table.createdAt,
    updatedAt: table.updatedAt,
  };
}
