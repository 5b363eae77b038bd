import { lineAndColumn, segmentsOf, type TargetDialect } from './sql-lexer.js';
import { SqlInputError } from './sql-statements.js';

// Variable replacement: `{{name}}` in a SQL text becomes the value given for `name`, always as a quoted string
// literal, never as SQL. Placeholders count only in code: inside a string, a quoted identifier or a comment they
// stay as written. A placeholder without a value stops the run (nothing is run) with its line and column.
//
// Quoting is chosen so that no server setting can turn a value into code:
// - PostgreSQL: '…' with quotes doubled; a value with a backslash becomes E'…' with backslashes doubled too,
//   which reads the same whatever standard_conforming_strings is.
// - MySQL/MariaDB: '…' with quotes doubled; a value with a backslash becomes a hex literal with a character set
//   (_utf8mb4 X'…'), because '\' means one thing with NO_BACKSLASH_ESCAPES and another without, and the text
//   itself may switch that mode between statements.

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** quoteLiteral renders a value as a string literal of the dialect that no setting reads as code. */
export function quoteLiteral(value: string, dialect: TargetDialect): string {
  if (!value.includes('\\')) return `'${value.replaceAll("'", "''")}'`;
  if (dialect === 'postgres') return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  return `_utf8mb4 X'${Buffer.from(value, 'utf8').toString('hex')}'`;
}

/** Replaced is a text after replacement, and the way back to offsets in the text as written. */
export interface Replaced {
  text: string;
  /** originalOffset maps an offset of the replaced text to the text as written. */
  originalOffset(offset: number): number;
}

/** replaceVariables substitutes every `{{name}}` in code with its quoted value, or throws a SqlInputError. */
export function replaceVariables(text: string, dialect: TargetDialect, values: Record<string, string>): Replaced {
  const shifts: Array<{ at: number; delta: number }> = [];
  let out = '';
  let copied = 0;
  for (const segment of segmentsOf(text, dialect)) {
    if (segment.kind !== 'code') continue;
    const code = text.slice(segment.start, segment.end);
    for (const match of code.matchAll(PLACEHOLDER)) {
      const at = segment.start + (match.index ?? 0);
      const name = match[1] ?? '';
      const value = Object.hasOwn(values, name) ? values[name] : undefined;
      if (value === undefined) {
        const { line, column } = lineAndColumn(text, at);
        throw new SqlInputError(
          `No value given for the variable {{${name}}} at line ${line}, column ${column}`,
          'sql_variable_missing',
          line,
          column,
        );
      }
      const literal = quoteLiteral(value, dialect);
      out += text.slice(copied, at);
      shifts.push({ at: out.length + literal.length, delta: literal.length - match[0].length });
      out += literal;
      copied = at + match[0].length;
    }
  }
  out += text.slice(copied);
  return {
    text: out,
    originalOffset(offset) {
      let back = offset;
      for (const shift of shifts) if (shift.at <= offset) back -= shift.delta;
      return back;
    },
  };
}
