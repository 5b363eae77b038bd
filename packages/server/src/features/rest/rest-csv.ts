import type { ColumnType } from '@basalt/shared';
import { jsonbText } from '../../db/jsonb.js';
import { float8Text, pgText } from '../../db/pg-text.js';
import { columnTypeIn, type TableDefinition } from '../../db/user-tables.js';
import type { SelectItem } from './rest-query.types.js';

// `Accept: text/csv` (supabase-js `.csv()`), as PostgREST writes it: a header of the first row's keys joined by
// commas, then each row as PostgreSQL prints a record without its parentheses: NULL empty, booleans t/f,
// dates as timestamptz text, JSON as jsonb prints it, and a value quoted (with `"` and `\` doubled) when it is
// empty or holds a quote, backslash, parenthesis, comma or white space. No trailing newline; no rows: "\n".

/** CSV_TYPE is the Content-Type of a CSV body. */
export const CSV_TYPE = 'text/csv; charset=utf-8';

const NEEDS_QUOTES = /["\\(),\s]/;

function field(text: string): string {
  if (text !== '' && !NEEDS_QUOTES.test(text)) return text;
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '""')}"`;
}

// A value whose column is not known (a cast, a JSON path, an embed): printed by its JSON type.
function untypedText(value: unknown): string {
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return float8Text(value);
  if (typeof value === 'string') return value;
  return jsonbText(value);
}

/** columnTypesOf maps each output key that is a plain column of the table to that column's type. */
function columnTypesOf(table: TableDefinition, select: SelectItem[]): Map<string, ColumnType> {
  const types = new Map<string, ColumnType>();
  for (const item of select) {
    if (item.kind === 'star') {
      for (const column of ['id', 'created_at', 'updated_at', ...Object.keys(table.schema)]) {
        const type = columnTypeIn(table, column);
        if (type) types.set(column, type);
      }
    } else if (item.kind === 'field' && item.cast === null && item.field.jsonPath.length === 0) {
      const type = columnTypeIn(table, item.field.column);
      if (type) types.set(item.alias ?? item.field.column, type);
    }
  }
  return types;
}

/** csvBody writes projected rows as PostgREST's CSV. */
export function csvBody(table: TableDefinition, select: SelectItem[], rows: Record<string, unknown>[]): string {
  const types = columnTypesOf(table, select);
  const first = rows[0];
  const keys = first ? Object.keys(first) : [];
  const lines = rows.map((row) =>
    keys
      .map((key) => {
        const value = row[key] ?? null;
        if (value === null) return '';
        const type = types.get(key);
        return field(type ? pgText(type, value as Parameters<typeof pgText>[1]) : untypedText(value));
      })
      .join(','),
  );
  return `${keys.join(',')}\n${lines.join('\n')}`;
}
