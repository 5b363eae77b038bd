import { ACCESS_OPERATIONS, type ColumnType, describeRule, type HistoryChange, normalizeAccess } from '@basalt/shared';
import { z } from 'zod';
import { formatCellValue } from '@/features/records/record-values';
import { diffFunction } from './function-diff';

// What a change did, in a form a person can read: per field the value before and after (records), or the
// columns added, dropped, renamed and retyped (schemas). States are whatever the server stored, so they are
// read with lenient schemas and anything unexpected simply shows less.

import type { FieldChange } from './field-change';

export type { FieldChange };

/** SchemaLineKind styles a schema line: added, dropped, changed in place, or about the whole table. */
export type SchemaLineKind = 'add' | 'drop' | 'change' | 'table';

/** SchemaLine is one step of a schema change, in words. */
export interface SchemaLine {
  kind: SchemaLineKind;
  text: string;
}

/** ChangeDiff is a change's fields (record changes) or schema lines (schema changes). */
export interface ChangeDiff {
  fields: FieldChange[];
  schema: SchemaLine[];
}

const SYSTEM_FIELDS = new Set(['id', 'created_at', 'updated_at']);
const recordState = z.record(z.string(), z.unknown());
const columnsState = z.record(
  z.string(),
  z.object({ type: z.string(), required: z.boolean().optional(), unique: z.boolean().optional() }),
);
type Columns = z.infer<typeof columnsState>;
const definitionState = z.object({
  name: z.string().optional(),
  description: z.string().nullish(),
  schema: columnsState.optional(),
  renames: z.record(z.string(), z.string()).optional(),
  access: z.unknown().optional(),
});
const deletedState = z.object({ table: definitionState, rows: z.array(z.unknown()).optional() });

const read = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> | null => {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function diffRecord(change: HistoryChange): FieldChange[] {
  const before = read(recordState, change.previousState);
  const after = read(recordState, change.newState);
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (field) => !SYSTEM_FIELDS.has(field),
  );
  if (!before) return fields.flatMap((field) => (after?.[field] == null ? [] : [{ field, after: after[field] }]));
  if (!after) return fields.flatMap((field) => (before[field] == null ? [] : [{ field, before: before[field] }]));
  return fields
    .filter((field) => !same(before[field], after[field]))
    .map((f) => ({ field: f, before: before[f], after: after[f] }));
}

/** describeColumnType is a column's type and flags: "text, required, unique". */
export function describeColumnType(column: Columns[string]): string {
  return [column.type, column.required ? 'required' : '', column.unique ? 'unique' : ''].filter(Boolean).join(', ');
}

const userColumns = (columns: Columns | undefined) =>
  Object.entries(columns ?? {}).filter(([name]) => !SYSTEM_FIELDS.has(name));

function flagLines(name: string, before: Columns[string], after: Columns[string]): SchemaLine[] {
  const lines: SchemaLine[] = [];
  if (before.type !== after.type) {
    lines.push({ kind: 'change', text: `Changed "${name}" from ${before.type} to ${after.type}` });
  }
  if (Boolean(before.required) !== Boolean(after.required)) {
    lines.push({ kind: 'change', text: after.required ? `Made "${name}" required` : `Made "${name}" optional` });
  }
  if (Boolean(before.unique) !== Boolean(after.unique)) {
    const text = after.unique ? `Made "${name}" unique` : `Allowed duplicate values in "${name}"`;
    lines.push({ kind: 'change', text });
  }
  return lines;
}

function diffColumns(before: Columns | undefined, after: Columns | undefined, renames: Record<string, string>) {
  const lines: SchemaLine[] = [];
  const renamedTo = new Map(Object.entries(renames).map(([from, to]) => [to, from]));
  const kept = new Set(after ? Object.keys(after) : []);
  for (const [name, column] of userColumns(before)) {
    if (!kept.has(name) && !(name in renames)) {
      lines.push({ kind: 'drop', text: `Dropped column "${name}" (${describeColumnType(column)})` });
    }
  }
  for (const [from, to] of Object.entries(renames)) {
    lines.push({ kind: 'change', text: `Renamed column "${from}" to "${to}"` });
  }
  for (const [name, column] of userColumns(after)) {
    const previous = before?.[renamedTo.get(name) ?? name];
    if (!previous) lines.push({ kind: 'add', text: `Added column "${name}" (${describeColumnType(column)})` });
    else lines.push(...flagLines(name, previous, column));
  }
  return lines;
}

// A change of the access rules: one line per operation whose rule changed, in the Access tab's words.
function diffAccess(
  before: z.infer<typeof definitionState> | null,
  after: z.infer<typeof definitionState> | null,
): SchemaLine[] {
  if (before?.access === undefined || after?.access === undefined) return [];
  const from = normalizeAccess(before.access);
  const to = normalizeAccess(after.access);
  const lines: SchemaLine[] = ACCESS_OPERATIONS.filter((op) => from[op] !== to[op]).map((op) => ({
    kind: 'change',
    text: `Access: ${describeRule(op, to[op])} (was: ${describeRule(op, from[op]).toLowerCase()})`,
  }));
  if ((from.ownerColumn ?? null) !== (to.ownerColumn ?? null) && to.ownerColumn) {
    lines.push({ kind: 'change', text: `Access: "${to.ownerColumn}" holds each row's owner` });
  }
  return lines;
}

function diffSchema(change: HistoryChange): SchemaLine[] {
  switch (change.changeType) {
    case 'SCHEMA_CREATE': {
      const created = read(definitionState, change.newState);
      return [
        { kind: 'table', text: `Created table "${created?.name ?? change.tableName}"` },
        ...diffColumns(undefined, created?.schema, {}),
      ];
    }
    case 'SCHEMA_DELETE': {
      const deleted = read(deletedState, change.previousState);
      const rows = deleted?.rows?.length ?? 0;
      const records = `${rows.toLocaleString()} record${rows === 1 ? '' : 's'}`;
      return [{ kind: 'table', text: `Dropped table "${deleted?.table.name ?? change.tableName}" with ${records}` }];
    }
    default: {
      const before = read(definitionState, change.previousState);
      const after = read(definitionState, change.newState);
      const lines: SchemaLine[] = [];
      if (before?.name && after?.name && before.name !== after.name) {
        lines.push({ kind: 'table', text: `Renamed table "${before.name}" to "${after.name}"` });
      }
      if (before && after && (before.description ?? '') !== (after.description ?? '')) {
        lines.push({ kind: 'table', text: after.description ? 'Changed the description' : 'Removed the description' });
      }
      return [
        ...lines,
        ...diffColumns(before?.schema, after?.schema, after?.renames ?? {}),
        ...diffAccess(before, after),
      ];
    }
  }
}

/** diffChange reads what a change did: its fields' (or a SQL function's parts') old and new values, or its schema steps. */
export function diffChange(change: HistoryChange): ChangeDiff {
  if (change.changeType.startsWith('FUNCTION_')) {
    return { fields: diffFunction(change.previousState, change.newState), schema: [] };
  }
  return change.changeType.startsWith('SCHEMA_')
    ? { fields: [], schema: diffSchema(change) }
    : { fields: diffRecord(change), schema: [] };
}

const VALUE_MAX = 160;

/**
 * formatValue shows a field value on one line as the records grid shows it (a date column's midnight timestamp
 * as its day), given the column's type when it is known; long values are cut short.
 */
export function formatValue(value: unknown, type?: ColumnType): string {
  const text = value === null || value === undefined ? 'null' : formatCellValue(value, type);
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
}
