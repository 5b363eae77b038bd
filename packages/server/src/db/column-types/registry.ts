import { COLUMN_TYPES, type ColumnType } from '@basalt/shared';
import { arrayType } from './array.js';
import { booleanType } from './boolean.js';
import type { ColumnTypeDefinition } from './column-type.js';
import { dateType } from './date.js';
import { dateOnlyType } from './date-only.js';
import { jsonType } from './json.js';
import { numberType } from './number.js';
import { textType } from './text.js';

/** columnTypes is the registry of column types: one entry, and one file, per member of COLUMN_TYPES. */
export const columnTypes: Readonly<Record<ColumnType, ColumnTypeDefinition>> = {
  text: textType,
  number: numberType,
  boolean: booleanType,
  date: dateType,
  date_only: dateOnlyType,
  json: jsonType,
  array: arrayType,
};

/** columnTypeOf returns a type's definition. */
export function columnTypeOf(type: ColumnType): ColumnTypeDefinition {
  return columnTypes[type];
}

/** isColumnType tells whether a string names a registered column type. */
export function isColumnType(type: string): type is ColumnType {
  return (COLUMN_TYPES as readonly string[]).includes(type);
}
