import type { ColumnType } from '@basalt/shared';
import { jsonbText, jsonPathValue } from '../../db/jsonb.js';
import { checkJsonPath } from '../records/record-conditions.js';
import { RestQueryError, undefinedColumn } from './rest-query.errors.js';
import type { AggregateItem, EmbedItem, SelectCast, SelectItem } from './rest-query.types.js';

// `select` applied to rows the records service returned: the listed columns in the listed
// order, renamed (`label:title`), narrowed by a JSON path (`meta->a->>b`, followed as PostgreSQL does, see
// db/jsonb.ts) and cast (`qty::text`). `*` alone (the usual case, and the hot path) returns the rows as they
// are, with no copy.

type Row = Record<string, unknown>;

/** ColumnTypeOf tells a column's type, or null when the table has no such column. */
export type ColumnTypeOf = (column: string) => ColumnType | null;

/** isStarOnly tells whether a selection is just `*`, which needs no projection. */
function isStarOnly(select: SelectItem[]): boolean {
  return select.length === 1 && select[0]?.kind === 'star';
}

/**
 * checkSelect refuses a column the table does not have (42703) and a JSON path PostgreSQL would refuse (42883
 * on a column that holds no JSON, or after `->>`), before anything runs.
 */
export function checkSelect(select: SelectItem[], tableName: string, typeOf: ColumnTypeOf): void {
  for (const item of select) {
    if (item.kind === 'aggregate' && item.column !== null && typeOf(item.column) === null) {
      throw undefinedColumn(tableName, item.column);
    }
    if (item.kind !== 'field') continue;
    const { column, jsonPath } = item.field;
    const type = typeOf(column);
    if (type === null) throw undefinedColumn(tableName, column);
    checkJsonPath(column, type, jsonPath);
  }
}

// `::text` of a value: arrays and objects as PostgreSQL prints jsonb (`{"a": 1}`).
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  return typeof value === 'object' ? jsonbText(value) : String(value);
}

const invalidCast = (type: string, value: unknown) =>
  new RestQueryError(400, '22P02', `invalid input syntax for type ${type}: ${JSON.stringify(asText(value))}`);

function toNumber(value: unknown, type: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw invalidCast(type, value);
  return n;
}

function toBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (['t', 'true', 'y', 'yes', 'on', '1'].includes(text)) return true;
  if (['f', 'false', 'n', 'no', 'off', '0'].includes(text)) return false;
  throw invalidCast('boolean', value);
}

/** castValue converts one selected value as PostgreSQL's cast would (NULL stays NULL). */
export function castValue(value: unknown, cast: SelectCast): unknown {
  if (value === null || value === undefined) return null;
  switch (cast) {
    case 'text':
      return asText(value);
    case 'integer':
    case 'bigint':
      return Math.round(toNumber(value, cast));
    case 'numeric':
    case 'double precision':
      return toNumber(value, cast);
    case 'boolean':
      return toBoolean(value);
    case 'json':
    case 'jsonb':
      return value;
  }
}

// PostgREST names a path by its last key (`meta->b->c->1` is `c`), else by the column (`tags->0` is `tags`).
function outputName(item: Extract<SelectItem, { kind: 'field' }>): string {
  if (item.alias !== null) return item.alias;
  const lastKey = item.field.jsonPath.findLast((s) => typeof s.key === 'string')?.key;
  return typeof lastKey === 'string' ? lastKey : item.field.column;
}

/** aggregateKey is where an aggregate's value is in a grouped row: a key no column name can be. */
export const aggregateKey = (item: AggregateItem) => `${item.fn}(${item.column ?? '*'})`;

/** EmbedValueOf gives an embedded resource's value for one row (rest-embed.ts fetched them). */
export type EmbedValueOf = (item: EmbedItem, row: Row) => unknown;

/** embedName is the key an embed takes in a row: its alias, else its name. */
export const embedName = (item: EmbedItem) => item.alias ?? item.name;

function spreadInto(out: Row, item: EmbedItem, value: unknown): void {
  if (value !== null && typeof value === 'object') {
    Object.assign(out, value);
    return;
  }
  // A missing to-one row spreads as NULLs of its selected columns.
  for (const inner of item.select) {
    if (inner.kind === 'field') out[outputName(inner)] = null;
    else if (inner.kind === 'embed' && !inner.spread) out[embedName(inner)] = null;
  }
}

/** projectRow applies a selection to one row. */
export function projectRow(row: Row, select: SelectItem[], embedded?: EmbedValueOf): Row {
  const out: Row = {};
  for (const item of select) {
    if (item.kind === 'star') {
      Object.assign(out, row);
      continue;
    }
    if (item.kind === 'embed') {
      // `authors!inner()` only filters: it adds no key.
      if (item.select.length === 0) continue;
      const value = embedded ? embedded(item, row) : null;
      if (item.spread) spreadInto(out, item, value);
      else out[embedName(item)] = value;
      continue;
    }
    if (item.kind === 'aggregate') {
      const value = row[aggregateKey(item)] ?? null;
      out[item.alias ?? item.fn] = item.cast === null ? value : castValue(value, item.cast);
      continue;
    }
    let value: unknown = row[item.field.column] ?? null;
    if (item.field.jsonPath.length > 0) value = jsonPathValue(value, item.field.jsonPath) ?? null;
    if (item.cast !== null) value = castValue(value, item.cast);
    out[outputName(item)] = value;
  }
  return out;
}

/** projectRows applies a selection to rows; `*` alone returns them unchanged. */
export function projectRows<T extends Row>(rows: T[], select: SelectItem[], embedded?: EmbedValueOf): Row[] {
  return isStarOnly(select) ? rows : rows.map((row) => projectRow(row, select, embedded));
}
