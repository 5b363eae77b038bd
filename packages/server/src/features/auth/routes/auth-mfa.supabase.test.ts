import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHeaders, startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { type AuthPoolUnderTest, authClient, poolsUnderTest, totpCode } from '../../../testing/auth-flows.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// TOTP factors with the unmodified supabase-js (auth.mfa), for console accounts and an app's end users: enroll
// (secret, otpauth URI, SVG QR code), challenge and verify with a code an authenticator would show, aal1 → aal2 in
// the token and getAuthenticatorAssuranceLevel(), the admin API, and the refusals: replayed, wrong and guessed codes.

describe.each(testDialects)('MFA (TOTP) on %s', (dialect) => {
  let server: TestServer;
  let pools: AuthPoolUnderTest[];
  beforeAll(async () => {
    server = await startAuthServer(dialect, { authRateLimit: 12 });
    pools = await poolsUnderTest(server, users.erin);
  });
  afterAll(() => server.close());
  const pool = (name: string) => pools.find((p) => p.name === name) as AuthPoolUnderTest;

  it('keeps an aal1 session of a console account with a factor out of /api and /rest/v1 until the code is in', async () => {
    const email = 'mfa.gate@example.com';
    const password = users.alice.password;
    const client = authClient(server, server.anonKey);
    await client.auth.signUp({ email, password, options: { data: { username: 'gatekeeper' } } });
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    const secret = enrolled.data?.type === 'totp' ? enrolled.data.totp.secret : '';
    const raised = await client.auth.mfa.challengeAndVerify({
      factorId: enrolled.data?.id ?? '',
      code: totpCode(secret),
    });
    const as = (token: string) => ({ apikey: server.anonKey, authorization: `Bearer ${token}` });
    expect((await server.request('GET', '/api/auth/me', { headers: as(raised.data?.access_token ?? '') })).status).toBe(
      200,
    );

    const again = await authClient(server, server.anonKey).auth.signInWithPassword({ email, password });
    const aal1 = again.data.session?.access_token ?? '';
    const me = await server.request('GET', '/api/auth/me', { headers: as(aal1) });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('insufficient_aal');
    expect((await server.request('GET', '/rest/v1/tables', { headers: as(aal1) })).status).toBe(401);
    expect((await server.request('GET', '/auth/v1/user', { headers: as(aal1) })).status).toBe(200);
  });

  // First: the guessing tests below use up the IP's attempts of the window.
  it('lets a user unenroll a factor from an aal2 session, and ends other aal1 sessions on verify', async () => {
    const app = pool('app users');
    const email = 'mfa.unenroll@example.com';
    const client = authClient(server, app.anonKey);
    await client.auth.signUp({ email, password: users.alice.password });
    const other = authClient(server, app.anonKey);
    const otherSession = await other.auth.signInWithPassword({ email, password: users.alice.password });
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    const id = enrolled.data?.id ?? '';
    const code = totpCode(enrolled.data?.type === 'totp' ? enrolled.data.totp.secret : '');
    expect((await client.auth.mfa.challengeAndVerify({ factorId: id, code })).error).toBeNull();
    const otherUser = await server.request('GET', '/auth/v1/user', {
      headers: { apikey: app.anonKey, authorization: `Bearer ${otherSession.data.session?.access_token}` },
    });
    expect(otherUser.body).toMatchObject({ code: 403, error_code: 'session_not_found' });
    expect((await client.auth.mfa.unenroll({ factorId: id })).error).toBeNull();
    expect((await client.auth.mfa.listFactors()).data?.all).toEqual([]);
    const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550100' });
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' });
  });

  describe.each(['console accounts', 'app users'] as const)('for %s', (name) => {
    const email = `mfa.${name === 'app users' ? 'app' : 'console'}@example.com`;
    const password = users.alice.password;
    let secret = '';
    let factorId = '';
    // The code the first test verified with: replayed as it was, not recomputed, since the time step may have
    // moved on by the next test.
    let usedCode = '';
    const signIn = async () => {
      const client = authClient(server, pool(name).anonKey);
      const { error } = await client.auth.signInWithPassword({ email, password });
      if (error) throw error;
      return client;
    };

    it('enrolls a TOTP factor, verifies it with a code, and raises the session to aal2', async () => {
      const client = authClient(server, pool(name).anonKey);
      expect((await client.auth.signUp({ email, password })).error).toBeNull();
      const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
      expect(enrolled.error).toBeNull();
      const totp = enrolled.data?.type === 'totp' ? enrolled.data.totp : null;
      expect(totp?.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
      expect(totp?.uri).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=/);
      secret = totp?.secret ?? '';
      factorId = enrolled.data?.id ?? '';
      const before = await client.auth.mfa.getAuthenticatorAssuranceLevel();
      expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

      const challenge = await client.auth.mfa.challenge({ factorId });
      expect(challenge.data).toMatchObject({ type: 'totp', expires_at: expect.any(Number) });
      const wrong = await client.auth.mfa.verify({ factorId, challengeId: challenge.data?.id ?? '', code: '000000' });
      expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
      usedCode = totpCode(secret);
      const verified = await client.auth.mfa.verify({
        factorId,
        challengeId: challenge.data?.id ?? '',
        code: usedCode,
      });
      expect(verified.error).toBeNull();
      const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
      expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
      expect(level.data?.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method))).toEqual([
        'totp',
        'password',
      ]);
      const factors = await client.auth.mfa.listFactors();
      expect(factors.data?.totp).toEqual([
        expect.objectContaining({ id: factorId, status: 'verified', friendly_name: 'Phone' }),
      ]);
    });

    it('signs in at aal1 with nextLevel aal2, refuses a replayed code, accepts the next one', async () => {
      const client = await signIn();
      const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
      expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
      const password1 = await client.auth.updateUser({ password: 'Changed-Passw0rd!' });
      expect(password1.error).toMatchObject({ status: 401, code: 'insufficient_aal' });

      // The code of the first test's time step was used: replaying it is refused.
      const replay = await client.auth.mfa.challengeAndVerify({ factorId, code: usedCode });
      expect(replay.error).toMatchObject({ code: 'mfa_verification_failed' });
      const next = await client.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret, 1) });
      expect(next.error).toBeNull();
      expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
      // The refreshed session keeps aal2.
      const refreshed = await client.auth.refreshSession();
      expect(refreshed.error).toBeNull();
      const claims = JSON.parse(
        Buffer.from(refreshed.data.session?.access_token.split('.')[1] ?? '', 'base64url').toString(),
      );
      expect(claims.aal).toBe('aal2');
    });

    it('refuses a challenge of another IP, an unknown factor, and limits guesses per factor', async () => {
      const client = await signIn();
      const session = (await client.auth.getSession()).data.session;
      const headers = { apikey: pool(name).anonKey, authorization: `Bearer ${session?.access_token}` };
      const unknown = await server.request('POST', `/auth/v1/factors/${crypto.randomUUID()}/challenge`, { headers });
      expect(unknown.body).toMatchObject({ code: 404, error_code: 'mfa_factor_not_found' });
      const badChallenge = await server.request('POST', `/auth/v1/factors/${factorId}/verify`, {
        headers,
        json: { challenge_id: crypto.randomUUID(), code: '123456' },
      });
      expect(badChallenge.body).toMatchObject({ code: 422, error_code: 'mfa_factor_not_found' });
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        const res = await server.request('POST', `/auth/v1/factors/${factorId}/verify`, {
          headers,
          json: { challenge_id: crypto.randomUUID(), code: '123456' },
        });
        statuses.push(res.status);
      }
      expect(statuses).toContain(429);
      expect(statuses.every((s) => s < 500)).toBe(true);
    });

    it('lets an administrator list and delete factors; the user is back at aal1', async () => {
      const admin = authClient(server, pool(name).serviceKey).auth.admin;
      const client = authClient(server, pool(name).anonKey);
      const { data } = await client.auth.signInWithPassword({ email, password });
      const userId = data.user?.id ?? '';
      const listed = await admin.mfa.listFactors({ userId });
      expect(listed.data?.factors).toEqual([expect.objectContaining({ id: factorId, factor_type: 'totp' })]);
      const unenroll = await client.auth.mfa.unenroll({ factorId });
      expect(unenroll.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
      const deleted = await admin.mfa.deleteFactor({ userId, id: factorId });
      expect(deleted.error).toBeNull();
      expect((await admin.mfa.listFactors({ userId })).data?.factors).toEqual([]);
      const again = await authClient(server, pool(name).anonKey).auth.signInWithPassword({ email, password });
      expect(again.data.user?.factors).toBeUndefined();
      const byAnon = await server.request('GET', `/auth/v1/admin/users/${userId}/factors`, {
        headers: keyHeaders(pool(name).anonKey),
      });
      expect(byAnon.body).toMatchObject({ code: 403, error_code: 'not_admin' });
    });
  });
});
