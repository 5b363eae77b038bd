import { z } from 'zod';

// The error shapes Every transport failure is an ApiError, so callers and the
// query client can branch on `status` alone (0 = no connection, 408 = timeout, 4xx = the caller's mistake).

const validationErrorsSchema = z.record(
  z.string(),
  z.union([z.array(z.string()), z.string()]).transform((v) => (Array.isArray(v) ? v : [v])),
);

/** ApiError is a non-OK answer of the /api server; its name is ApiError followed by the status. */
export class ApiError extends Error {
  readonly status: number;
  /** data is the parsed error body (JSON when the server sent JSON, else the text). */
  readonly data: unknown;
  /** validationErrors maps a field to its messages when the body carried them. */
  readonly validationErrors: Record<string, string[]> | undefined;

  constructor(status: number, message: string, data?: unknown, name = `ApiError${status}`) {
    super(message);
    this.name = name;
    this.status = status;
    this.data = data;
    this.validationErrors = readValidationErrors(data);
  }
}

/** ApiErrorTimeout is a request aborted after the client's time limit. */
export class ApiErrorTimeout extends ApiError {
  constructor() {
    super(408, 'Request timed out', undefined, 'ApiErrorTimeout');
  }
}

/** NetworkError is a request that never reached the server. */
export class NetworkError extends ApiError {
  constructor() {
    super(0, 'Network connection failed. Please check your internet connection.', undefined, 'NetworkError');
  }
}

/** UnknownError is any other failure of the transport. */
export class UnknownError extends ApiError {
  constructor(message = 'An unexpected error occurred') {
    super(500, message, undefined, 'UnknownError');
  }
}

/** errorStatus reads the HTTP status of any error that carries one (ours, or supabase-js's AuthError). */
export function errorStatus(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return undefined;
}

/** isClientError is true for 4xx answers, which retrying cannot fix. */
export function isClientError(error: unknown): boolean {
  const status = errorStatus(error);
  return status !== undefined && status >= 400 && status < 500;
}

/** errorMessage is the text to show a person for any thrown value. */
export function errorMessage(error: unknown, fallback = 'An unexpected error occurred'): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

function readValidationErrors(data: unknown): Record<string, string[]> | undefined {
  if (typeof data !== 'object' || data === null || !('validationErrors' in data)) return undefined;
  const parsed = validationErrorsSchema.safeParse(data.validationErrors);
  return parsed.success ? parsed.data : undefined;
}

/** apiErrorFromResponse builds the ApiError of a non-OK response from its status and body text. */
export function apiErrorFromResponse(response: Response, bodyText: string): ApiError {
  let data: unknown = bodyText || undefined;
  let message = bodyText || response.statusText || `Request failed with status ${response.status}`;
  if (bodyText) {
    try {
      data = JSON.parse(bodyText);
      message =
        typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string'
          ? data.message
          : response.statusText || `Request failed with status ${response.status}`;
    } catch {
      // Not JSON: the text itself is the message.
    }
  }
  return new ApiError(response.status, message, data);
}
