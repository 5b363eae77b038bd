import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  keyHeaders,
  runScenario,
  type SignedInTestUser,
  signTestToken,
  signUpUser,
  startAuthServer,
  users,
} from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

describe.each(testDialects)('the /auth/v1 gateway and metadata on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let otherAnonKey: string;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
    otherAnonKey = await signTestToken(server, { role: 'anon', iss: 'basalt' });
  });
  afterAll(() => server.close());

  const noKey = { message: 'No API key found in request' };
  const badKey = { message: 'Invalid API key' };
  const scenarios: ApiScenario[] = [
    { name: 'no apikey', method: 'GET', url: '/auth/v1/settings', status: 401, expected: noKey },
    {
      name: 'no apikey on POST /verify',
      method: 'POST',
      url: '/auth/v1/verify',
      json: { type: 'signup', token_hash: 'x' },
      status: 401,
      expected: noKey,
    },
    {
      name: 'a bearer but no apikey',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => ({ authorization: `Bearer ${alice.accessToken}` }),
      status: 401,
      expected: noKey,
    },
    {
      name: 'a made-up apikey',
      method: 'GET',
      url: '/auth/v1/settings',
      headers: { apikey: 'sb_publishable_nope' },
      status: 401,
      expected: badKey,
    },
    {
      name: 'a user access token as apikey',
      method: 'GET',
      url: '/auth/v1/settings',
      headers: () => ({ apikey: alice.accessToken }),
      status: 401,
      expected: badKey,
    },
    {
      name: 'a bad apikey query parameter',
      method: 'GET',
      url: '/auth/v1/settings?apikey=nope',
      status: 401,
      expected: badKey,
    },
    {
      name: 'a bad /otp body',
      method: 'POST',
      url: '/auth/v1/otp',
      headers: () => keyHeaders(server.anonKey),
      json: {},
      status: 400,
      expected: { code: 400, error_code: 'validation_failed', msg: 'One of email or phone must be set' },
    },
    {
      name: 'a /resend of an unknown type',
      method: 'POST',
      url: '/auth/v1/resend',
      headers: () => keyHeaders(server.anonKey),
      json: { type: 'nope', email: 'a@example.com' },
      status: 400,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: '/factors without a user',
      method: 'POST',
      url: '/auth/v1/factors',
      headers: () => keyHeaders(server.anonKey),
      json: { factor_type: 'totp' },
      status: 403,
      expected: { code: 403, error_code: 'bad_jwt' },
    },
    {
      name: 'identities with a provider that is not configured',
      method: 'GET',
      url: '/auth/v1/user/identities/authorize?provider=github&skip_http_redirect=true',
      headers: () => alice.headers,
      status: 400,
      expected: { error_code: 'validation_failed', msg: 'Unsupported provider: Provider github could not be found' },
    },
    {
      name: 'SAML single sign-on (not served)',
      method: 'POST',
      url: '/auth/v1/sso',
      headers: () => keyHeaders(server.anonKey),
      json: { domain: 'example.com' },
      status: 404,
      expected: { error_code: 'saml_provider_disabled', msg: 'SAML 2.0 is disabled' },
    },
    {
      name: 'passkeys (not served)',
      method: 'POST',
      url: '/auth/v1/passkeys/authentication/options',
      headers: () => keyHeaders(server.anonKey),
      json: {},
      status: 404,
      expected: { error_code: 'passkey_disabled', msg: 'Passkeys are disabled' },
    },
    {
      name: 'a phone OTP (not served)',
      method: 'POST',
      url: '/auth/v1/otp',
      headers: () => keyHeaders(server.anonKey),
      json: { phone: '+15555550100' },
      status: 400,
      expected: { error_code: 'phone_provider_disabled' },
    },
  ];
  it.each(scenarios.map((s) => [s.name, s] as const))('answers %s', async (_name, scenario) => {
    await runScenario(server, scenario);
  });

  it.each([
    ['the anon key', () => ({ apikey: server.anonKey })],
    ['the service key', () => ({ apikey: server.serviceKey })],
    ['another anon key JWT of this instance', () => ({ apikey: otherAnonKey })],
  ])('accepts %s', async (_name, headers) => {
    expect((await server.request('GET', '/auth/v1/settings', { headers: headers() })).status).toBe(200);
  });

  it('accepts the apikey as a query parameter', async () => {
    expect((await server.request('GET', `/auth/v1/settings?apikey=${server.anonKey}`)).status).toBe(200);
  });

  it('serves /settings', async () => {
    const res = await server.request('GET', '/auth/v1/settings', { headers: { apikey: server.anonKey } });
    expect(res.body).toMatchObject({
      external: { email: true, phone: false, anonymous_users: false, github: false, google: false, gitlab: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      passkeys_enabled: false,
      mfa_enabled: true,
      providers: [],
    });
  });

  it.each(['/auth/v1/health', '/auth/v1/.well-known/jwks.json', '/.well-known/jwks.json'])(
    'serves %s without an apikey',
    async (url) => {
      const res = await server.request('GET', url);
      expect(res.status).toBe(200);
    },
  );

  it('publishes the key that signs access tokens, under /auth/v1 too', async () => {
    const res = await server.request('GET', '/auth/v1/.well-known/jwks.json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    const kid = JSON.parse(Buffer.from(alice.accessToken.split('.')[0] ?? '', 'base64url').toString()).kid;
    expect(res.body.keys.map((k: { kid: string }) => k.kid)).toContain(kid);
    expect(res.body.keys[0]).not.toHaveProperty('d');
  });

  it('lets the mail link (GET /verify) and /authorize through without an apikey', async () => {
    const verify = await fetch(`${server.url}/auth/v1/verify?token=nope&type=signup`, { redirect: 'manual' });
    expect(verify.status).toBe(303);
    const authorize = await server.request('GET', '/auth/v1/authorize?provider=github');
    expect(authorize.status).toBe(400);
    expect(authorize.body.error_code).toBe('validation_failed');
  });

  it('serves /health', async () => {
    const res = await server.request('GET', '/auth/v1/health');
    expect(res.body).toMatchObject({ version: expect.any(String), name: 'Basalt', description: expect.any(String) });
  });
});
