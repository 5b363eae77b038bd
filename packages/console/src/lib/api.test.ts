import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiRequest,
  buildQueryUrl,
  CSRF_STORAGE_KEY,
  getQueryFn,
  queryUrlFromKey,
  REQUEST_TIMEOUT_MS,
  setAccessTokenProvider,
} from './api';
import { onNetworkSignal } from './network-signals';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** fetchMock answers /api/csrf-token with a token and every other URL with `answer`. */
function mockFetch(answer: (url: string, init?: RequestInit) => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/csrf-token') return json({ csrfToken: 'csrf-123' });
    return answer(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function headersOf(init: RequestInit | undefined): Headers {
  return new Headers(init?.headers);
}

function callTo(fetchMock: ReturnType<typeof mockFetch>, url: string) {
  const call = fetchMock.mock.calls.find(([input]) => String(input) === url);
  if (!call) throw new Error(`no request to ${url}`);
  return call[1];
}

beforeEach(() => setAccessTokenProvider(null));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('apiRequest', () => {
  it('sends JSON, credentials, no-store and the CSRF token on a POST', async () => {
    const fetchMock = mockFetch(() => json({ ok: true }, 201));
    await apiRequest('POST', '/api/tables', { name: 'orders' });
    const init = callTo(fetchMock, '/api/tables');
    const headers = headersOf(init);
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.cache).toBe('no-store');
    expect(init?.body).toBe('{"name":"orders"}');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('X-CSRF-Token')).toBe('csrf-123');
    expect(sessionStorage.getItem(CSRF_STORAGE_KEY)).toBe('csrf-123');
  });

  it('reuses the CSRF token cached in sessionStorage', async () => {
    sessionStorage.setItem(CSRF_STORAGE_KEY, 'cached-token');
    const fetchMock = mockFetch(() => new Response(null, { status: 204 }));
    await apiRequest('DELETE', '/api/keys/1');
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toEqual(['/api/keys/1']);
    expect(headersOf(callTo(fetchMock, '/api/keys/1')).get('X-CSRF-Token')).toBe('cached-token');
  });

  it('fetches a fresh CSRF token and retries once when the cached one is rejected', async () => {
    sessionStorage.setItem(CSRF_STORAGE_KEY, 'stale-token');
    let attempts = 0;
    const fetchMock = mockFetch((_url, init) => {
      attempts += 1;
      return headersOf(init).get('X-CSRF-Token') === 'csrf-123'
        ? json({ ok: true })
        : json({ message: 'Invalid CSRF token' }, 403);
    });
    await apiRequest('POST', '/api/keys', { name: 'ci' });
    expect(attempts).toBe(2);
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toEqual(['/api/keys', '/api/csrf-token', '/api/keys']);
    expect(sessionStorage.getItem(CSRF_STORAGE_KEY)).toBe('csrf-123');
  });

  it('sends no CSRF header on a GET, and none when csrf is disabled', async () => {
    const fetchMock = mockFetch(() => json([]));
    await apiRequest('GET', '/api/tables');
    await apiRequest('POST', '/api/public', {}, { csrf: false });
    expect(headersOf(callTo(fetchMock, '/api/tables')).has('X-CSRF-Token')).toBe(false);
    expect(headersOf(callTo(fetchMock, '/api/public')).has('X-CSRF-Token')).toBe(false);
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/csrf-token')).toBe(false);
  });

  it('logs and sends no header when the CSRF token cannot be fetched', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) =>
      String(input) === '/api/csrf-token' ? new Response('nope', { status: 500 }) : json({}),
    );
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('PATCH', '/api/user/profile', { username: 'ada' });
    expect(error).toHaveBeenCalled();
    expect(headersOf(fetchMock.mock.calls[1]?.[1]).has('X-CSRF-Token')).toBe(false);
  });

  it('sends the access token as a bearer token when signed in', async () => {
    setAccessTokenProvider(async () => 'jwt-abc');
    const fetchMock = mockFetch(() => json({}));
    await apiRequest('GET', '/api/stats');
    expect(headersOf(callTo(fetchMock, '/api/stats')).get('Authorization')).toBe('Bearer jwt-abc');
  });

  it('throws ApiError<status> with the JSON body message, data and validation errors', async () => {
    const body = { message: 'Invalid table', validationErrors: { name: ['Table name must be at least 3 characters'] } };
    mockFetch(() => json(body, 400));
    const error = await apiRequest('POST', '/api/tables', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError400',
      message: 'Invalid table',
      status: 400,
      data: body,
      validationErrors: { name: ['Table name must be at least 3 characters'] },
    });
  });

  it('uses the body text, else the status text, when the body is not JSON with a message', async () => {
    mockFetch(() => new Response('Upstream exploded', { status: 502, statusText: 'Bad Gateway' }));
    await expect(apiRequest('GET', '/api/stats')).rejects.toMatchObject({
      name: 'ApiError502',
      message: 'Upstream exploded',
      status: 502,
    });
    mockFetch(() => new Response('', { status: 404, statusText: 'Not Found' }));
    await expect(apiRequest('GET', '/api/nothing')).rejects.toMatchObject({
      name: 'ApiError404',
      message: 'Not Found',
    });
  });

  it('turns a failed fetch into NetworkError (status 0) and tells the listeners', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const listener = vi.fn();
    const unsubscribe = onNetworkSignal(listener);
    await expect(apiRequest('GET', '/api/stats')).rejects.toMatchObject({
      name: 'NetworkError',
      status: 0,
      message: 'Network connection failed. Please check your internet connection.',
    });
    unsubscribe();
    expect(listener).toHaveBeenCalledExactlyOnceWith('lost');
  });

  it('turns any other failure into UnknownError (status 500)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new RangeError('weird');
      }),
    );
    await expect(apiRequest('GET', '/api/stats')).rejects.toMatchObject({ name: 'UnknownError', status: 500 });
  });

  it('aborts after 30 s with ApiErrorTimeout (408)', async () => {
    vi.useFakeTimers();
    let aborted = false;
    mockFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('The operation was aborted.', 'AbortError'));
          });
        }),
    );
    const result = apiRequest('POST', '/api/slow', {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(aborted).toBe(true);
    expect(await result).toMatchObject({ name: 'ApiErrorTimeout', message: 'Request timed out', status: 408 });
  });
});

