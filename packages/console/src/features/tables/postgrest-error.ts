import { ApiError } from '@/lib/api-errors';

// supabase-js answers `{data, error, status}` instead of throwing. The console's queries and mutations want
// a thrown ApiError that carries the HTTP status, so that the query client's "no retry on 4xx" rule applies.

/** PostgrestFailure is the error part of a supabase-js answer. */
export interface PostgrestFailure {
  message: string;
  code?: string;
  details?: string | null;
  hint?: string | null;
}

/** postgrestError turns a supabase-js error and its status into an ApiError with the server's message. */
export function postgrestError(error: PostgrestFailure, status: number): ApiError {
  return new ApiError(status, error.message || 'Something went wrong. Please try again.', error);
}

/** postgrestCode reads the PostgREST error code (PGRST103, 23505, …) of a thrown error, if any. */
export function postgrestCode(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const data = error.data;
  return typeof data === 'object' && data !== null && 'code' in data && typeof data.code === 'string'
    ? data.code
    : undefined;
}
