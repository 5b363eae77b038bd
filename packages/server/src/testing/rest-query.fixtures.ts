import { RestQueryError } from '../features/rest/rest-query.errors.js';

// Helpers of the parser's unit suites (rest-query.*.test.ts): a thrown RestQueryError as the client reads it.

/** RestErrorBody is a parse error as the client sees it: the status and PostgREST's four keys. */
export interface RestErrorBody {
  status: number;
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

/** errorOf runs a parse that must fail and returns its RestQueryError as status and body. */
export function errorOf(run: () => unknown): RestErrorBody {
  try {
    run();
  } catch (error) {
    if (error instanceof RestQueryError) return { status: error.status, ...error.body() };
    throw error;
  }
  throw new Error('no error');
}

/** parseFailure is PGRST100 for a parameter, `filter (qty.x)`, failing at a column, as PostgREST words it. */
export function parseFailure(subject: string, column: number, details: string): RestErrorBody {
  return {
    status: 400,
    code: 'PGRST100',
    message: `"failed to parse ${subject}" (line 1, column ${column})`,
    details,
    hint: null,
  };
}
