import { CompiledQuery } from 'kysely';

// The record APIs' statements are written as text with bound values, straight into what the driver runs.
// Kysely's `sql` fragments build a frozen node tree per request and compile it again each time; for the
// hot path (a get by id, a list page, an insert) that was more work than SQLite's own. Identifiers still pass
// the one gate (db/identifiers.ts) and every value is a bound parameter, exactly as with the fragments.

/** SqlText accumulates one statement: its text and its bound values, with the engine's placeholders. */
export class SqlText {
  text = '';
  readonly parameters: unknown[] = [];

  /** numbered: `$1, $2…` (PostgreSQL); otherwise `?` (SQLite). */
  constructor(private readonly numbered: boolean) {}

  /** raw appends SQL text: keywords and names that went through the identifier gate, never values. */
  raw(text: string): this {
    this.text += text;
    return this;
  }

  /** value appends a bound parameter. */
  value(value: unknown): this {
    this.parameters.push(value);
    this.text += this.numbered ? `$${this.parameters.length}` : '?';
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
    return CompiledQuery.raw(this.text, this.parameters) as CompiledQuery<R>;
  }
}
