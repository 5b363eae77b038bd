import type { ColumnType } from '@basalt/shared';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { Db } from '../../db/database.js';
import { SqlText } from '../../db/sql-text.js';
import {
  type Condition,
  columnTypeIn,
  type OrderTerm,
  quotedColumn,
  quotedTable,
  type TableDefinition,
  writeCondition,
  writeOrder,
} from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { assertCan } from './record-access.js';
import { checkCondition, checkOrder } from './record-conditions.js';
import { invalidFilter } from './record-errors.js';
import { rowRuleOf, withRules } from './record-rules.js';
import { translated } from './record-writes.js';

// Aggregates over the records a condition selects and the actor may read (PostgREST 12's `count()`,
// `amount.sum()`, grouped by the other selected columns): one grouped statement, under the same access rules
// as a list. What fits a type is PostgreSQL's: sum and avg need numbers; min and max numbers, text or dates.

/** Aggregate is one aggregate of a read: count of rows (column null) or of a column's values, sum, avg, min, max. */
export interface Aggregate {
  fn: 'count' | 'sum' | 'avg' | 'min' | 'max';
  column: string | null;
  /** The key of its value in the rows returned. */
  key: string;
}

/** AggregateOptions are a grouped read's groups (columns), aggregates, filter, order and paging. */
export interface AggregateOptions {
  groups: string[];
  aggregates: Aggregate[];
  where?: Condition;
  order?: OrderTerm[];
  limit: number | null;
  offset: number;
}

const FITS: Record<Aggregate['fn'], readonly ColumnType[] | null> = {
  count: null,
  sum: ['number'],
  avg: ['number'],
  min: ['number', 'text', 'date'],
  max: ['number', 'text', 'date'],
};

function checkAggregate(table: TableDefinition, aggregate: Aggregate): ColumnType | null {
  if (aggregate.column === null) {
    if (aggregate.fn !== 'count') throw invalidFilter(`function ${aggregate.fn}() does not exist`);
    return null;
  }
  const type = columnTypeIn(table, aggregate.column);
  if (type === null) throw invalidFilter(`column ${table.name}.${aggregate.column} does not exist`, '42703');
  const fits = FITS[aggregate.fn];
  if (fits && !fits.includes(type)) {
    throw invalidFilter(`function ${aggregate.fn}(${columnTypeOf(type).pgTypeName}) does not exist`);
  }
  return type;
}

/** aggregateRecords reads one row per group: its group columns (API values) and each aggregate under its key. */
export async function aggregateRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  options: AggregateOptions,
): Promise<Record<string, unknown>[]> {
  assertCan(actor, 'read', table);
  const { dialect } = db;
  const types = options.aggregates.map((a) => checkAggregate(table, a));
  const groupTypes = options.groups.map((column) => {
    const type = columnTypeIn(table, column);
    if (type === null) throw invalidFilter(`column ${table.name}.${column} does not exist`, '42703');
    return type;
  });
  const order = checkOrder(table, options.order ?? []);
  for (const term of order) {
    if (!options.groups.includes(term.column) || term.path) {
      throw invalidFilter(
        `column "${table.name}.${term.column}" must appear in the GROUP BY clause or be used in an aggregate function`,
        '42803',
      );
    }
  }
  const checked = options.where ? checkCondition(dialect, table, options.where) : undefined;
  const where = withRules(checked, rowRuleOf(actor, table, 'select'));

  const columns = [
    ...options.groups.map((column, i) => `${quotedColumn(column)} AS "g${i}"`),
    ...options.aggregates.map(
      ({ fn, column }, i) => `${fn}(${column === null ? '*' : quotedColumn(column)}) AS "a${i}"`,
    ),
  ];
  const out = new SqlText(dialect.userTables.numberedParameters).raw(
    `SELECT ${columns.join(', ')} FROM ${quotedTable(table.id)}`,
  );
  if (where) {
    out.raw(' WHERE ');
    writeCondition(out, dialect, table, where);
  }
  if (options.groups.length > 0) out.raw(` GROUP BY ${options.groups.map(quotedColumn).join(', ')}`);
  // Groups come back in a stable order: the one asked for, else by the grouping columns.
  const sorted = order.length > 0 ? order : options.groups.map((column): OrderTerm => ({ column, direction: 'asc' }));
  if (sorted.length > 0) {
    out.raw(' ORDER BY ');
    writeOrder(out, dialect, table, sorted);
  }
  if (options.limit !== null) out.raw(` LIMIT ${options.limit}`);
  if (options.offset > 0)
    out.raw(`${options.limit === null && dialect.name === 'sqlite' ? ' LIMIT -1' : ''} OFFSET ${options.offset}`);

  let rows: Record<string, unknown>[];
  try {
    rows = await db.readRows(out.compiled<Record<string, unknown>>());
  } catch (error) {
    throw translated(db, error, table);
  }
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    options.groups.forEach((column, i) => {
      row[column] = columnTypeOf(groupTypes[i] ?? 'text').fromStorage(raw[`g${i}`], dialect.name);
    });
    options.aggregates.forEach((aggregate, i) => {
      const value = raw[`a${i}`] ?? null;
      const type = types[i];
      const minMax = aggregate.fn === 'min' || aggregate.fn === 'max';
      row[aggregate.key] =
        value === null ? null : minMax && type ? columnTypeOf(type).fromStorage(value, dialect.name) : Number(value);
    });
    return row;
  });
}
