import { CSV_TYPE } from './rest-csv.js';
import { offsetBeyondTotal, RestQueryError } from './rest-query.errors.js';
import { preferenceApplied } from './rest-query.headers.js';
import type { Preferences, ResponseFormat } from './rest-query.types.js';

// What a data-API response is made of: status, Content-Range, Preference-Applied and a body
// that is an array, one object (the singular Accept) or nothing. The service builds a RestReply; the route
// only writes it.

/** RestReply is a response of the data API, ready to write. */
export interface RestReply {
  status: number;
  headers: Record<string, string>;
  /** The JSON body; undefined for none (return=minimal, 204, HEAD). */
  body?: unknown;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

/** contentType is the Content-Type of a response body in a format. */
export const contentType = (format: ResponseFormat) =>
  format === 'object' ? OBJECT_TYPE : format === 'csv' ? CSV_TYPE : JSON_TYPE;

/** notSingular is PGRST116: the singular Accept met a number of rows other than one. */
const notSingular = (rows: number) =>
  new RestQueryError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );

/** checkSingular throws PGRST116 when a singular response would not have exactly one row. */
export function checkSingular(format: ResponseFormat, rows: number): void {
  if (format === 'object' && rows !== 1) throw notSingular(rows);
}

/** rangeHeader is Content-Range: `{first}-{last}/{total}`, `*` for no rows and for an uncounted total. */
export function rangeHeader(offset: number, rows: number, total: number | null): string {
  const range = rows > 0 ? `${offset}-${offset + rows - 1}` : '*';
  return `${range}/${total ?? '*'}`;
}

/**
 * readStatus is a read's status as PostgREST decides it from the count: 416 (PGRST103) when the offset passes
 * the total, 206 when fewer rows than the total come back, else 200.
 */
export function readStatus(offset: number, rows: number, total: number | null): number {
  if (total === null) return 200;
  if (offset > total) throw offsetBeyondTotal(offset, total);
  return rows < total ? 206 : 200;
}

/** appliedHeader adds Preference-Applied when any preference was honoured. */
export function appliedHeader(headers: Record<string, string>, prefer: Partial<Preferences>): Record<string, string> {
  if (!prefer.return && !prefer.count && !prefer.resolution && !prefer.missing) return headers;
  const applied = preferenceApplied({ return: null, count: null, resolution: null, missing: null, ...prefer });
  if (applied) headers['Preference-Applied'] = applied;
  return headers;
}

/** bodyOf is a response's body: the rows, or the single row for the singular Accept. */
export function bodyOf(format: ResponseFormat, rows: unknown[]): unknown {
  return format === 'object' ? rows[0] : rows;
}
