// A stand-in for the Basalt server in component tests: `fetch` answers from a route table, and the real
// supabase-js client (built by the test) sends its /rest/v1 calls through it. Routes are "METHOD /path";
// query strings are left to the handler. Unmatched calls answer 404, /api/auth/me answers 401.

/** FakeRequest is one request the console made. */
export interface FakeRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** FakeRoute answers a request. */
export type FakeRoute = (request: FakeRequest) => Response | Promise<Response>;

/** json builds a JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** FAKE_ORIGIN is where the fake server lives. */
export const FAKE_ORIGIN = 'http://basalt.test';

/** createFakeBackend returns the fetch to stub and the list of requests it answered. */
export function createFakeBackend(routes: Record<string, FakeRoute>) {
  const requests: FakeRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(href, FAKE_ORIGIN);
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : '';
    const request: FakeRequest = {
      method,
      url,
      headers: new Headers(init.headers),
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(request);
    const route = routes[`${method} ${url.pathname}`];
    if (route) return route(request);
    if (url.pathname === '/api/auth/me') return json(401, { message: 'Not signed in' });
    if (url.pathname === '/api/csrf-token') return json(200, { csrfToken: 'csrf-token' });
    return json(404, { message: `No route for ${method} ${url.pathname}` });
  };
  return {
    fetch,
    requests,
    find: (method: string, path: string) => requests.filter((r) => r.method === method && r.url.pathname === path),
  };
}
