import type { ColumnType, TableSchema } from '@basalt/shared';
import { createColumnIndex, dropColumnIndex, syncColumnIndexes } from '../../db/column-indexes.js';
import { storedDefault } from '../../db/column-types/column-default.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import { dropReferenceIndex } from '../../db/references.js';
import { createSearchIndex, dropSearchIndex, syncSearchIndexes } from '../../db/text-search/search-index.js';
import {
  addColumn,
  changeRequired,
  dropColumn,
  dropUniqueIndexSql,
  type Executor,
  renameColumn,
  uniqueIndexSql,
} from '../../db/user-tables.js';
import {
  countAllRows,
  countDuplicateRows,
  countNullRows,
  fillColumn,
  selectColumnValues,
  writeColumnValues,
} from './schema-change.store.js';
import {
  applyPlanToSchema,
  SchemaChangeError,
  type SchemaChangePlan,
  type SchemaPrecondition,
  type SchemaStep,
  schemaChangeRefused,
} from './schema-plan.js';

// Runs a planned schema change (schema-plan.ts) on the real table, inside the caller's transaction: before
// each step its preconditions are counted against the table as the earlier steps left it, and the first one
// that rows break refuses the change (409 naming the column and the count); the caller's rollback then
// undoes every step. A retype converts each value with the column types' convertValue, the one definition of
// what converts, on both engines: the values are read, the column is re-created with the new type, and the
// converted values are written back.

/**
 * DroppedColumnData keeps the values of columns by record id (only values that are not NULL), under each
 * column's name before the change: what a change dropped or retyped, so that history can bring it back.
 */
export type DroppedColumnData = Record<string, Record<string, unknown>>;

interface Table {
  id: number;
  schema: TableSchema;
}

async function offendingRows(db: Executor, dialect: SqlDialect, table: Table, precondition: SchemaPrecondition) {
  switch (precondition.check) {
    case 'tableEmpty':
      return countAllRows(db, table.id);
    case 'noNulls':
      return countNullRows(db, table.id, precondition.column);
    case 'noDuplicates':
      return countDuplicateRows(db, table.id, precondition.column);
    case 'valuesConvert': {
      const from = precondition.from ?? table.schema[precondition.column]?.type ?? 'text';
      const to = columnTypeOf(precondition.to ?? from);
      const values = await selectColumnValues(db, table.id, precondition.column);
      const source = columnTypeOf(from);
      return values.filter(({ value }) => !to.convertValue(source.fromStorage(value, dialect.name), from).ok).length;
    }
  }
}

async function retype(
  db: Executor,
  dialect: SqlDialect,
  before: Table,
  after: Table,
  step: Extract<SchemaStep, { kind: 'retypeColumn' }>,
) {
  const source = columnTypeOf(step.from);
  const target = columnTypeOf(step.to);
  const converted = (await selectColumnValues(db, before.id, step.column)).map(({ id, value }) => {
    const result = target.convertValue(source.fromStorage(value, dialect.name), step.from);
    // The valuesConvert precondition ran first: a failure here means the rows changed under us.
    if (!result.ok) throw new Error(`retype: value of record ${id} does not convert`);
    return { id, value: target.toStorage(result.value, dialect.name) };
  });
  await dropColumn(db, before.id, step.column);
  await addColumn(db, dialect, before.id, step.column, step.to);
  const sqlType = target.sqlType[dialect.name];
  await writeColumnValues(db, dialect, { tableId: before.id, column: step.column, sqlType }, converted);
  if (after.schema[step.column]?.required) await changeRequired(db, dialect, after, step.column);
}

// A column added with a default gives the rows already there that value (PostgreSQL's ADD COLUMN … DEFAULT);
// 'now' is the time, or the UTC day, of the change.
async function fillWithDefault(
  db: Executor,
  dialect: SqlDialect,
  tableId: number,
  step: Extract<SchemaStep, { kind: 'addColumn' }>,
) {
  const { type, default: value } = step.definition;
  if (value === undefined || value === null) return;
  const stored = storedDefault(type, value, dialect.name, new Date());
  if (!stored.ok) throw new SchemaChangeError(`The default of "${step.column}" ${stored.message}`, step.column);
  const sqlType = columnTypeOf(type).sqlType[dialect.name];
  await fillColumn(db, dialect, { tableId, column: step.column, sqlType }, stored.value);
}