describe('query URLs', () => {
  it('builds the query string from the second key element, skipping null and undefined', () => {
    expect(buildQueryUrl('/api/activity', { page: 2, limit: 10, search: null, level: undefined })).toBe(
      '/api/activity?page=2&limit=10',
    );
    expect(buildQueryUrl('/api/logs', { tag: ['a', 'b'], q: 'x y' })).toBe('/api/logs?tag=a&tag=b&q=x+y');
    expect(buildQueryUrl('/api/x?fixed=1', { page: 1 })).toBe('/api/x?fixed=1&page=1');
    expect(queryUrlFromKey(['/api/tables'])).toBe('/api/tables');
    expect(queryUrlFromKey(['/api/history', { tableId: 7, since: null }])).toBe('/api/history?tableId=7');
    expect(queryUrlFromKey(['/api/tables', 'not-params'])).toBe('/api/tables');
  });
});

describe('getQueryFn', () => {
  it('GETs the key path and returns JSON', async () => {
    const fetchMock = mockFetch(() => json({ activities: 3 }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const data = await client.fetchQuery({
      queryKey: ['/api/activity', { page: 1, limit: 10, filter: undefined }],
      queryFn: getQueryFn({ on401: 'throw' }),
    });
    expect(data).toEqual({ activities: 3 });
    const init = callTo(fetchMock, '/api/activity?page=1&limit=10');
    expect(init?.method).toBe('GET');
    expect(headersOf(init).get('Accept')).toBe('application/json');
    // The console's mark: its own calls are not the account's API usage.
    expect(headersOf(init).get('x-basalt-console')).toBe('1');
    expect(headersOf(init).get('Cache-Control')).toBe('no-cache');
  });

  it('throws a 401 by default and returns null in returnNull mode', async () => {
    mockFetch(() => json({ message: 'Not signed in' }, 401));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(
      client.fetchQuery({ queryKey: ['/api/auth/me'], queryFn: getQueryFn({ on401: 'throw' }) }),
    ).rejects.toMatchObject({ name: 'ApiError401', message: 'Not signed in' });
    await expect(
      client.fetchQuery({ queryKey: ['/api/auth/me', { v: 2 }], queryFn: getQueryFn({ on401: 'returnNull' }) }),
    ).resolves.toBeNull();
  });

  it('still throws other errors in returnNull mode', async () => {
    mockFetch(() => json({ message: 'Forbidden' }, 403));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(
      client.fetchQuery({ queryKey: ['/api/admin'], queryFn: getQueryFn({ on401: 'returnNull' }) }),
    ).rejects.toMatchObject({ status: 403 });
  });
});
