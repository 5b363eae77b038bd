import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../testing/auth.fixtures.js';
import { type AuthPoolUnderTest, authClient, totpCode } from '../../../testing/auth-flows.fixtures.js';
import {
  type IdTokenWorld,
  ID_TOKEN_PROVIDER as PROVIDER,
  idTokenPerson as person,
  startIdTokenWorld,
} from '../../../testing/id-token.fixtures.js';
import { testDialects } from '../../../testing/test-server.js';

// signInWithIdToken through the unmodified supabase-js (POST /token?grant_type=id_token) against a local OpenID
// Connect issuer that publishes its keys and hands out real RS256 ID tokens, for console accounts (a provider from
// the environment) and an app's users (one in the app's settings): new and returning users, nonce and at_hash,
// account linking, closed sign-ups, bans, MFA, linkIdentity. The refusals: auth-id-token-refusals.supabase.test.ts.

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

describe.each(testDialects)('signInWithIdToken on %s', (dialect) => {
  let world: IdTokenWorld;
  beforeAll(async () => {
    world = await startIdTokenWorld(dialect);
  });
  afterAll(async () => {
    await world?.close();
  });
  const poolAt = (index: number) => world.pool(index);
  const admin = (pool: AuthPoolUnderTest) => authClient(world.server, pool.serviceKey).auth.admin;
  const emailsOf = (pool: AuthPoolUnderTest) => world.emailsOf(pool);

  it.each([0, 1])('signs a new user in, then the same person again into the same user (pool %i)', async (index) => {
    const pool = poolAt(index);
    const ada = person(`new${index}`);
    const client = authClient(world.server, pool.anonKey);
    const first = await client.auth.signInWithIdToken({ provider: PROVIDER, token: await world.fake.idToken(ada) });
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

    const again = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await world.fake.idToken({ ...ada, name: 'Ada Renamed' }),
    });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).toBe(first.data.user?.id);
    expect(again.data.user?.user_metadata.name).toBe('Ada Renamed');
    expect((await emailsOf(pool)).filter((e) => e === ada.email)).toHaveLength(1);
  });

  it('keeps the pools apart: a console account and an app user of one subject are two users', async () => {
    const both = person('both');
    const token = await world.fake.idToken(both);
    const one = await authClient(world.server, poolAt(0).anonKey).auth.signInWithIdToken({ provider: PROVIDER, token });
    const two = await authClient(world.server, poolAt(1).anonKey).auth.signInWithIdToken({ provider: PROVIDER, token });
    expect(one.data.user?.id).toEqual(expect.any(String));
    expect(two.data.user?.id).toEqual(expect.any(String));
    expect(two.data.user?.id).not.toBe(one.data.user?.id);
  });

  it('accepts a nonce whose SHA-256 the token carries, and an access token that matches at_hash', async () => {
    const nonce = randomUUID();
    const ada = person('nonce');
    const { data, error } = await authClient(world.server, poolAt(1).anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await world.fake.idToken({ ...ada, nonce: sha256Hex(nonce), accessToken: 'provider-access' }),
      nonce,
      access_token: 'provider-access',
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(ada.email);
  });

  it('links to the user of the same verified address', async () => {
    const pool = poolAt(1);
    const email = `linked-${randomUUID().slice(0, 8)}@fake.test`;
    const signedUp = await authClient(world.server, pool.anonKey).auth.signUp({
      email,
      password: users.alice.password,
    });
    expect(signedUp.error).toBeNull();
    const { data } = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await world.fake.idToken({ sub: `linked-${email}`, email, email_verified: true }),
    });
    expect(data.user?.id).toBe(signedUp.data.user?.id);
    expect(data.user?.app_metadata.providers).toEqual(['email', PROVIDER]);
  });

  it('respects closed sign-ups: a new person is refused, a known one still signs in', async () => {
    const pool = poolAt(1);
    const known = person('known');
    const first = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await world.fake.idToken(known),
    });
    expect(first.error).toBeNull();
    await pool.patchSettings({ signupsAllowed: false });
    try {
      const stranger = person('stranger');
      const refused = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
        provider: PROVIDER,
        token: await world.fake.idToken(stranger),
      });
      expect(refused.error).toMatchObject({ status: 422, code: 'signup_disabled' });
      expect(await emailsOf(pool)).not.toContain(stranger.email);
      const again = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
        provider: PROVIDER,
        token: await world.fake.idToken(known),
      });
      expect(again.data.user?.id).toBe(first.data.user?.id);
    } finally {
      await pool.patchSettings({ signupsAllowed: true });
    }
  });

  it('with email confirmation on, trusts only a verified address', async () => {
    const pool = poolAt(1);
    await pool.patchSettings({ emailConfirmation: true });
    try {
      const verified = person('verified');
      const signedIn = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
        provider: PROVIDER,
        token: await world.fake.idToken(verified),
      });
      expect(signedIn.data.user?.email_confirmed_at).toEqual(expect.any(String));

      // A new address the provider did not verify: the user is made and mailed a confirmation, as on a callback.
      const unverified = { ...person('unverified'), email_verified: false };
      const refused = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
        provider: PROVIDER,
        token: await world.fake.idToken(unverified),
      });
      expect(refused.error).toMatchObject({ status: 422, code: 'provider_email_needs_verification' });
      expect(refused.data.session).toBeNull();
      expect(await emailsOf(pool)).toContain(unverified.email);

      // The unverified address of an existing user joins nothing.
      const taken = { ...person('taken'), email: verified.email, email_verified: false };
      const joined = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
        provider: PROVIDER,
        token: await world.fake.idToken(taken),
      });
      expect(joined.error).toMatchObject({ status: 422, code: 'provider_email_needs_verification' });
      const stored = await admin(pool).getUserById(signedIn.data.user?.id ?? '');
      expect(stored.data.user?.identities?.map((i) => i.id)).toEqual([verified.sub]);
    } finally {
      await pool.patchSettings({ emailConfirmation: false });
    }
  });

  it.each([0, 1])('refuses a banned user (pool %i)', async (index) => {
    const pool = poolAt(index);
    const banned = person(`banned${index}`);
    const first = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await world.fake.idToken(banned),
    });
    const banning = await admin(pool).updateUserById(first.data.user?.id ?? '', { ban_duration: '24h' });
    expect(banning.error).toBeNull();
    const { error } = await authClient(world.server, pool.anonKey).auth.signInWithIdToken({
      provider: PROVIDER,
      token: await world.fake.idToken({ ...banned, name: 'Renamed While Banned' }),
    });
    expect(error).toMatchObject({ status: 403, code: 'user_banned' });
    // Refused before the sign-in wrote anything: the identity data is as it was.
    const stored = await admin(pool).getUserById(first.data.user?.id ?? '');
    expect(stored.data.user?.user_metadata.name).toBe('Ada Fake');
  });

  it('starts at aal1 for a user with a verified factor, who then answers a challenge', async () => {
    const pool = poolAt(1);
    const ada = person('mfa');
    const client = authClient(world.server, pool.anonKey);
    await client.auth.signInWithIdToken({ provider: PROVIDER, token: await world.fake.idToken(ada) });
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    const factorId = enrolled.data?.id ?? '';
    const secret = enrolled.data?.totp.secret ?? '';
    const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret) });
    expect(verified.error).toBeNull();

    const later = authClient(world.server, pool.anonKey);
    const signedIn = await later.auth.signInWithIdToken({ provider: PROVIDER, token: await world.fake.idToken(ada) });
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
    const client = authClient(world.server, pool.anonKey);
    const signedUp = await client.auth.signUp({ email, password: users.alice.password });
    await client.auth.setSession({
      access_token: signedUp.data.session?.access_token ?? '',
      refresh_token: signedUp.data.session?.refresh_token ?? '',
    });
    const ada = person('linker');
    const linked = await client.auth.linkIdentity({ provider: PROVIDER, token: await world.fake.idToken(ada) });
    expect(linked.error).toBeNull();
    expect(linked.data.user?.id).toBe(signedUp.data.user?.id);
    const identities = (await client.auth.getUserIdentities()).data?.identities ?? [];
    expect(identities.map((i) => i.provider)).toEqual(['email', PROVIDER]);

    const other = authClient(world.server, pool.anonKey);
    const otherUp = await other.auth.signUp({ email: `other-${email}`, password: users.alice.password });
    await other.auth.setSession({
      access_token: otherUp.data.session?.access_token ?? '',
      refresh_token: otherUp.data.session?.refresh_token ?? '',
    });
    const taken = await other.auth.linkIdentity({ provider: PROVIDER, token: await world.fake.idToken(ada) });
    expect(taken.error).toMatchObject({ status: 422, code: 'identity_already_exists' });
  });

  it('makes an anonymous user permanent with the verified address of the linked token', async () => {
    const pool = poolAt(1);
    await pool.patchSettings({ anonymousSignIns: true });
    const client = authClient(world.server, pool.anonKey);
    const anonymous = await client.auth.signInAnonymously();
    expect(anonymous.data.user?.is_anonymous).toBe(true);
    const unverified = person('anon-unverified');
    const refused = await client.auth.linkIdentity({
      provider: PROVIDER,
      token: await world.fake.idToken({ ...unverified, email_verified: false }),
    });
    expect(refused.error).toMatchObject({ status: 422, code: 'email_not_confirmed' });
    expect((await client.auth.getUser()).data.user).toMatchObject({ is_anonymous: true, identities: [] });

    const ada = person('anon');
    const linked = await client.auth.linkIdentity({ provider: PROVIDER, token: await world.fake.idToken(ada) });
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