async function applyStep(db: Executor, dialect: SqlDialect, before: Table, after: Table, step: SchemaStep) {
  switch (step.kind) {
    case 'dropColumn':
      await dropReferenceIndex(db, before.id, step.column);
      await dropSearchIndex(db, dialect.name, before.id, step.column);
      return dropColumn(db, before.id, step.column);
    case 'renameColumn':
      // Named after the column: dropped here, made again under the new name after the change.
      await dropReferenceIndex(db, before.id, step.column);
      await dropColumnIndex(db, before.id, step.column);
      await dropSearchIndex(db, dialect.name, before.id, step.column);
      return renameColumn(db, before.id, step.column, step.to, before.schema[step.column]?.unique ?? false);
    case 'dropUnique':
      return void (await dropUniqueIndexSql(before.id, step.column).execute(db));
    case 'addUnique':
      return void (await uniqueIndexSql(before.id, step.column).execute(db));
    case 'dropIndex':
      return dropColumnIndex(db, before.id, step.column);
    case 'dropSearch':
      return dropSearchIndex(db, dialect.name, before.id, step.column);
    case 'addSearch':
      return createSearchIndex(db, dialect.name, before.id, step.column);
    case 'addIndex':
      // A unique column's own index serves; syncColumnIndexes keeps it so after the change.
      if (!after.schema[step.column]?.unique) await createColumnIndex(db, before.id, step.column);
      return;
    case 'dropRequired':
    case 'setRequired':
      return changeRequired(db, dialect, after, step.column);
    case 'retypeColumn':
      return retype(db, dialect, before, after, step);
    case 'addColumn':
      await addColumn(db, dialect, before.id, step.column, step.definition.type);
      await fillWithDefault(db, dialect, before.id, step);
      if (step.definition.required) await changeRequired(db, dialect, after, step.column);
      if (step.definition.unique) await uniqueIndexSql(before.id, step.column).execute(db);
      return;
    case 'setDefault':
    case 'setReferenceLabel':
      // Metadata only: the record path fills a left-out column with its default; a label is the console's.
      return;
    case 'setReference':
      // The index of a reference is made by the tables service (table-references.ts) after every change.
      if (!step.references) await dropReferenceIndex(db, before.id, step.column);
      return;
  }
}

async function columnData(db: Executor, dialect: SqlDialect, tableId: number, column: string, type: ColumnType) {
  const definition = columnTypeOf(type);
  const values = await selectColumnValues(db, tableId, column);
  return Object.fromEntries(values.map(({ id, value }) => [id, definition.fromStorage(value, dialect.name)]));
}

/** AppliedSchemaChange is what a change did: the schema it ends with, and the data it dropped or converted. */
export interface AppliedSchemaChange {
  schema: TableSchema;
  /** The values of the columns it dropped. */
  dropped: DroppedColumnData;
  /** The values of the columns it retyped, as they were before the conversion. */
  retyped: DroppedColumnData;
}

/**
 * applySchemaChange runs a plan's steps on a table inside the caller's transaction and returns the schema it
 * ends with and the data of the columns it dropped or retyped (keyed by their names before the change); it
 * throws the 409 of the first precondition rows break.
 */
export async function applySchemaChange(
  db: Executor,
  dialect: SqlDialect,
  table: Table,
  plan: SchemaChangePlan,
): Promise<AppliedSchemaChange> {
  let current: Table = { id: table.id, schema: table.schema };
  const dropped: DroppedColumnData = {};
  const retyped: DroppedColumnData = {};
  // Each renamed column's name before the change, so that the data is filed under it.
  const renamedFrom = new Map<string, string>();
  const originalName = (column: string) => renamedFrom.get(column) ?? column;
  for (const [index, step] of plan.steps.entries()) {
    for (const precondition of plan.preconditions.filter((p) => p.step === index)) {
      const count = await offendingRows(db, dialect, current, precondition);
      if (count > 0) throw schemaChangeRefused(precondition, count);
    }
    if (step.kind === 'dropColumn') {
      dropped[originalName(step.column)] = await columnData(db, dialect, table.id, step.column, step.definition.type);
    } else if (step.kind === 'retypeColumn') {
      retyped[originalName(step.column)] = await columnData(db, dialect, table.id, step.column, step.from);
    } else if (step.kind === 'renameColumn') {
      renamedFrom.set(step.to, originalName(step.column));
      renamedFrom.delete(step.column);
    }
    const next: Table = {
      id: table.id,
      schema: applyPlanToSchema(current.schema, { steps: [step], preconditions: [] }),
    };
    await applyStep(db, dialect, current, next, step);
    current = next;
  }
  // A SQLite rebuild and a retype drop the table's indexes, a rename drops its column's: all are made again.
  if (plan.steps.length > 0) {
    await syncColumnIndexes(db, table.id, current.schema);
    await syncSearchIndexes(db, dialect.name, table.id, current.schema);
  }
  return { schema: current.schema, dropped, retyped };
}
