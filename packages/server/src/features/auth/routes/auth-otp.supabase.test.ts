import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHeaders, startAuthServer, users } from '../../../testing/auth.fixtures.js';
import {
  type AuthPoolUnderTest,
  authClient,
  fragmentOf,
  poolsUnderTest,
} from '../../../testing/auth-flows.fixtures.js';
import { startMailbox, type TestMailbox } from '../../../testing/auth-mail.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// Sign-in by mail with the unmodified supabase-js, for console accounts and an app's end users alike: magic links
// and 6-digit codes (signInWithOtp, verifyOtp), the PKCE variant (exchangeCodeForSession), resend, and
// reauthentication before a password change. Mails go over real SMTP to a sink the test reads.

describe.each(testDialects)('magic links and codes on %s', (dialect) => {
  let server: TestServer;
  let mailbox: TestMailbox;
  let pools: AuthPoolUnderTest[];
  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startAuthServer(dialect, { smtpUrl: mailbox.url });
    pools = await poolsUnderTest(server, users.erin);
  });
  afterAll(async () => {
    await server.close();
    await mailbox.close();
  });
  const pool = (name: string) => pools.find((p) => p.name === name) as AuthPoolUnderTest;
  const poolNames = ['console accounts', 'app users'] as const;

  describe.each(poolNames)('for %s', (name) => {
    const address = (local: string) => `${local}.${name === 'app users' ? 'app' : 'console'}@example.com`;

    it('signs a new address up and in with signInWithOtp and the 6-digit code; a code works once', async () => {
      const client = authClient(server, pool(name).anonKey);
      const email = address('otp');
      const sent = await client.auth.signInWithOtp({ email, options: { data: { plan: 'free' } } });
      expect(sent.error).toBeNull();
      const mail = await mailbox.latest(email);
      expect(mail.code).toMatch(/^\d{6}$/);
      const verified = await client.auth.verifyOtp({ email, token: mail.code, type: 'email' });
      expect(verified.error).toBeNull();
      expect(verified.data.user).toMatchObject({ email, user_metadata: { plan: 'free' }, is_anonymous: false });
      expect(verified.data.user?.email_confirmed_at).toEqual(expect.any(String));
      expect(verified.data.user?.identities?.map((i) => i.provider)).toEqual(['email']);
      const again = await authClient(server, pool(name).anonKey).auth.verifyOtp({
        email,
        token: mail.code,
        type: 'email',
      });
      expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
    });

    it('sends a confirmed user a magic link whose link signs in (GET /verify) and whose code verifies as magiclink', async () => {
      const client = authClient(server, pool(name).anonKey);
      const email = address('link');
      await client.auth.signInWithOtp({ email });
      const confirm = await mailbox.latest(email);
      expect((await client.auth.verifyOtp({ email, token: confirm.code, type: 'signup' })).error).toBeNull();

      await new Promise((resolve) => setTimeout(resolve, 0));
      const link = await authClient(server, pool(name).anonKey).auth.signInWithOtp({ email });
      // One mail per address and slot a minute: the confirmation used the confirmation slot, links the recovery one.
      expect(link.error).toBeNull();
      const mail = await mailbox.latest(email);
      expect(mail.subject).toBe('Your sign-in link');
      expect(new URL(mail.link).searchParams.get('type')).toBe('magiclink');
      const followed = await fetch(mail.link, { redirect: 'manual' });
      expect(followed.status).toBe(303);
      const fragment = fragmentOf(new URL(followed.headers.get('location') ?? ''));
      expect(fragment).toMatchObject({ token_type: 'bearer', type: 'magiclink' });
      const { data } = await client.auth.getUser(fragment.access_token);
      expect(data.user?.email).toBe(email);
    });

    it('answers an unknown address with create_user false exactly as a known one, and mails nothing', async () => {
      const client = authClient(server, pool(name).anonKey);
      const before = mailbox.mails.length;
      // The unsent-mail limit counts per clock minute (a fixed window): both requests must fall in the same one.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
      const res = await client.auth.signInWithOtp({ email: address('nobody'), options: { shouldCreateUser: false } });
      expect(res.error).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(mailbox.mails.length).toBe(before);
      // Within the minute, the second request answers as a known address's would: one mail a minute.
      const again = await client.auth.signInWithOtp({ email: address('nobody'), options: { shouldCreateUser: false } });
      expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
      const recover = await client.auth.resetPasswordForEmail(address('nobody'));
      expect(recover.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    });

    it('runs the PKCE flow: the link leads to ?code=, exchangeCodeForSession trades it once with its verifier', async () => {
      const client = authClient(server, pool(name).anonKey, { pkce: true });
      const email = address('pkce');
      expect((await client.auth.signInWithOtp({ email })).error).toBeNull();
      const mail = await mailbox.latest(email);
      const followed = await fetch(mail.link, { redirect: 'manual' });
      const location = new URL(followed.headers.get('location') ?? '');
      const code = location.searchParams.get('code') ?? '';
      expect(code).not.toBe('');
      expect(location.hash).toBe('');
      const exchanged = await client.auth.exchangeCodeForSession(code);
      expect(exchanged.error).toBeNull();
      expect(exchanged.data.user?.email).toBe(email);
      const replay = await server.request('POST', '/auth/v1/token?grant_type=pkce', {
        headers: keyHeaders(pool(name).anonKey),
        json: { auth_code: code, code_verifier: 'x'.repeat(43) },
      });
      expect(replay.body).toMatchObject({ code: 404, error_code: 'flow_state_not_found' });
    });

    it('refuses a mismatched PKCE verifier, and bad PKCE parameters, without a 500', async () => {
      const client = authClient(server, pool(name).anonKey, { pkce: true });
      const email = address('verifier');
      await client.auth.signInWithOtp({ email });
      const mail = await mailbox.latest(email);
      const location = new URL((await fetch(mail.link, { redirect: 'manual' })).headers.get('location') ?? '');
      const wrong = await server.request('POST', '/auth/v1/token?grant_type=pkce', {
        headers: keyHeaders(pool(name).anonKey),
        json: { auth_code: location.searchParams.get('code'), code_verifier: 'y'.repeat(43) },
      });
      expect(wrong.body).toMatchObject({ code: 400, error_code: 'bad_code_verifier' });
      const half = await server.request('POST', '/auth/v1/otp', {
        headers: keyHeaders(pool(name).anonKey),
        json: { email, code_challenge: 'a'.repeat(43) },
      });
      expect(half.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
      const empty = await server.request('POST', '/auth/v1/token?grant_type=pkce', {
        headers: keyHeaders(pool(name).anonKey),
        json: {},
      });
      expect(empty.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
    });

    it('resends a sign-up confirmation, and answers the same for unknown and confirmed addresses', async () => {
      const client = authClient(server, pool(name).anonKey);
      const email = address('resend');
      await client.auth.signUp({ email, password: users.alice.password });
      const first = await mailbox.latest(email);
      const early = await client.auth.resend({ type: 'signup', email });
      expect(early.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
      const unknown = await client.auth.resend({ type: 'signup', email: address('unknown') });
      expect(unknown.error).toBeNull();
      expect((await client.auth.verifyOtp({ email, token: first.code, type: 'signup' })).error).toBeNull();
      const confirmed = await client.auth.resend({ type: 'signup', email });
      expect(confirmed.error).toBeNull();
    });
  });

  it('asks an app user for a reauthentication code before a password change once the session is a day old', async () => {
    const app = pool('app users');
    await app.patchSettings({ passwordReauthentication: true, emailConfirmation: false });
    const client = authClient(server, app.anonKey);
    const email = 'reauth.app@example.com';
    const signed = await client.auth.signUp({ email, password: users.alice.password });
    expect(signed.error).toBeNull();
    // A fresh session changes its password without a code (GoTrue's grace of a day).
    expect((await client.auth.updateUser({ password: 'Fresh-Passw0rd!' })).error).toBeNull();
    const sessionId = JSON.parse(
      Buffer.from(signed.data.session?.access_token.split('.')[1] ?? '', 'base64url').toString(),
    ).session_id;
    await server.app.basalt.db.kysely
      .updateTable('app_sessions')
      .set({ created_at: new Date(Date.now() - 2 * 86_400_000).toISOString() })
      .where('id', '=', sessionId)
      .execute();

    const needed = await client.auth.updateUser({ password: 'Second-Passw0rd!' });
    expect(needed.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await mailbox.latest(email);
    expect(mail.subject).toBe('Confirm it is you');
    const wrong = await client.auth.updateUser({ password: 'Second-Passw0rd!', nonce: '000000' });
    expect(wrong.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    expect((await client.auth.updateUser({ password: 'Second-Passw0rd!', nonce: mail.code })).error).toBeNull();
    const reused = await client.auth.updateUser({ password: 'Third-Passw0rd!!', nonce: mail.code });
    expect(reused.error).toMatchObject({ code: 'reauthentication_not_valid' });
    await app.patchSettings({ passwordReauthentication: false, emailConfirmation: true });
  });
});

describe.each(testDialects)('limits on mail codes on %s', (dialect) => {
  let server: TestServer;
  let mailbox: TestMailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startAuthServer(dialect, { smtpUrl: mailbox.url, authRateLimit: 3 });
  });
  afterAll(async () => {
    await server.close();
    await mailbox.close();
  });

  it('limits sign-in mails per address and code guesses per address (429), never answering 500', async () => {
    const otp = () =>
      server.request('POST', '/auth/v1/otp', {
        headers: keyHeaders(server.anonKey),
        json: { email: 'limit@example.com' },
      });
    const answers = [await otp(), await otp(), await otp(), await otp()];
    // One mail a minute per address, and AUTH_RATE_LIMIT (3) requests per address in five minutes.
    expect(answers.map((a) => a.body.error_code ?? a.status)).toEqual([
      200,
      'over_email_send_rate_limit',
      'over_email_send_rate_limit',
      'over_request_rate_limit',
    ]);
    const guess = () =>
      server.request('POST', '/auth/v1/verify', {
        headers: keyHeaders(server.anonKey),
        json: { email: 'guess@example.com', token: '123456', type: 'email' },
      });
    const guesses = [await guess(), await guess(), await guess(), await guess()];
    expect(guesses.slice(0, 3).map((g) => g.body.error_code)).toEqual(['otp_expired', 'otp_expired', 'otp_expired']);
    expect(guesses[3]?.body).toMatchObject({ code: 429, error_code: 'over_request_rate_limit' });
  });
});
