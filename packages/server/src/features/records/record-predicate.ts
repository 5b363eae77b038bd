import type { CellValue } from '../../db/column-types/column-type.js';
import { type Condition, columnTypeIn, type UserTableShape } from '../../db/user-tables.js';
import type { RecordRow } from './record-values.js';

// A filter evaluated on a record in JavaScript, exactly as both engines evaluate its SQL: what lets a cached count
// follow the writes (record-counts.ts). Only what is certain to agree is evaluable: comparisons, IN and IS on
// number, boolean and text columns (and id), with text compared for (in)equality only (ordering text depends on
// the collation), joined by AND, OR and NOT. Dates, JSON, JSON paths, patterns and containment are not: a count
// of such a filter is taken again with SQL after a write.
//
// SQL has three truth values: a comparison with NULL is unknown (null here), NOT unknown is unknown, and a row
// is counted only when the whole condition is true.

type Truth = boolean | null;

const EVALUABLE_TYPES = new Set(['number', 'boolean', 'text']);

function typeIn(shape: UserTableShape, column: string): string | null {
  return columnTypeIn(shape, column);
}

function scalarFits(type: string, value: CellValue): boolean {
  if (value === null) return true;
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (type === 'boolean') return typeof value === 'boolean';
  return typeof value === 'string';
}

/** isEvaluable tells whether evaluate() gives, for this condition, exactly what the engines' SQL gives. */
export function isEvaluable(shape: UserTableShape, condition: Condition): boolean {
  switch (condition.kind) {
    case 'and':
    case 'or':
      return condition.conditions.every((c) => isEvaluable(shape, c));
    case 'not':
      return isEvaluable(shape, condition.condition);
    case 'pattern':
    case 'contains':
    case 'search':
    case 'exists':
      return false;
    default:
      break;
  }
  if (condition.path && condition.path.length > 0) return false;
  const type = typeIn(shape, condition.column);
  if (type === null || !EVALUABLE_TYPES.has(type)) return false;
  switch (condition.kind) {
    case 'compare':
      if (type === 'text' && !['eq', 'neq', 'isdistinct'].includes(condition.op)) return false;
      return scalarFits(type, condition.value);
    case 'in':
      return condition.values.every((v) => scalarFits(type, v));
    case 'is':
      return condition.value === null || condition.value === 'not_null' || type === 'boolean';
  }
}

function ordered(a: CellValue, b: CellValue): number {
  // Only numbers, booleans (false < true, as 0 < 1 on SQLite) and, for (in)equality, text reach here.
  const x = typeof a === 'boolean' ? Number(a) : a;
  const y = typeof b === 'boolean' ? Number(b) : b;
  if (x === y) return 0;
  return (x as number | string) < (y as number | string) ? -1 : 1;
}

function compare(op: string, value: CellValue, operand: CellValue): Truth {
  if (op === 'isdistinct') {
    if (value === null || operand === null) return value !== operand;
    return ordered(value, operand) !== 0;
  }
  if (value === null || operand === null) return null;
  const order = ordered(value, operand);
  switch (op) {
    case 'eq':
      return order === 0;
    case 'neq':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
    case 'lt':
      return order < 0;
    default:
      return order <= 0;
  }
}

/** evaluate gives a condition's truth for a record (null: unknown); only for a condition isEvaluable accepts. */
export function evaluate(condition: Condition, row: RecordRow): Truth {
  switch (condition.kind) {
    case 'and': {
      let result: Truth = true;
      for (const c of condition.conditions) {
        const t = evaluate(c, row);
        if (t === false) return false;
        if (t === null) result = null;
      }
      return result;
    }
    case 'or': {
      let result: Truth = false;
      for (const c of condition.conditions) {
        const t = evaluate(c, row);
        if (t === true) return true;
        if (t === null) result = null;
      }
      return result;
    }
    case 'not': {
      const t = evaluate(condition.condition, row);
      return t === null ? null : !t;
    }
    case 'compare':
      return compare(condition.op, row[condition.column] ?? null, condition.value);
    case 'in': {
      const value = row[condition.column] ?? null;
      if (value === null) return condition.values.length === 0 ? false : null;
      let result: Truth = false;
      for (const v of condition.values) {
        if (v === null) result = null;
        else if (ordered(value, v) === 0) return true;
      }
      return result;
    }
    case 'is': {
      const value = row[condition.column] ?? null;
      if (condition.value === null) return value === null;
      if (condition.value === 'not_null') return value !== null;
      return value === condition.value;
    }
    default:
      throw new Error(`evaluate: ${condition.kind} is not evaluable`);
  }
}

/** matches tells whether a record is counted by a condition (its truth is true). */
export function matches(condition: Condition, row: RecordRow | null): boolean {
  return row !== null && evaluate(condition, row) === true;
}
