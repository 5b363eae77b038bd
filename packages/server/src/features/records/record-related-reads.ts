import type { CellValue } from '../../db/column-types/column-type.js';
import type { Db } from '../../db/database.js';
import type { DialectName } from '../../db/dialect/dialect.js';
import { preparedQuery } from '../../db/sql-text.js';
import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import { columnTypeIn, type TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { noteList, notesReads } from './read-shapes.js';
import { assertCan } from './record-access.js';
import { checkCondition, checkOrder } from './record-conditions.js';
import { unknownFilterColumn } from './record-errors.js';
import { checkPaging, type ReadOptions, readTranslated } from './record-reads.js';
import { type RelatedSql, ROW_CHUNK, relatedListSql } from './record-related-sql.js';
import { rowRuleOf, ruleCondition, withRules } from './record-rules.js';
import { tableStatementName } from './record-statement-names.js';
import { type RecordRow, toRecordColumns, toRecordRow } from './record-values.js';
import { run } from './records.store.js';

// A list with the rows related to each of its rows (the data API's embedded resources), read in ONE statement
// (record-related-sql.ts). Each related table is read as any read of it is: the actor must reach it, its
// condition and order are checked against its schema, and its select rule is part of its subquery, so a row
// hidden from the caller is neither returned nor counted; through a junction, the junction's select rule applies
// too. The statement is prepared by name per shape on PostgreSQL (record-statement-names.ts), and its values
// come back as stored and are converted as toRecordRow converts any row.

/** RelatedRead is what a list reads of another table for each of its rows. */
export interface RelatedRead {
  /** one: the related row or null; many: the related rows; count: how many related rows. */
  kind: 'one' | 'many' | 'count';
  table: TableDefinition;
  /** The related rows are those whose `innerColumn` equals the list row's `outerColumn`, or through `junction`. */
  innerColumn: string;
  outerColumn: string;
  /** A junction's rows whose `parentColumn` is the list row's id link it to rows whose id is `targetColumn`. */
  junction?: { table: TableDefinition; parentColumn: string; targetColumn: string };
  /** Unchecked, as for listRecords; the table's select rule is added. */
  where?: Condition | undefined;
  /** many: their order (by id when empty); ignored for one and count. */
  order?: OrderTerm[];
  limit?: number | null;
  offset?: number;
  /** The columns each related row carries (one and many), in any order. */
  columns: readonly string[];
  /** What each related row reads in turn (one and many). */
  related: RelatedRead[];
}

/** RelatedRow is a related row's columns as API values, and the values of its own related reads, in their order. */
export interface RelatedRow {
  row: Record<string, CellValue>;
  related: RelatedValue[];
}

/** RelatedValue is one related read's value for one row: a row or null (one), rows (many), a number (count). */
export type RelatedValue = RelatedRow | RelatedRow[] | number | null;

/** RelatedList is a list's rows and, for each, its related reads' values in their order. */
export interface RelatedList {
  rows: RecordRow[];
  related: RelatedValue[][];
}

const ID_ORDER: OrderTerm[] = [{ column: 'id', direction: 'asc' }];

/** listRecordsWithRelated reads a list as listRecords does, with each row's related values, in one statement. */
export async function listRecordsWithRelated(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  options: ReadOptions,
  related: readonly RelatedRead[],
): Promise<RelatedList> {
  assertCan(actor, 'read', table);
  const { limit = null, offset = 0 } = options;
  checkPaging(limit, offset);
  const checked = options.where ? checkCondition(db.dialect, table, options.where) : undefined;
  const order = options.order?.length ? checkOrder(table, options.order, actor) : undefined;
  const where = withRules(checked, rowRuleOf(actor, table, 'select'));
  const aliases = { next: 0 };
  const reads = related.map((read) => relatedSql(db, actor, read, aliases));
  const out = relatedListSql(db.dialect, table, { where, order: order ?? ID_ORDER, limit, offset }, reads);
  const name = tableStatementName(table, 'rel', out.text);
  const query = name === null ? out.compiled<RawListRow>() : preparedQuery<RawListRow>(out.text, out.parameters, name);
  const noted = !db.inTransaction && (checked !== undefined || order !== undefined) && notesReads(db);
  const started = noted ? performance.now() : 0;
  const raws = await readTranslated(db, table, run(db.readRows, query));
  if (noted) noteList(db, table, checked, order, performance.now() - started);
  const dialect = db.dialect.name;
  return {
    rows: raws.map((raw) => toRecordRow(dialect, table, raw)),
    related: raws.map((raw) => reads.map((read, i) => decoded(dialect, read, topLevel(raw[`_${i}`])))),
  };
}

type RawListRow = Record<string, unknown>;

// SQLite returns the outermost JSON as text; pg parses json itself.
const topLevel = (raw: unknown) => (typeof raw === 'string' ? JSON.parse(raw) : raw);

function relatedSql(db: Db, actor: Actor, read: RelatedRead, aliases: { next: number }): RelatedSql {
  const { table, junction } = read;
  assertCan(actor, 'read', table);
  const limit = read.kind === 'one' ? null : (read.limit ?? null);
  const offset = read.kind === 'one' ? 0 : (read.offset ?? 0);
  checkPaging(limit, offset);
  const checked = read.where ? checkCondition(db.dialect, table, read.where) : undefined;
  for (const column of [read.innerColumn, ...read.columns]) {
    if (columnTypeIn(table, column) === null) throw unknownFilterColumn(table, column);
  }
  if (junction) assertCan(actor, 'read', junction.table);
  aliases.next++;
  const n = aliases.next;
  return {
    kind: read.kind,
    table,
    alias: `r${n}`,
    innerColumn: read.innerColumn,
    outerColumn: read.outerColumn,
    ...(junction
      ? { junction: { ...junction, alias: `j${n}`, where: ruleCondition(rowRuleOf(actor, junction.table, 'select')) } }
      : {}),
    where: withRules(checked, rowRuleOf(actor, table, 'select')),
    order: read.kind === 'many' && read.order?.length ? checkOrder(table, read.order) : ID_ORDER,
    limit,
    offset,
    columns: inColumnOrder(table, read.kind === 'count' ? [] : read.columns),
    related: read.kind === 'count' ? [] : read.related.map((inner) => relatedSql(db, actor, inner, aliases)),
  };
}

// Columns in toRecordRow's order (id, the user's columns, created_at, updated_at): a row read whole has its keys
// in the same order as a row read alone.
function inColumnOrder(table: TableDefinition, columns: readonly string[]): string[] {
  const wanted = new Set(columns);
  return ['id', ...Object.keys(table.schema), 'created_at', 'updated_at'].filter((c) => wanted.has(c));
}

function decoded(dialect: DialectName, read: RelatedSql, raw: unknown): RelatedValue {
  switch (read.kind) {
    case 'count':
      return Number(raw ?? 0);
    case 'one':
      return raw === null || raw === undefined ? null : relatedRow(dialect, read, raw as unknown[]);
    case 'many':
      // json_agg of no rows is NULL; json_group_array's is [].
      return ((raw ?? []) as unknown[][]).map((values) => relatedRow(dialect, read, values));
  }
}

function relatedRow(dialect: DialectName, read: RelatedSql, values: unknown[]): RelatedRow {
  const { columns } = read;
  const flat = columns.length + read.related.length > ROW_CHUNK ? values.flat() : values;
  return {
    row: toRecordColumns(dialect, read.table, columns, flat),
    related: read.related.map((inner, i) => decoded(dialect, inner, flat[columns.length + i])),
  };
}
