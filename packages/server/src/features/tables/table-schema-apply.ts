import type { ColumnDefinition, TableSchema } from '@basalt/shared';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import type { Executor } from '../../db/user-tables.js';
import { type AppliedSchemaChange, applySchemaChange, type DroppedColumnData } from './schema-change.js';
import { writeColumnValues } from './schema-change.store.js';
import { planSchemaChange, SchemaChangeError } from './schema-plan.js';

// A table's schema change with data to put back: history's revert of a change that dropped or retyped columns
// gives their saved values (DroppedColumnData). The columns that receive data are first created or changed
// without their required and unique flags, then filled, then the flags are set with the plan's own
// preconditions: a record added since that has no value for a restored required column refuses the change
// with the usual 409 naming the column and the count. Without data it is one plan, as any schema change.

/** TableSchemaChange is the complete new schema, the explicit renames, and data for columns of the new schema. */
export interface TableSchemaChange {
  schema: TableSchema;
  renames: Record<string, string>;
  /** Values by column (of the new schema) and record id; a record that no longer exists is skipped. */
  columnData: DroppedColumnData;
}

interface Table {
  id: number;
  schema: TableSchema;
}

// The new schema in the order the change lists its columns: a column brought back returns to its place.
function inOrderOf(target: TableSchema, schema: TableSchema): TableSchema {
  const ordered = Object.keys(target).filter((name) => Object.hasOwn(schema, name));
  const rest = Object.keys(schema).filter((name) => !Object.hasOwn(target, name));
  return Object.fromEntries([...ordered, ...rest].map((name) => [name, schema[name] as ColumnDefinition]));
}

async function writeData(
  db: Executor,
  dialect: SqlDialect,
  table: Table,
  column: string,
  data: Record<string, unknown>,
) {
  const definition = table.schema[column];
  if (!definition) return;
  const type = columnTypeOf(definition.type);
  const values = Object.entries(data).map(([id, value]) => {
    const parsed = type.parseInput(value, { from: 'json' });
    if (!parsed.ok) {
      throw new SchemaChangeError(
        `The saved values of "${column}" cannot be written back: one ${parsed.message}`,
        column,
        409,
      );
    }
    return { id: Number(id), value: type.toStorage(parsed.value, dialect.name) };
  });
  const sqlType = type.sqlType[dialect.name];
  await writeColumnValues(db, dialect, { tableId: table.id, column, sqlType }, values);
}

/**
 * applyTableSchema changes a locked table's schema inside the caller's transaction and writes the given column
 * data back; it returns what changed (the schema in the order of `change.schema`), or null when the schema
 * is already the one asked for.
 */
export async function applyTableSchema(
  db: Executor,
  dialect: SqlDialect,
  current: Table,
  change: TableSchemaChange,
): Promise<AppliedSchemaChange | null> {
  const target = change.schema;
  const plan = planSchemaChange(current.schema, target, change.renames);
  if (plan.steps.length === 0) return null;
  const filled = Object.keys(change.columnData).filter((name) => Object.hasOwn(target, name));
  if (filled.length === 0) {
    const applied = await applySchemaChange(db, dialect, current, plan);
    return { ...applied, schema: inOrderOf(target, applied.schema) };
  }
  const added = new Set(plan.steps.flatMap((step) => (step.kind === 'addColumn' ? [step.column] : [])));
  const relaxed: TableSchema = { ...target };
  for (const name of filled) {
    const definition = target[name] as ColumnDefinition;
    relaxed[name] = { ...definition, unique: false, required: added.has(name) ? false : definition.required };
  }
  const first = await applySchemaChange(
    db,
    dialect,
    current,
    planSchemaChange(current.schema, relaxed, change.renames),
  );
  const filledTable = { id: current.id, schema: first.schema };
  for (const name of filled) await writeData(db, dialect, filledTable, name, change.columnData[name] ?? {});
  const second = await applySchemaChange(db, dialect, filledTable, planSchemaChange(first.schema, target));
  return { schema: inOrderOf(target, second.schema), dropped: first.dropped, retyped: first.retyped };
}
