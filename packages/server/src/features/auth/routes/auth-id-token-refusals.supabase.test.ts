import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHeaders } from '../../../testing/auth.fixtures.js';
import { authClient } from '../../../testing/auth-flows.fixtures.js';
import {
  type IdTokenWorld,
  ID_TOKEN_PROVIDER as PROVIDER,
  idTokenPerson as person,
  startIdTokenWorld,
} from '../../../testing/id-token.fixtures.js';
import type { IdTokenClaims } from '../../../testing/oidc.fixtures.js';
import { testDialects } from '../../../testing/test-server.js';

// What POST /token?grant_type=id_token refuses, as GoTrue does and in its words, for console accounts and an app's
// users: tokens that fail a check (key, audience, issuer, expiry, nonce, at_hash), providers that issue no ID tokens
// or are not configured, and malformed requests. No refusal creates a user.

const CLIENT_ID = 'fake-client';
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

describe.each(testDialects)('signInWithIdToken refusals on %s', (dialect) => {
  let world: IdTokenWorld;
  beforeAll(async () => {
    world = await startIdTokenWorld(dialect);
  });
  afterAll(async () => {
    await world?.close();
  });

  type Refusal = {
    name: string;
    /** The request's body, from a person with a fresh address. */
    body: (ada: IdTokenClaims) => Promise<Record<string, unknown>>;
    expected: { status: number; code: string; msg: string | RegExp };
  };
  const token = (claims: IdTokenClaims) => world.fake.idToken(claims);
  const refusals = (): Refusal[] => [
    {
      name: 'a token signed by another key',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token({ ...ada, foreignKey: true }) }),
      expected: { status: 400, code: 'validation_failed', msg: 'Bad ID token' },
    },
    {
      name: 'another audience',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token({ ...ada, aud: 'someone-else' }) }),
      expected: { status: 400, code: 'validation_failed', msg: 'Unacceptable audience in id_token: [someone-else]' },
    },
    {
      name: 'another issuer',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token({ ...ada, iss: 'https://evil.test' }) }),
      expected: { status: 400, code: 'validation_failed', msg: 'Bad ID token' },
    },
    {
      name: 'an expired token',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token({ ...ada, expiresIn: -60 }) }),
      expected: { status: 400, code: 'validation_failed', msg: 'Bad ID token' },
    },
    {
      name: 'a nonce that does not match',
      body: async (ada) => ({
        provider: PROVIDER,
        id_token: await token({ ...ada, nonce: sha256Hex('the-real-one') }),
        nonce: 'another-one',
      }),
      expected: { status: 400, code: 'validation_failed', msg: 'Nonces mismatch' },
    },
    {
      name: 'the raw nonce in the token instead of its hash',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token({ ...ada, nonce: 'raw' }), nonce: 'raw' }),
      expected: { status: 400, code: 'validation_failed', msg: 'Nonces mismatch' },
    },
    {
      name: 'a token nonce without the request’s',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token({ ...ada, nonce: sha256Hex('n') }) }),
      expected: {
        status: 400,
        code: 'validation_failed',
        msg: 'Passed nonce and nonce in id_token should either both exist or not.',
      },
    },
    {
      name: 'a request nonce without the token’s',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token(ada), nonce: 'n' }),
      expected: {
        status: 400,
        code: 'validation_failed',
        msg: 'Passed nonce and nonce in id_token should either both exist or not.',
      },
    },
    {
      name: 'an access token that does not match at_hash',
      body: async (ada) => ({
        provider: PROVIDER,
        id_token: await token({ ...ada, accessToken: 'the-real-one' }),
        access_token: 'another-one',
      }),
      expected: { status: 400, code: 'validation_failed', msg: 'Bad ID token' },
    },
    {
      name: 'an unknown custom provider',
      body: async (ada) => ({ provider: 'custom:nope', id_token: await token(ada) }),
      expected: { status: 400, code: 'validation_failed', msg: 'Custom provider "custom:nope" not found' },
    },
    {
      name: 'Google, not configured',
      body: async (ada) => ({ provider: 'google', id_token: await token(ada) }),
      expected: {
        status: 400,
        code: 'provider_disabled',
        msg: 'Provider (issuer "https://accounts.google.com") is not enabled',
      },
    },
    {
      name: 'GitHub (no ID tokens)',
      body: async (ada) => ({ provider: 'github', id_token: await token(ada) }),
      expected: { status: 400, code: 'validation_failed', msg: 'Custom OIDC provider "github" not allowed' },
    },
    {
      name: 'an issuer and client id without a provider',
      body: async (ada) => ({ issuer: world.fake.issuer, client_id: CLIENT_ID, id_token: await token(ada) }),
      expected: { status: 400, code: 'validation_failed', msg: 'Custom OIDC provider "" not allowed' },
    },
    {
      name: 'no provider',
      body: async (ada) => ({ id_token: await token(ada) }),
      expected: { status: 400, code: 'validation_failed', msg: 'provider or client_id and issuer required' },
    },
    {
      name: 'no token',
      body: async () => ({ provider: PROVIDER }),
      expected: { status: 400, code: 'validation_failed', msg: 'id_token required' },
    },
    {
      name: 'a malformed token',
      body: async () => ({ provider: PROVIDER, id_token: 'not.a.jwt' }),
      expected: { status: 400, code: 'validation_failed', msg: 'Bad ID token' },
    },
    {
      name: 'a token of another type',
      body: async () => ({ provider: PROVIDER, id_token: 42 }),
      expected: { status: 400, code: 'validation_failed', msg: 'id_token must be a string' },
    },
    {
      name: 'a token with a NUL character',
      body: async (ada) => ({ provider: PROVIDER, id_token: `${await token(ada)}\u0000` }),
      expected: { status: 400, code: 'validation_failed', msg: /NUL/ },
    },
    {
      name: 'a token past 16 KiB',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token({ ...ada, name: 'x'.repeat(20_000) }) }),
      expected: { status: 400, code: 'validation_failed', msg: 'Bad ID token' },
    },
    {
      name: 'a body past the server’s limit',
      body: async (ada) => ({ provider: PROVIDER, id_token: await token(ada), padding: 'x'.repeat(2 * 1024 * 1024) }),
      expected: { status: 413, code: 'payload_too_large', msg: /larger than/ },
    },
  ];

  it.each([0, 1])('refuses every bad request with GoTrue’s answer and creates nobody (pool %i)', async (index) => {
    const pool = world.pool(index);
    const before = await world.emailsOf(pool);
    for (const refusal of refusals()) {
      const ada = person('refused');
      const res = await world.server.request('POST', '/auth/v1/token?grant_type=id_token', {
        headers: keyHeaders(pool.anonKey),
        json: await refusal.body(ada),
      });
      expect({ name: refusal.name, status: res.status, code: res.body.error_code }).toEqual({
        name: refusal.name,
        status: refusal.expected.status,
        code: refusal.expected.code,
      });
      expect(res.body.msg).toMatch(refusal.expected.msg);
      expect(res.body.access_token).toBeUndefined();
    }
    expect(await world.emailsOf(pool)).toEqual(before);
  });

  it('gives supabase-js the error with its status and code', async () => {
    const { data, error } = await authClient(world.server, world.pool(1).anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await world.fake.idToken({ ...person('sdk'), foreignKey: true }),
    });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Bad ID token' });
  });
});
