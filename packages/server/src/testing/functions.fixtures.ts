import { expect } from 'vitest';
import type { TestResponse, TestServer } from './test-server.js';

// Test fixtures for edge functions: named function sources (a hello, the hostile ones) and a helper that creates
// and deploys a function as a user.

/** sources are named function modules the suites deploy. */
export const sources = {
  hello: `Deno.serve(async (req: Request) => {
  const { name } = await req.json().catch(() => ({ name: 'world' }));
  return new Response(JSON.stringify({ message: \`Hello \${name}!\` }), { headers: { 'Content-Type': 'application/json' } });
});`,
  echo: `export default {
  async fetch(req: Request) {
    const url = new URL(req.url);
    console.log('echo', req.method, url.pathname);
    return Response.json({
      method: req.method,
      path: url.pathname,
      search: url.search,
      body: await req.text(),
      contentType: req.headers.get('content-type'),
      authorization: req.headers.get('authorization'),
    });
  },
};`,
};

/** deployFunction creates a function from source as `user`, deploys it and returns the deployed function. */
export async function deployFunction(
  server: TestServer,
  user: { accessToken: string },
  fields: { name: string; code: string; verifyJwt?: boolean; route?: string; isActive?: boolean },
): Promise<{ id: number; route: string; name: string }> {
  const headers = { authorization: `Bearer ${user.accessToken}` };
  const created = await server.request('POST', '/api/edge-functions', {
    headers,
    json: { verifyJwt: false, ...fields },
  });
  expect(created.status, created.text).toBe(201);
  const deployed = await server.request('POST', `/api/edge-functions/${created.body.id}/deploy`, { headers });
  expect(deployed.status, deployed.text).toBe(200);
  return deployed.body;
}

/** expectRelayError checks a relay error's status, code, limit and headers. */
export function expectRelayError(res: TestResponse, status: number, code: string, limit?: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status,
    body: { code, ...(limit ? { limit } : {}) },
  });
  expect(res.headers.get('x-relay-error')).toBe('true');
  expect(res.headers.get('sb-error-code')).toBe(code);
}
