import { ApiError } from '../../http/errors.js';

/**
 * RestQueryError is a PostgREST error: an ApiError whose `details.details` and
 * `details.hint` are PostgREST's `details` and `hint`, so the error handler's `rest` family renders
 * `{code, details, hint, message}` as is. `body()` gives that object for other uses.
 */
export class RestQueryError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    details: string | null = null,
    hint: string | null = null,
  ) {
    super(status, code, message, { details, hint });
    this.name = 'RestQueryError';
  }

  /** withHeaders adds response headers (WWW-Authenticate on 401s) and returns the error. */
  withHeaders(headers: Record<string, string>): this {
    this.details.headers = { ...this.details.headers, ...headers };
    return this;
  }

  /** hint is PostgREST's hint, or null. */
  get hint(): string | null {
    return this.details.hint ?? null;
  }

  /** body is the PostgREST error body, all four keys present. */
  body(): { code: string; details: string | null; hint: string | null; message: string } {
    const details = this.details.details;
    return {
      code: this.code,
      details: typeof details === 'string' ? details : null,
      hint: this.hint,
      message: this.message,
    };
  }
}

/** ParseTarget names what failed to parse, as PostgREST words it in PGRST100 messages. */
export type ParseTarget =
  | 'filter'
  | 'logic tree'
  | 'order'
  | 'select parameter'
  | 'columns parameter'
  | 'on_conflict parameter'
  | 'tree path'
  | 'limit parameter'
  | 'offset parameter';

/**
 * parseError is PGRST100 in PostgREST's words: message `"failed to parse filter (xx.1)" (line 1, column 1)`,
 * details like `unexpected "x" expecting "not" or operator (eq, gt, ...)`. Columns count from 1.
 */
export function parseError(target: ParseTarget, input: string, column: number, details: string): RestQueryError {
  return new RestQueryError(
    400,
    'PGRST100',
    `"failed to parse ${target} (${input})" (line 1, column ${column})`,
    details,
  );
}

/** negativeLimit is PGRST103 for `limit` below zero. */
export const negativeLimit = () =>
  new RestQueryError(
    416,
    'PGRST103',
    'Requested range not satisfiable',
    'Limit should be greater than or equal to zero.',
  );

/** invertedRange is PGRST103 for a Range header whose lower bound passes its upper bound. */
export const invertedRange = () =>
  new RestQueryError(
    416,
    'PGRST103',
    'Requested range not satisfiable',
    'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
  );

/** offsetBeyondTotal is PGRST103 for an offset past the counted rows (the wiring raises it after counting). */
export const offsetBeyondTotal = (offset: number, total: number) =>
  new RestQueryError(
    416,
    'PGRST103',
    'Requested range not satisfiable',
    `An offset of ${offset} was requested, but there are only ${total} rows.`,
  );

/** invalidSchema is PGRST106 for an Accept-Profile or Content-Profile other than public. */
export const invalidSchema = (schema: string) =>
  new RestQueryError(
    406,
    'PGRST106',
    `Invalid schema: ${schema}`,
    null,
    'Only the following schemas are exposed: public',
  );

/** unacceptableMediaType is PGRST107 for an Accept header none of whose types Basalt can produce. */
export const unacceptableMediaType = (mediaTypes: string[]) =>
  new RestQueryError(406, 'PGRST107', `None of these media types are available: ${mediaTypes.join(', ')}`);

/** notGroupable is PGRST100 for a selection beside an aggregate that Basalt does not group by. */
export const notGroupable = (what: string) =>
  new RestQueryError(400, 'PGRST100', `Aggregates cannot be grouped by ${what}`, null, 'Select plain columns');

/** aggregatesNotAllowed is PGRST123, PostgREST's answer to aggregates while they are disabled (its default). */
export const aggregatesNotAllowed = () =>
  new RestQueryError(400, 'PGRST123', 'Use of aggregate functions is not allowed');

/** unknownType is PostgreSQL's 42704 for a cast to a type Basalt does not offer. */
export const unknownType = (type: string) => new RestQueryError(400, '42704', `type "${type}" does not exist`);

/** invalidTextRepresentation is 22P02 for a filter value that does not convert (messages come from column types). */
export const invalidTextRepresentation = (message: string, details: string | null = null) =>
  new RestQueryError(400, '22P02', message, details);

/** malformedArrayLiteral is 22P02 for a quantified filter whose value is not `{…}`. */
export const malformedArrayLiteral = (value: string) =>
  invalidTextRepresentation(
    `malformed array literal: "${value}"`,
    'Array value must start with "{" or dimension information.',
  );

/** undefinedColumn is 42703 for a column the table does not have (select, filters, order). */
export const undefinedColumn = (table: string, column: string) =>
  new RestQueryError(400, '42703', `column ${table}.${column} does not exist`);

/** unknownBodyColumn is PGRST204 for a column in the body or `columns` that the table does not have. */
export const unknownBodyColumn = (table: string, column: string) =>
  new RestQueryError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`);
