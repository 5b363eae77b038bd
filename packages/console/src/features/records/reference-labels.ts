import {
  type ColumnReference,
  isSystemColumnName,
  type RecordRow,
  type TableResponse,
  type TableSchema,
} from '@basalt/shared';
import { formatCellValue } from './record-values';

// How the grid shows a reference column: the referenced row's label (the column the owner picked, `references.label`,
// else the referenced table's first text column) beside its id. The labels of a page are read in one call per
// reference column (`id=in.(…)` on the referenced table's records), never one per row, under the records key of the
// referenced table, so a write to it refreshes them (the reads are in reference-labels.queries.ts).

/** LABEL_PAGE_MAX is the most ids one label read asks for (the grid's largest page). */
export const LABEL_PAGE_MAX = 1000;

/**
 * labelColumnOf is the column of the referenced table a reference shows its rows by: the chosen label when that
 * table still has it, else its first text column; null when it has none (the id alone is shown).
 */
export function labelColumnOf(reference: ColumnReference, target: Pick<TableResponse, 'schema'>): string | null {
  const { label } = reference;
  if (label !== undefined && (Object.hasOwn(target.schema, label) || isSystemColumnName(label))) return label;
  const firstText = Object.entries(target.schema).find(([, definition]) => definition.type === 'text');
  return firstText?.[0] ?? null;
}

/** findTable finds a table of the list by name, as names are matched (ignoring case). */
export function findTable<T extends { name: string }>(tables: readonly T[] | undefined, name: string): T | undefined {
  const lower = name.toLowerCase();
  return tables?.find((table) => table.name.toLowerCase() === lower);
}

/** referenceIdsOf lists the distinct ids a page's rows hold in a column, in order of first appearance. */
export function referenceIdsOf(rows: readonly RecordRow[], column: string): number[] {
  const ids = new Set<number>();
  for (const row of rows) {
    const value = row[column];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) ids.add(value);
  }
  return [...ids].slice(0, LABEL_PAGE_MAX);
}

/** labelText is how a label value reads in a cell (a missing or empty one reads as nothing). */
export function labelText(row: RecordRow | undefined, column: string | null, schema: TableSchema): string {
  if (!row || column === null) return '';
  return formatCellValue(row[column], schema[column]?.type);
}

/** ReferenceTarget is what a reference column of a table points at, as far as the console knows it. */
export interface ReferenceTarget {
  column: string;
  reference: ColumnReference;
  /** The referenced table, when it is one of the caller's (else only ids are shown). */
  table: TableResponse | undefined;
  labelColumn: string | null;
}

/** ReferenceLabels maps each reference column to the labels of the ids a page holds. */
export type ReferenceLabels = ReadonlyMap<string, ReadonlyMap<number, string>>;
