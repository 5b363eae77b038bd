/**
 * ErrorFamily names the error body shapes: the four of DESIGN.md "APIs", the API gateway's `{message}` that
 * Supabase's gateway answers before a request reaches auth or data (a missing or unknown apikey), Supabase
 * Storage's for /storage/v1, and the functions relay's `{code, message}` for a function call's own refusals. The
 * other refusals on /functions/v1 and /realtime/v1 answer JSON {message, code}, the console's shape.
 */
export type ErrorFamily = 'auth' | 'rest' | 'console' | 'public' | 'gateway' | 'storage' | 'functions';

/** ApiError is the one error class every feature throws; the error handler formats it per API family. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra facts for the client: field errors, PostgREST details/hint, GoTrue weak_password. */
    readonly details: ApiErrorDetails = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** ApiErrorDetails are the optional parts of an error body. */
export interface ApiErrorDetails {
  /** family writes the error in another family's shape than its route's (a gateway's, an unknown path's). */
  family?: ErrorFamily;
  /** Per-field messages (console and public families). */
  fieldErrors?: Record<string, string[]>;
  /** PostgREST `details` / public API `details`. */
  details?: string | Record<string, unknown> | null;
  /** PostgREST `hint`. */
  hint?: string | null;
  /** Extra top-level keys of a GoTrue error body (e.g. weak_password). */
  extra?: Record<string, unknown>;
  /** Response headers to add (WWW-Authenticate, Retry-After). */
  headers?: Record<string, string>;
}

/** badRequest is a 400 with a code and message. */
export const badRequest = (code: string, message: string, details?: ApiErrorDetails) =>
  new ApiError(400, code, message, details);

/** invalid is a 400 carrying per-field messages; the message is the first of them. */
export function invalid(fieldErrors: Record<string, string[]>, code = 'validation_failed'): ApiError {
  const first = Object.values(fieldErrors).flat()[0] ?? 'Invalid input';
  return new ApiError(400, code, first, { fieldErrors });
}

/** unauthorized is a 401. */
export const unauthorized = (message = 'Authentication required', code = 'unauthorized') =>
  new ApiError(401, code, message);

/** forbidden is a 403. */
export const forbidden = (message = 'You do not have access to this resource', code = 'forbidden') =>
  new ApiError(403, code, message);

/** notFound is a 404. */
export const notFound = (message = 'Not found', code = 'not_found') => new ApiError(404, code, message);

/** conflict is a 409. */
export const conflict = (message: string, code = 'conflict', details?: ApiErrorDetails) =>
  new ApiError(409, code, message, details);

/** tooManyRequests is a 429 that tells the client when to retry. */
export const tooManyRequests = (message: string, retryAfterSeconds: number, code = 'rate_limited') =>
  new ApiError(429, code, message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

/** roleForbidden is the 403 of a project member whose role may not do something. */
export function roleForbidden(role: string, doing: string): ApiError {
  return new ApiError(403, 'role_forbidden', `Your role in this project (${role}) does not allow you to ${doing}.`);
}
