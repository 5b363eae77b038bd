import { lineAndColumn } from './sql-lexer.js';

// What splitting a SQL text gives the runner, and the one error it throws when the text cannot run.

/** SqlStatement is one statement of a text, as the dialect's parser delimited it. */
export interface SqlStatement {
  /** text is the statement without its terminator and the blanks and comments around it. */
  text: string;
  /** offset is where it starts in the text that was split (UTF-16). */
  offset: number;
  /** returnsRows: it may return many rows, so the runner reads it through a cursor or a stream. */
  returnsRows: boolean;
  /** transactionControl: BEGIN, COMMIT, ROLLBACK, SAVEPOINT… (refused where the runner holds the transaction). */
  transactionControl: boolean;
  /** explainable: a MySQL dry run can check it with EXPLAIN (SELECT, INSERT, UPDATE, DELETE, REPLACE). */
  explainable: boolean;
  /** definesTable: the table a CREATE TABLE statement makes (MySQL dry runs), else null. */
  definesTable: string | null;
}

/** SqlInputError is a text that cannot run: a syntax error or a missing variable, with where it is. */
export class SqlInputError extends Error {
  constructor(
    message: string,
    readonly code: 'sql_syntax_error' | 'sql_variable_missing' | 'sql_empty',
    /** line and column are 1-based, in the text as written; null when the error has no place. */
    readonly line: number | null = null,
    readonly column: number | null = null,
    /** offset and reason of a syntax error, to place it again in the text as written (sql-variables.ts). */
    readonly offset: number | null = null,
    readonly reason: string = message,
  ) {
    super(message);
    this.name = 'SqlInputError';
  }
}

/** syntaxErrorAt makes the error of a statement that does not parse, placed at `offset` of `text`. */
export function syntaxErrorAt(text: string, offset: number, reason: string): SqlInputError {
  const { line, column } = lineAndColumn(text, offset);
  return new SqlInputError(
    `Syntax error at line ${line}, column ${column}: ${reason}`,
    'sql_syntax_error',
    line,
    column,
    offset,
    reason,
  );
}

/** noStatements is the error of a text with nothing to run (blank, or only comments). */
export const noStatements = () => new SqlInputError('The SQL contains no statements to execute', 'sql_empty');
