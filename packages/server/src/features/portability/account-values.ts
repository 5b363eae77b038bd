import type { TableSchema } from '@basalt/shared';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import { columnTypeIn } from '../../db/user-tables.js';

// One value of an imported row, checked as the record APIs check what they are sent (an archive is input like any
// other) and turned into what this engine stores.

/** RowValue is a value ready to store, or why it cannot be. */
export type RowValue = { ok: true; stored: unknown } | { ok: false; message: string };

/** parseRowValue checks one archived value of a column and converts it for the engine. */
export function parseRowValue(
  shape: { id: number; schema: TableSchema },
  column: string,
  value: unknown,
  dialect: SqlDialect,
): RowValue {
  if (column === 'id') {
    return Number.isSafeInteger(value) && (value as number) > 0
      ? { ok: true, stored: value }
      : { ok: false, message: 'must be a positive whole number' };
  }
  const type = columnTypeIn(shape, column);
  if (!type) return { ok: false, message: 'is not a column of the table' };
  if ((value === null || value === undefined) && (column === 'created_at' || column === 'updated_at')) {
    return { ok: false, message: 'is required' };
  }
  if ((value === null || value === undefined) && shape.schema[column]?.required)
    return { ok: false, message: 'is required' };
  const parsed = columnTypeOf(type).parseInput(value ?? null, { from: 'json' });
  if (!parsed.ok) return { ok: false, message: parsed.message };
  return { ok: true, stored: columnTypeOf(type).toStorage(parsed.value, dialect.name) };
}
