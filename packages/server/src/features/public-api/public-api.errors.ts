import { ApiError, notFound } from '../../http/errors.js';
import type { TableDefinition } from '../tables/table-definition.js';

// The public record API answers `{error: {code, message, details}}` (http/error-family.ts, which upper-cases
// the code). The records service and the query parser speak PostgREST's codes, which mean little to someone
// calling /api/table with curl, so they are renamed here; status, message and details stay as they are.

const PUBLIC_CODES: Record<string, string> = {
  PGRST204: 'unknown_field',
  '23502': 'missing_field',
  '23505': 'duplicate_value',
  PGRST102: 'invalid_body',
  PGRST205: 'table_not_found',
  '57014': 'query_timeout',
};

/** tableNotFound is the 404 of a table the caller does not have (another account's included). */
export const tableNotFound = (name: string) =>
  notFound(`Table '${name.length > 80 ? `${name.slice(0, 80)}…` : name}' not found`, 'table_not_found');

/** recordNotFound is the 404 of a record id the table does not have. */
export const recordNotFound = (table: TableDefinition, id: string) =>
  notFound(`Record '${id.length > 40 ? `${id.slice(0, 40)}…` : id}' not found in '${table.name}'`, 'record_not_found');

/** publicErrorOf renames a records-service or parser error's code for the public API; other errors pass through. */
export function publicErrorOf(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const renamed =
    PUBLIC_CODES[error.code] ??
    (error.code === '22P02' && error.details.fieldErrors ? 'invalid_field' : null) ??
    (error.status === 400 && /^(PGRST1\d\d|22P02|42703|42883|2201B|42P10|21000)$/.test(error.code)
      ? 'invalid_query'
      : null);
  if (!renamed) return error;
  // A field's own words ("\"sku\" must be unique: …") read better than PostgreSQL's constraint names.
  const fieldMessage = Object.values(error.details.fieldErrors ?? {}).flat()[0];
  return new ApiError(error.status, renamed, fieldMessage ?? error.message, error.details);
}
