import type { SampleValue } from './record-samples';

// What the public record API answers (docs/data-api.md has what the server does: 409 for a unique value taken, 413 for a body too large).
// Error bodies are {error: {code, message, details}}; the codes and messages below are the server's own.

/** StatusCodeDoc is one status the record API answers, what it means and an example body. */
export interface StatusCodeDoc {
  status: number;
  title: string;
  meaning: string;
  example: SampleValue;
}

/** apiErrorBody is the record API's error body. */
export function apiErrorBody(code: string, message: string, details: SampleValue = null): SampleValue {
  return { error: { code, message, details } };
}

/** STATUS_CODES are the answers of the public record API, in order. */
export const STATUS_CODES: readonly StatusCodeDoc[] = [
  {
    status: 200,
    title: 'OK',
    meaning: 'Success: the record, the list of records, or the delete confirmation.',
    example: { success: true, message: 'Record deleted successfully' },
  },
  {
    status: 201,
    title: 'Created',
    meaning: 'A record was created; the body is the new record with its id.',
    example: { id: 1, created_at: '2025-01-15T09:30:00.000Z', updated_at: '2025-01-15T09:30:00.000Z' },
  },
  {
    status: 400,
    title: 'Bad Request',
    meaning: 'Invalid format or missing fields: details names each field and what is wrong with it.',
    example: apiErrorBody('MISSING_FIELD', '"title" is required', { title: ['"title" is required'] }),
  },
  {
    status: 401,
    title: 'Unauthorized',
    meaning: 'Missing or invalid API key.',
    example: apiErrorBody('INVALID_API_KEY', 'Missing or invalid API key'),
  },
  {
    status: 403,
    title: 'Forbidden',
    meaning: 'The key lacks permission for this operation.',
    example: apiErrorBody('FORBIDDEN', 'You do not have access to this resource'),
  },
  {
    status: 404,
    title: 'Not Found',
    meaning: 'No such table or record.',
    example: apiErrorBody('TABLE_NOT_FOUND', "Table 'nothing' not found"),
  },
  {
    status: 409,
    title: 'Conflict',
    meaning: 'A unique column already has that value.',
    example: apiErrorBody(
      'DUPLICATE_VALUE',
      '"sku" must be unique: another record in "products" already has this value',
      { sku: ['"sku" must be unique: another record in "products" already has this value'] },
    ),
  },
  {
    status: 413,
    title: 'Payload Too Large',
    meaning: 'The request body is larger than the server accepts.',
    example: apiErrorBody('PAYLOAD_TOO_LARGE', 'The request body is larger than the 1024 KiB this server accepts.'),
  },
  {
    status: 429,
    title: 'Too Many Requests',
    meaning: 'Rate limit exceeded: wait the seconds the Retry-After header says, then try again.',
    example: apiErrorBody('RATE_LIMITED', 'Rate limit exceeded: try again in 12 seconds'),
  },
  {
    status: 500,
    title: 'Internal Server Error',
    meaning: 'Something failed on the server; the server log has the details.',
    example: apiErrorBody('INTERNAL_ERROR', 'Something went wrong on the server. Please try again.'),
  },
];
