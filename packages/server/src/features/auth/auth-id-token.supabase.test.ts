import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHeaders, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type AuthPoolUnderTest, authClient, poolsUnderTest, totpCode } from '../../testing/auth-flows.fixtures.js';
import { type FakeIssuer, type IdTokenClaims, startFakeIssuer } from '../../testing/oidc.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// signInWithIdToken through the unmodified supabase-js (POST /token?grant_type=id_token) against a local OpenID
// Connect issuer that publishes its keys and hands out real RS256 ID tokens, for console accounts (a provider from
// the environment) and an app's users (one in the app's settings). Each refusal is GoTrue's 400 and creates nobody.

const CLIENT_ID = 'fake-client';
const PROVIDER = 'custom:fake';
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

describe.each(testDialects)('signInWithIdToken on %s', (dialect) => {
  let fake: FakeIssuer;
  let server: TestServer;
  let pools: AuthPoolUnderTest[] = [];
  beforeAll(async () => {
    fake = await startFakeIssuer(CLIENT_ID);
    server = await startAuthServer(dialect, {
      oauthProviders: [
        {
          kind: 'oidc',
          id: PROVIDER,
          name: 'Fake',
          clientId: CLIENT_ID,
          clientSecret: 'console-secret',
          url: fake.issuer,
        },
      ],
    });
    pools = await poolsUnderTest(server, users.erin);
    await pools[1]?.patchSettings({
      providers: [
        { kind: 'oidc', name: 'Fake', clientId: CLIENT_ID, clientSecret: 'app-secret', url: fake.issuer },
        // GitHub issues no ID tokens: configured, it still cannot take this grant.
        { kind: 'github', clientId: 'gh-client', clientSecret: 'gh-secret', url: 'http://127.0.0.1:9' },
      ],
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  const poolAt = (index: number) => {
    const pool = pools[index];
    if (!pool) throw new Error(`no pool ${index}`);
    return pool;
  };
  const admin = (pool: AuthPoolUnderTest) => authClient(server, pool.serviceKey).auth.admin;
  const emailsOf = async (pool: AuthPoolUnderTest) =>
    ((await admin(pool).listUsers({ perPage: 1000 })).data.users ?? []).map((u) => u.email);
  const person = (label: string): IdTokenClaims => {
    const id = randomUUID().slice(0, 8);
    return { sub: `${label}-${id}`, email: `${label}-${id}@fake.test`, email_verified: true, name: 'Ada Fake' };
  };

  it.each([0, 1])('signs a new user in, then the same person again into the same user (pool %i)', async (index) => {
    const pool = poolAt(index);
    const ada = person(`new${index}`);
    const client = authClient(server, pool.anonKey);
    const first = await client.auth.signInWithIdToken({ provider: PROVIDER, token: await fake.idToken(ada) });
    expect(first.error).toBeNull();
    expect(first.data.session?.access_token).toEqual(expect.any(String));
    expect(first.data.user).toMatchObject({
      email: ada.email,
      app_metadata: { provider: PROVIDER, providers: [PROVIDER] },
      user_metadata: { name: 'Ada Fake', email_verified: true, sub: ada.sub },
    });
    expect(first.data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(first.data.user?.identities?.map((i) => [i.provider, i.id])).toEqual([[PROVIDER, ada.sub]]);
    // The session is real: getUser answers with it, and its token says how the user signed in.
    const me = await client.auth.getUser();
    expect(me.data.user?.id).toBe(first.data.user?.id);
    const claims = JSON.parse(
      Buffer.from(first.data.session?.access_token.split('.')[1] ?? '', 'base64url').toString(),
    );
    expect(claims.amr).toEqual([expect.objectContaining({ method: 'oauth' })]);

    const again = await authClient(server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await fake.idToken({ ...ada, name: 'Ada Renamed' }),
    });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).toBe(first.data.user?.id);
    expect(again.data.user?.user_metadata.name).toBe('Ada Renamed');
    expect((await emailsOf(pool)).filter((e) => e === ada.email)).toHaveLength(1);
  });

  it('keeps the pools apart: a console account and an app user of one subject are two users', async () => {
    const both = person('both');
    const token = await fake.idToken(both);
    const one = await authClient(server, poolAt(0).anonKey).auth.signInWithIdToken({ provider: PROVIDER, token });
    const two = await authClient(server, poolAt(1).anonKey).auth.signInWithIdToken({ provider: PROVIDER, token });
    expect(one.data.user?.id).toEqual(expect.any(String));
    expect(two.data.user?.id).toEqual(expect.any(String));
    expect(two.data.user?.id).not.toBe(one.data.user?.id);
  });

  it('accepts a nonce whose SHA-256 the token carries, and an access token that matches at_hash', async () => {
    const nonce = randomUUID();
    const ada = person('nonce');
    const { data, error } = await authClient(server, poolAt(1).anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await fake.idToken({ ...ada, nonce: sha256Hex(nonce), accessToken: 'provider-access' }),
      nonce,
      access_token: 'provider-access',
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(ada.email);
  });

  it('links to the user of the same verified address', async () => {
    const pool = poolAt(1);
    const email = `linked-${randomUUID().slice(0, 8)}@fake.test`;
    const signedUp = await authClient(server, pool.anonKey).auth.signUp({ email, password: users.alice.password });
    expect(signedUp.error).toBeNull();
    const { data } = await authClient(server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await fake.idToken({ sub: `linked-${email}`, email, email_verified: true }),
    });
    expect(data.user?.id).toBe(signedUp.data.user?.id);
    expect(data.user?.app_metadata.providers).toEqual(['email', PROVIDER]);
  });

  type Refusal = {
    name: string;
    /** The request's body, from a person with a fresh address. */
    body: (ada: IdTokenClaims) => Promise<Record<string, unknown>>;
    expected: { status: number; code: string; msg: string | RegExp };
  };
  const token = (claims: IdTokenClaims) => fake.idToken(claims);
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
      body: async (ada) => ({ issuer: fake.issuer, client_id: CLIENT_ID, id_token: await token(ada) }),
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
    const pool = poolAt(index);
    const before = await emailsOf(pool);
    for (const refusal of refusals()) {
      const ada = person('refused');
      const res = await server.request('POST', '/auth/v1/token?grant_type=id_token', {
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
    expect(await emailsOf(pool)).toEqual(before);
  });

  it('gives supabase-js the error with its status and code', async () => {
    const { data, error } = await authClient(server, poolAt(1).anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await fake.idToken({ ...person('sdk'), foreignKey: true }),
    });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Bad ID token' });
  });

  it('respects closed sign-ups: a new person is refused, a known one still signs in', async () => {
    const pool = poolAt(1);
    const known = person('known');
    const first = await authClient(server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await fake.idToken(known),
    });
    expect(first.error).toBeNull();
    await pool.patchSettings({ signupsAllowed: false });
    try {
      const stranger = person('stranger');
      const refused = await authClient(server, pool.anonKey).auth.signInWithIdToken({
        provider: PROVIDER,
        token: await fake.idToken(stranger),
      });
      expect(refused.error).toMatchObject({ status: 422, code: 'signup_disabled' });
      expect(await emailsOf(pool)).not.toContain(stranger.email);
      const again = await authClient(server, pool.anonKey).auth.signInWithIdToken({
        provider: PROVIDER,
        token: await fake.idToken(known),
      });
      expect(again.data.user?.id).toBe(first.data.user?.id);
    } finally {
      await pool.patchSettings({ signupsAllowed: true });
    }
  });

  it.each([0, 1])('refuses a banned user (pool %i)', async (index) => {
    const pool = poolAt(index);
    const banned = person(`banned${index}`);
    const first = await authClient(server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await fake.idToken(banned),
    });
    const banning = await admin(pool).updateUserById(first.data.user?.id ?? '', { ban_duration: '24h' });
    expect(banning.error).toBeNull();
    const { error } = await authClient(server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await fake.idToken({ ...banned, name: 'Renamed While Banned' }),
    });
    expect(error).toMatchObject({ status: 403, code: 'user_banned' });
    // Refused before the sign-in wrote anything: the identity data is as it was.
    const stored = await admin(pool).getUserById(first.data.user?.id ?? '');
    expect(stored.data.user?.user_metadata.name).toBe('Ada Fake');
  });

  it('starts at aal1 for a user with a verified factor, who then answers a challenge', async () => {
    const pool = poolAt(1);
    const ada = person('mfa');
    const client = authClient(server, pool.anonKey);
    await client.auth.signInWithIdToken({ provider: PROVIDER, token: await fake.idToken(ada) });
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    const factorId = enrolled.data?.id ?? '';
    const secret = enrolled.data?.totp.secret ?? '';
    const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret) });
    expect(verified.error).toBeNull();

    const later = authClient(server, pool.anonKey);
    const signedIn = await later.auth.signInWithIdToken({ provider: PROVIDER, token: await fake.idToken(ada) });
    expect(signedIn.error).toBeNull();
    const level = await later.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const challenge = await later.auth.mfa.challenge({ factorId });
    const raised = await later.auth.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? '',
      code: totpCode(secret, 1),
    });
    expect(raised.error).toBeNull();
    expect((await later.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
  });

  it('links the identity to the signed-in user with linkIdentity({token}); never one of another user', async () => {
    const pool = poolAt(1);
    const email = `linker-${randomUUID().slice(0, 8)}@example.com`;
    const client = authClient(server, pool.anonKey);
    const signedUp = await client.auth.signUp({ email, password: users.alice.password });
    await client.auth.setSession({
      access_token: signedUp.data.session?.access_token ?? '',
      refresh_token: signedUp.data.session?.refresh_token ?? '',
    });
    const ada = person('linker');
    const linked = await client.auth.linkIdentity({ provider: PROVIDER, token: await fake.idToken(ada) });
    expect(linked.error).toBeNull();
    expect(linked.data.user?.id).toBe(signedUp.data.user?.id);
    const identities = (await client.auth.getUserIdentities()).data?.identities ?? [];
    expect(identities.map((i) => i.provider)).toEqual(['email', PROVIDER]);

    const other = authClient(server, pool.anonKey);
    const otherUp = await other.auth.signUp({ email: `other-${email}`, password: users.alice.password });
    await other.auth.setSession({
      access_token: otherUp.data.session?.access_token ?? '',
      refresh_token: otherUp.data.session?.refresh_token ?? '',
    });
    const taken = await other.auth.linkIdentity({ provider: PROVIDER, token: await fake.idToken(ada) });
    expect(taken.error).toMatchObject({ status: 422, code: 'identity_already_exists' });
  });

  it('makes an anonymous user permanent with the verified address of the linked token', async () => {
    const pool = poolAt(1);
    await pool.patchSettings({ anonymousSignIns: true });
    const client = authClient(server, pool.anonKey);
    const anonymous = await client.auth.signInAnonymously();
    expect(anonymous.data.user?.is_anonymous).toBe(true);
    const unverified = person('anon-unverified');
    const refused = await client.auth.linkIdentity({
      provider: PROVIDER,
      token: await fake.idToken({ ...unverified, email_verified: false }),
    });
    expect(refused.error).toMatchObject({ status: 422, code: 'email_not_confirmed' });
    expect((await client.auth.getUser()).data.user).toMatchObject({ is_anonymous: true, identities: [] });

    const ada = person('anon');
    const linked = await client.auth.linkIdentity({ provider: PROVIDER, token: await fake.idToken(ada) });
    expect(linked.error).toBeNull();
    const { data } = await client.auth.getUser();
    expect(data.user).toMatchObject({
      id: anonymous.data.user?.id,
      email: ada.email,
      is_anonymous: false,
      app_metadata: { provider: PROVIDER, providers: [PROVIDER] },
    });
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
  });
});
