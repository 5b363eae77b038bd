import { CompiledQuery } from 'kysely';

// The record APIs' statements are written as text with bound values, straight into what the driver runs.
// Kysely's `sql` fragments build a frozen node tree per request and compile it again each time; for the
// hot path (a get by id, a list page, an insert) that was more work than SQLite's own. Identifiers still pass
// the one gate (db/identifiers.ts) and every value is a bound parameter, exactly as with the fragments.

/**
 * SqlExpression is SQL text with bound values between its pieces (`texts.length === values.length + 1`): an
 * operand that carries values of its own, such as a JSON path into a column (`"meta" -> $1`).
 */
export interface SqlExpression {
  readonly texts: readonly string[];
  readonly values: readonly unknown[];
}

/** SqlOperand is what a condition or an order term reads: a quoted column name, or an expression. */
export type SqlOperand = string | SqlExpression;

/** wrapOperand puts SQL text around an operand: `wrapOperand('f(', operand, ')')`. */
export function wrapOperand(before: string, operand: SqlOperand, after: string): SqlExpression {
  if (typeof operand === 'string') return { texts: [`${before}${operand}${after}`], values: [] };
  const texts = [...operand.texts];
  texts[0] = `${before}${texts[0] ?? ''}`;
  texts[texts.length - 1] = `${texts.at(-1) ?? ''}${after}`;
  return { texts, values: operand.values };
}

// Kysely's CompiledQuery.raw builds a frozen operation node, a frozen copy of the values and a lazy query id for
// every statement, about a microsecond each time; the executors read only the text and the values (Basalt runs
// Kysely without plugins, the only readers of the node and the id), so every text statement shares one of each.
const TEXT_STATEMENT = CompiledQuery.raw('');

/** textQuery is a statement written as text with its bound values, as Kysely's executors run it. */
export function textQuery<R = unknown>(sql: string, parameters: readonly unknown[]): CompiledQuery<R> {
  return { sql, parameters, query: TEXT_STATEMENT.query, queryId: TEXT_STATEMENT.queryId };
}

/**
 * PreparedQuery is a read the engine may keep prepared under `preparedName` (PostgreSQL: parsed and planned once per
 * connection). A name stands for one text, for good: a changed text needs a new name.
 */
export interface PreparedQuery<R = unknown> extends CompiledQuery<R> {
  readonly preparedName: string;
}

/** preparedQuery is textQuery's statement under a name the engine may keep it prepared by. */
export function preparedQuery<R = unknown>(
  sql: string,
  parameters: readonly unknown[],
  name: string,
): PreparedQuery<R> {
  return { sql, parameters, query: TEXT_STATEMENT.query, queryId: TEXT_STATEMENT.queryId, preparedName: name };
}

/**
 * PLAIN_PARAMETER is SQLite's placeholder as Basalt writes it: `+?` rather than `?`. SQLite marks a statement to be
 * compiled again whenever a new value is bound to a bare `?` whose value might change the plan (an equality on a
 * column under an ORDER BY, an indexed column): a reused statement was re-planned on every run, which cost an
 * owner-filtered list page more than the read itself. The unary plus changes nothing else: a parameter has no
 * affinity and no collation either way, and an index on the column is still used.
 */
export const PLAIN_PARAMETER = '+?';

/** SqlText accumulates one statement: its text and its bound values, with the engine's placeholders. */
export class SqlText {
  text = '';
  readonly parameters: unknown[] = [];

  /** numbered: `$1, $2…` (PostgreSQL); otherwise `+?` (SQLite: see PLAIN_PARAMETER). */
  constructor(private readonly numbered: boolean) {}

  /** raw appends SQL text: keywords and names that went through the identifier gate, never values. */
  raw(text: string): this {
    this.text += text;
    return this;
  }

  /** value appends a bound parameter. */
  value(value: unknown): this {
    this.parameters.push(value);
    this.text += this.numbered ? `$${this.parameters.length}` : PLAIN_PARAMETER;
    return this;
  }

  /** operand appends a column name or an expression, binding the expression's values in place. */
  operand(operand: SqlOperand): this {
    if (typeof operand === 'string') {
      this.text += operand;
      return this;
    }
    operand.texts.forEach((text, i) => {
      if (i > 0) this.value(operand.values[i - 1]);
      this.text += text;
    });
    return this;
  }

  /** values appends bound parameters separated by commas. */
  values(values: readonly unknown[]): this {
    values.forEach((value, i) => {
      if (i > 0) this.text += ', ';
      this.value(value);
    });
    return this;
  }

  /** compiled is the statement as Kysely's executors run it. */
  compiled<R>(): CompiledQuery<R> {
    return textQuery<R>(this.text, this.parameters);
  }
}
