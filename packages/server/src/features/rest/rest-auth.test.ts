import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signTestToken, tamper } from '../../testing/auth.fixtures.js';
import {
  pgrst,
  type RestScenario,
  type RestUser,
  runRestScenario,
  startSeededRestServer,
} from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Who may call /rest/v1, which profiles, verbs and resources exist: the
// gateway's apikey check, the role of the bearer token, and their exact bodies and headers.

const T = 'todos';

describe.each(testDialects)('/rest/v1 gateway, roles and resources on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let expired: string;

  beforeAll(async () => {
    ({ server, alice } = await startSeededRestServer(dialect, T));
    expired = await signTestToken(
      server,
      { role: 'authenticated', aud: 'authenticated' },
      { expiresIn: -60, subject: alice.accountId },
    );
  });
  afterAll(() => server.close());

  const anon = () => ({ apikey: server.anonKey, authorization: `Bearer ${server.anonKey}` });
  const bearer = (token: string) => () => ({ apikey: server.anonKey, authorization: `Bearer ${token}` });

  const scenarios: RestScenario[] = [
    // The gateway and roles.
    {
      name: 'no apikey',
      method: 'GET',
      url: `/rest/v1/${T}`,
      headers: () => ({}),
      status: 401,
      expected: { message: 'No API key found in request' },
    },
    {
      name: 'an apikey that is not this instance’s',
      method: 'GET',
      url: `/rest/v1/${T}`,
      headers: () => ({ apikey: 'nope' }),
      status: 401,
      expected: { message: 'Invalid API key' },
    },
    {
      name: 'a user token as apikey',
      method: 'GET',
      url: `/rest/v1/${T}`,
      headers: () => ({ apikey: alice.accessToken }),
      status: 401,
      expected: { message: 'Invalid API key' },
    },
    {
      name: 'anon key as bearer: PGRST302',
      method: 'GET',
      url: `/rest/v1/${T}`,
      headers: anon,
      status: 401,
      expected: pgrst('PGRST302', 'Anonymous access is disabled'),
      expectedHeaders: { 'www-authenticate': 'Bearer' },
    },
    {
      name: 'no bearer at all: PGRST302',
      method: 'POST',
      url: `/rest/v1/${T}`,
      headers: () => ({ apikey: server.anonKey }),
      json: { title: 'x' },
      status: 401,
      expected: pgrst('PGRST302', 'Anonymous access is disabled'),
    },
    {
      name: 'a bearer that is no JWT: PGRST301',
      method: 'GET',
      url: `/rest/v1/${T}`,
      headers: bearer('abc'),
      status: 401,
      expected: pgrst('PGRST301', 'Expected 3 parts in JWT; got 1'),
      expectedHeaders: {
        'www-authenticate': 'Bearer error="invalid_token", error_description="Expected 3 parts in JWT; got 1"',
      },
    },
    {
      name: 'a tampered token: PGRST301',
      method: 'GET',
      url: `/rest/v1/${T}`,
      headers: () => bearer(tamper(alice.accessToken))(),
      status: 401,
      expected: pgrst('PGRST301', 'JWT cryptographic operation failed'),
    },
    {
      name: 'an expired token: PGRST303',
      method: 'GET',
      url: `/rest/v1/${T}`,
      headers: () => bearer(expired)(),
      status: 401,
      expected: pgrst('PGRST303', 'JWT expired'),
      expectedHeaders: { 'www-authenticate': 'Bearer error="invalid_token", error_description="JWT expired"' },
    },
    {
      name: 'the service key: 42501',
      method: 'GET',
      url: `/rest/v1/${T}`,
      headers: () => ({ apikey: server.serviceKey, authorization: `Bearer ${server.serviceKey}` }),
      status: 403,
      expected: pgrst('42501', `permission denied for table ${T}`),
    },
    // Profiles, verbs, resources.
    {
      name: 'Accept-Profile other than public: PGRST106',
      method: 'GET',
      url: `/rest/v1/${T}`,
      extraHeaders: { 'accept-profile': 'private' },
      status: 406,
      expected: pgrst('PGRST106', 'Invalid schema: private', null, 'Only the following schemas are exposed: public'),
    },
    {
      name: 'Content-Profile other than public: PGRST106',
      method: 'POST',
      url: `/rest/v1/${T}`,
      extraHeaders: { 'content-profile': 'x' },
      json: { title: 'x' },
      status: 406,
      expected: pgrst('PGRST106', 'Invalid schema: x', null, 'Only the following schemas are exposed: public'),
    },
    {
      name: 'PUT: PGRST117',
      method: 'PUT',
      url: `/rest/v1/${T}?id=eq.1`,
      json: { id: 1, title: 'x' },
      status: 405,
      expected: pgrst('PGRST117', 'Unsupported HTTP method: PUT'),
    },
    {
      name: 'rpc: PGRST202',
      method: 'POST',
      url: '/rest/v1/rpc/hello',
      json: { name: 'x' },
      status: 404,
      expected: pgrst(
        'PGRST202',
        'Could not find the function public.hello(name) in the schema cache',
        'Searched for the function public.hello with parameters name or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      ),
    },
    {
      name: 'rpc without parameters: PGRST202',
      method: 'GET',
      url: '/rest/v1/rpc/hello',
      status: 404,
      expected: pgrst(
        'PGRST202',
        'Could not find the function public.hello without parameters in the schema cache',
        'Searched for the function public.hello without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      ),
    },
    {
      name: 'unknown table: PGRST205',
      method: 'GET',
      url: '/rest/v1/todo',
      status: 404,
      expected: pgrst('PGRST205', "Could not find the table 'public.todo' in the schema cache"),
    },
    {
      name: 'a name no table can have: PGRST205',
      method: 'DELETE',
      url: `/rest/v1/${encodeURIComponent("x'; drop table t_1;--")}?id=eq.1`,
      status: 404,
      expected: pgrst('PGRST205', "Could not find the table 'public.x'; drop table t_1;--' in the schema cache"),
    },
  ];

  it.each(scenarios)('$name', (scenario) => runRestScenario(server, alice, scenario));

  it('accepts the apikey as a query parameter', async () => {
    const res = await server.request(
      'GET',
      `/rest/v1/${T}?select=id&apikey=${encodeURIComponent(server.anonKey)}&id=eq.1`,
      {
        headers: { authorization: alice.headers.authorization ?? '' },
      },
    );
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [{ id: 1 }] });
  });

  it('refuses a token it accepted before once the token expires', async () => {
    const token = await signTestToken(
      server,
      { role: 'authenticated', aud: 'authenticated' },
      { expiresIn: 60, subject: alice.accountId },
    );
    const url = `/rest/v1/${T}?select=id&limit=1`;
    const headers = bearer(token)();
    expect((await server.request('GET', url, { headers })).status).toBe(200);
    // The verification is remembered until the token's exp, and not a moment longer.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const res = await server.request('GET', url, { headers });
      expect({ status: res.status, code: res.body?.code }).toEqual({ status: 401, code: 'PGRST303' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a token that borrows the signature of one it accepted before', async () => {
    const [header, payload, signature] = alice.accessToken.split('.');
    const url = `/rest/v1/${T}?select=id&limit=1`;
    expect((await server.request('GET', url, { headers: bearer(alice.accessToken)() })).status).toBe(200);
    // Same signature, another payload (another subject): remembered tokens are matched whole, not by signature.
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: crypto.randomUUID() })).toString('base64url');
    const res = await server.request('GET', url, { headers: bearer(`${header}.${forged}.${signature}`)() });
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 401, code: 'PGRST301' });
  });

  it('answers the CORS preflight without credentials', async () => {
    const res = await server.request('OPTIONS', `/rest/v1/${T}`, {
      headers: {
        origin: 'http://app.example',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'apikey, authorization, prefer, content-profile',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('reads a DELETE with a JSON content type and an empty body as having none', async () => {
    const res = await server.request('DELETE', `/rest/v1/${T}?id=eq.999`, {
      headers: { ...alice.headers, 'content-type': 'application/json' },
      body: '',
    });
    expect({ status: res.status, text: res.text }).toEqual({ status: 204, text: '' });
  });
});
