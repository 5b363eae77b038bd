import { CONSOLE_CLIENT_HEADER } from '@basalt/shared';
import type { QueryFunction, QueryFunctionContext, QueryKey } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiErrorTimeout, apiErrorFromResponse, NetworkError, UnknownError } from './api-errors';
import { reportNetworkSignal } from './network-signals';

export { ApiError, ApiErrorTimeout, NetworkError, UnknownError } from './api-errors';

// The console's client for its own /api. Every call sends the session cookie and,
// when signed in, the supabase access token as a bearer token; the server accepts either. Mutating calls
// also send the CSRF token for the cookie path.

/** REQUEST_TIMEOUT_MS is when a request is aborted. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** CSRF_STORAGE_KEY is the sessionStorage key of the cached CSRF token. */
export const CSRF_STORAGE_KEY = 'csrfToken';

type AccessTokenProvider = () => Promise<string | null | undefined>;
let accessTokenProvider: AccessTokenProvider | null = null;

/** setAccessTokenProvider tells the client how to read the current session's access token. */
export function setAccessTokenProvider(provider: AccessTokenProvider | null): void {
  accessTokenProvider = provider;
}

const csrfResponseSchema = z.object({ csrfToken: z.string().min(1) });

/** getCsrfToken returns the cached CSRF token or fetches one; on failure it logs and returns null. */
export async function getCsrfToken(): Promise<string | null> {
  const cached = readSessionStorage(CSRF_STORAGE_KEY);
  if (cached) return cached;
  try {
    const response = await fetch('/api/csrf-token', {
      credentials: 'include',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`GET /api/csrf-token answered ${response.status}`);
    const { csrfToken } = csrfResponseSchema.parse(await response.json());
    try {
      sessionStorage.setItem(CSRF_STORAGE_KEY, csrfToken);
    } catch {
      // Storage may be unavailable (private mode); the token is still used for this request.
    }
    return csrfToken;
  } catch (error) {
    console.error('Could not fetch a CSRF token; sending the request without one.', error);
    return null;
  }
}

/** clearCsrfToken forgets the cached CSRF token (after a rejection, or at sign-out). */
export function clearCsrfToken(): void {
  try {
    sessionStorage.removeItem(CSRF_STORAGE_KEY);
  } catch {
    // Nothing cached.
  }
}

function readSessionStorage(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** ApiRequestOptions tunes one request. */
export interface ApiRequestOptions {
  /** signal cancels the request (TanStack Query passes one). */
  signal?: AbortSignal;
  /** csrf: false skips the X-CSRF-Token header on a mutating call. */
  csrf?: boolean;
  /** timeoutMs overrides the 30 s limit (tests). */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** apiRequest sends one request to the server and returns the OK response; anything else throws an ApiError. */
export function apiRequest(
  method: string,
  path: string,
  body?: unknown,
  options: ApiRequestOptions = {},
): Promise<Response> {
  return apiRequestOnce(method, path, body, options, false);
}

async function apiRequestOnce(
  method: string,
  path: string,
  body: unknown,
  options: ApiRequestOptions,
  retriedCsrf: boolean,
): Promise<Response> {
  const upper = method.toUpperCase();
  const mutating = upper !== 'GET' && upper !== 'HEAD';
  // The console's mark: its own calls are not the account's API usage (docs/billing.md).
  const headers: Record<string, string> = {
    Accept: 'application/json',
    [CONSOLE_CLIENT_HEADER]: '1',
    ...options.headers,
  };
  const token = accessTokenProvider ? await accessTokenProvider() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  // A FormData body (a file upload) goes as multipart, with the boundary the browser sets; a Blob (an archive) as
  // its bytes.
  const form =
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob);
  if (body instanceof Blob) headers['Content-Type'] = 'application/gzip';
  else if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  if (mutating && options.csrf !== false) {
    const csrfToken = await getCsrfToken();
    if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
  } else if (!mutating) {
    headers['Cache-Control'] = 'no-cache';
  }
  const init: RequestInit = {
    method: upper,
    headers,
    credentials: 'include',
    cache: 'no-store',
    body: body === undefined ? undefined : form ? (body as BodyInit) : JSON.stringify(body),
  };
  const response = await fetchWithTimeout(path, init, options);
  if (!response.ok) {
    const text = await safeText(response);
    // A cached token goes stale when the server's session changes: fetch a fresh one and try once more.
    if (response.status === 403 && headers['X-CSRF-Token'] && /csrf/i.test(text) && !retriedCsrf) {
      clearCsrfToken();
      return apiRequestOnce(method, path, body, options, true);
    }
    throw apiErrorFromResponse(response, text);
  }
  return response;
}

async function fetchWithTimeout(path: string, init: RequestInit, options: ApiRequestOptions): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const forwardAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) forwardAbort();
  options.signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    return await fetch(path, { ...init, signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new ApiErrorTimeout();
    // A cancellation by the caller is not a failure; let the caller see its own abort.
    if (options.signal?.aborted) throw error;
    if (error instanceof TypeError) {
      reportNetworkSignal('lost');
      throw new NetworkError();
    }
    throw new UnknownError(error instanceof Error ? error.message : undefined);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }
}

async function safeText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    return '';
  }
}

/** readJson reads a response body as JSON; an empty body (204) is null. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

/** apiJson sends a request and parses the answer with a shared zod schema. */
export async function apiJson<S extends z.ZodType>(
  schema: S,
  method: string,
  path: string,
  body?: unknown,
  options?: ApiRequestOptions,
): Promise<z.output<S>> {
  const response = await apiRequest(method, path, body, options);
  return schema.parse(await readJson(response));
}

type QueryParams = Record<string, unknown>;

/** buildQueryUrl appends params as a query string, skipping null and undefined values. */
export function buildQueryUrl(path: string, params?: QueryParams): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const query = search.toString();
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** queryUrlFromKey turns a query key [path, params?] into the URL it names. */
export function queryUrlFromKey(queryKey: QueryKey): string {
  const [path, params] = queryKey;
  if (typeof path !== 'string') throw new UnknownError('The first element of a query key must be the API path');
  return buildQueryUrl(path, isParams(params) ? params : undefined);
}

function isParams(value: unknown): value is QueryParams {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Unauthorized401 says what a query does with a 401: throw it, or resolve to null. */
export type Unauthorized401 = 'throw' | 'returnNull';

async function runQuery(context: QueryFunctionContext, on401: Unauthorized401): Promise<unknown> {
  try {
    const response = await apiRequest('GET', queryUrlFromKey(context.queryKey), undefined, { signal: context.signal });
    return await readJson(response);
  } catch (error) {
    if (on401 === 'returnNull' && error instanceof Error && 'status' in error && error.status === 401) return null;
    throw error;
  }
}

/** getQueryFn is the default query function: GET the key's path and read JSON. */
export function getQueryFn(options: { on401: Unauthorized401 }): QueryFunction<unknown> {
  return (context) => runQuery(context, options.on401);
}

/** jsonQuery is a query function that parses the answer with a zod schema. */
export function jsonQuery<S extends z.ZodType>(schema: S): QueryFunction<z.output<S>> {
  return async (context) => schema.parse(await runQuery(context, 'throw'));
}

/** jsonQueryOrNull is jsonQuery that resolves to null when the server answers 401. */
export function jsonQueryOrNull<S extends z.ZodType>(schema: S): QueryFunction<z.output<S> | null> {
  return async (context) => {
    const data = await runQuery(context, 'returnNull');
    return data === null ? null : schema.parse(data);
  };
}
