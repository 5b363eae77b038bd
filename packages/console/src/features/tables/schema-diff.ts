import type { ColumnDefinition, TableResponse } from '@basalt/shared';
import { type ColumnDraft, canIndex, defaultFromText, type TableDraft } from './table-draft';

// The schema editor's preview: what saving a draft will do to the table, in the server's words (the lines
// match the server's schema-change preview). Computed locally, so it updates on every keystroke; the server
// still checks the change against the rows when it is saved.

/** SchemaDiffKind names the kinds of planned change; `drop` loses data. */
export type SchemaDiffKind =
  | 'renameTable'
  | 'describe'
  | 'drop'
  | 'rename'
  | 'retype'
  | 'optional'
  | 'allowDuplicates'
  | 'add'
  | 'require'
  | 'unique'
  | 'index'
  | 'dropIndex'
  | 'reference'
  | 'default';

/** SchemaDiffLine is one planned change. */
export interface SchemaDiffLine {
  kind: SchemaDiffKind;
  text: string;
}

/** describeColumn is a column's type and flags: "text, required, unique, indexed, searchable, default "x"". */
export function describeColumn(
  definition: Pick<ColumnDefinition, 'type' | 'required' | 'unique' | 'indexed' | 'search' | 'default'>,
): string {
  const indexed = indexedOf(definition);
  return [
    definition.type,
    definition.required ? 'required' : '',
    definition.unique ? 'unique' : '',
    indexed ? 'indexed' : '',
    searchOf(definition) ? 'searchable' : '',
    definition.default === undefined || definition.default === null
      ? ''
      : `default ${JSON.stringify(definition.default)}`,
  ]
    .filter(Boolean)
    .join(', ');
}

const indexedOf = (c: Pick<ColumnDefinition, 'type' | 'indexed'>) => c.indexed === true && canIndex(c.type);
const searchOf = (c: Pick<ColumnDefinition, 'type' | 'search'>) => c.search === true && c.type === 'text';

const userColumns = (columns: readonly ColumnDraft[]) => columns.filter((c) => !c.system);

/**
 * diffTableDraft lists the changes from a saved table to a draft, in the order the server runs them: table
 * name and description, drops, renames, relaxed flags, retypes, adds, then tightened flags.
 */
export function diffTableDraft(table: TableResponse, draft: TableDraft): SchemaDiffLine[] {
  const lines: SchemaDiffLine[] = [];
  if (draft.name !== table.name) {
    lines.push({ kind: 'renameTable', text: `Rename table "${table.name}" to "${draft.name}"` });
  }
  const description = draft.description.trim();
  if (description !== (table.description ?? '').trim()) {
    lines.push({ kind: 'describe', text: description ? 'Change the description' : 'Remove the description' });
  }

  const columns = userColumns(draft.columns);
  const kept = new Map(columns.filter((c) => c.originalName !== null).map((c) => [c.originalName, c]));
  const saved = Object.entries(table.schema).filter(([name]) => name !== 'id');
  for (const [name, definition] of saved) {
    if (!kept.has(name)) {
      lines.push({ kind: 'drop', text: `Drop column "${name}" (${describeColumn(definition)}) and its data` });
    }
  }
  const changed = saved.flatMap(([name, before]) => {
    const after = kept.get(name);
    return after ? [{ from: name, after, before }] : [];
  });
  for (const { from, after } of changed) {
    if (after.name !== from) lines.push({ kind: 'rename', text: `Rename column "${from}" to "${after.name}"` });
  }
  for (const { after, before } of changed) {
    if (before.unique && !after.unique) {
      lines.push({ kind: 'allowDuplicates', text: `Allow duplicate values in "${after.name}"` });
    }
    if (before.required && !after.required) lines.push({ kind: 'optional', text: `Make "${after.name}" optional` });
    if (indexedOf(before) && !indexedOf(after)) {
      lines.push({ kind: 'dropIndex', text: `Drop the index on "${after.name}"` });
    }
    if (searchOf(before) && (!searchOf(after) || after.type !== before.type)) {
      lines.push({ kind: 'dropIndex', text: `Drop the full-text index of "${after.name}"` });
    }
  }
  for (const { after, before } of changed) {
    if (after.type !== before.type) {
      lines.push({ kind: 'retype', text: `Change "${after.name}" from ${before.type} to ${after.type}` });
    }
  }
  for (const column of columns) {
    if (column.originalName === null || !table.schema[column.originalName]) {
      const described = describeColumn({ ...column, default: defaultFromText(column.type, column.defaultText ?? '') });
      lines.push({ kind: 'add', text: `Add column "${column.name || '(unnamed)'}" (${described})` });
    }
  }
  for (const { after, before } of changed) {
    if (after.required && !before.required) lines.push({ kind: 'require', text: `Make "${after.name}" required` });
    if (after.unique && !before.unique) lines.push({ kind: 'unique', text: `Make "${after.name}" unique` });
    if (indexedOf(after) && !indexedOf(before)) lines.push({ kind: 'index', text: `Add an index on "${after.name}"` });
    if (searchOf(after) && (!searchOf(before) || after.type !== before.type)) {
      lines.push({ kind: 'index', text: `Make "${after.name}" searchable (a full-text index)` });
    }
    const wanted = after.type === 'number' ? after.referencesTable : '';
    const had = before.references?.table ?? '';
    if (wanted !== had || (wanted !== '' && after.onDelete !== before.references?.onDelete)) {
      lines.push({
        kind: 'reference',
        text: wanted
          ? `Make "${after.name}" reference ${wanted} (on delete ${after.onDelete})`
          : `Remove the reference of "${after.name}"`,
      });
    } else if (wanted !== '' && (after.referencesLabel ?? '') !== (before.references?.label ?? '')) {
      // The server's words (schema-plan.ts describeStep).
      lines.push({
        kind: 'reference',
        text: after.referencesLabel
          ? `Show the rows "${after.name}" references by "${after.referencesLabel}"`
          : `Show the rows "${after.name}" references by their first text column`,
      });
    }
    // The server's words (schema-plan.ts describeStep): the default as JSON.
    const value = defaultFromText(after.type, after.defaultText ?? '');
    if (JSON.stringify(value ?? null) !== JSON.stringify(before.default ?? null)) {
      lines.push({
        kind: 'default',
        text:
          value === undefined
            ? `Remove the default of "${after.name}"`
            : `Set the default of "${after.name}" to ${JSON.stringify(value)}`,
      });
    }
  }
  return lines;
}
