import { type ColumnReference, isSystemColumnName, type TableSchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { danglingValues, syncReferenceIndexes } from '../../db/references.js';
import { conflict, invalid } from '../../http/errors.js';
import { findTableDefinitionByName, listTableDefinitions } from '../table-definitions/table-definitions.store.js';
import { SchemaChangeError, sameReference } from './schema-plan.js';
import type { TableDefinition } from './table-definition.js';

// A table's reference columns as schema: each names a table of the same account (or its own, a tree), a column
// that must be filled cannot be emptied on delete, and a reference added over existing rows must find every
// value it holds (409 naming the values that point nowhere). A table others refer to cannot be dropped or
// renamed while they do (409 naming them). Each reference column has an index (db/references.ts), kept after
// every change, since a SQLite rebuild drops indexes.

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const hasColumn = (schema: TableSchema, name: string) => isSystemColumnName(name) || Object.hasOwn(schema, name);

interface Shape {
  id: number;
  name: string;
  schema: TableSchema;
}

/**
 * checkReferences checks the references a create (previous null) or schema change adds or changes, in the
 * change's transaction, and keeps the indexes of all of them.
 */
export async function checkReferences(
  scope: Db,
  accountId: string,
  table: Shape,
  previous: TableSchema | null,
): Promise<void> {
  for (const [column, definition] of Object.entries(table.schema)) {
    const ref: ColumnReference | undefined = definition.references;
    if (!ref) continue;
    const before = previous?.[column]?.references;
    const moved = previous === null || !sameReference(before, ref);
    // The label is checked when it is set, not when its column is later dropped (the console falls back).
    const relabelled = ref.label !== undefined && (moved || before?.label !== ref.label);
    if (!moved && !relabelled) continue;
    if (moved && ref.onDelete === 'set null' && definition.required) {
      throw invalid({
        [column]: [`"${column}" is required: its rows cannot be set to null when the row it references is deleted`],
      });
    }
    const target = sameName(ref.table, table.name)
      ? table
      : await findTableDefinitionByName(scope.kysely, accountId, ref.table);
    if (!target) throw invalid({ [column]: [`"${column}" references the table "${ref.table}", which does not exist`] });
    if (relabelled && ref.label !== undefined && !hasColumn(target.schema, ref.label)) {
      throw invalid({
        [column]: [`"${column}" is shown by "${ref.label}", which is not a column of "${target.name}"`],
      });
    }
    if (previous === null || !moved) continue;
    const dangling = await danglingValues(scope.kysely, table.id, column, target.id);
    if (dangling.length > 0) {
      throw new SchemaChangeError(
        `Column "${column}" cannot reference "${target.name}": it holds values that are no id of "${target.name}" (${dangling.join(', ')})`,
        column,
        409,
        'schema_change_refused',
      );
    }
  }
  await syncReferenceIndexes(scope.kysely, table.id, table.schema);
}

/** referringTables names the other tables of the account with a column referring to this one. */
export async function referringTables(scope: Db, table: TableDefinition): Promise<string[]> {
  const tables = await listTableDefinitions(scope.kysely, table.accountId);
  return tables
    .filter(
      (other) =>
        other.id !== table.id &&
        Object.values(other.schema).some((c) => c.references && sameName(c.references.table, table.name)),
    )
    .map((other) => other.name);
}

/** assertNotReferenced refuses to drop or rename a table other tables refer to (409 naming them). */
export async function assertNotReferenced(scope: Db, table: TableDefinition, doing: 'deleted' | 'renamed') {
  const referring = await referringTables(scope, table);
  if (referring.length === 0) return;
  const names = referring.map((n) => `"${n}"`).join(', ');
  throw conflict(
    `The table "${table.name}" cannot be ${doing}: ${names} ${referring.length === 1 ? 'references' : 'reference'} it. Remove those references first.`,
    'table_referenced',
  );
}
