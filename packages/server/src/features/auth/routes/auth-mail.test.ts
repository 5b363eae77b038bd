import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHeaders, startAuthServer, userHeaders, users } from '../../../testing/auth.fixtures.js';
import { startMailbox, type TestMailbox } from '../../../testing/auth-mail.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// With SMTP_URL set: confirmation on, mails over real SMTP, links followed over real HTTP.
const SITE = 'http://app.test';

describe.each(testDialects)('auth mails over SMTP on %s', (dialect) => {
  let server: TestServer;
  let mailbox: TestMailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startAuthServer(dialect, { smtpUrl: mailbox.url, siteUrl: SITE, siteUrlConfigured: true });
  });
  afterAll(async () => {
    await server.close();
    await mailbox.close();
  });
  const anon = () => keyHeaders(server.anonKey);
  // Links point at SITE_URL; the test server listens elsewhere.
  const onServer = (link: string) => link.replace(SITE, server.url);
  const signIn = (email: string, password: string) =>
    server.request('POST', '/auth/v1/token?grant_type=password', { headers: anon(), json: { email, password } });
  const supabase = () =>
    createClient(server.url, server.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { alice, bob } = users;

  it('signs up without a session, mails a confirmation, and confirms through the link', async () => {
    const settings = await server.request('GET', '/auth/v1/settings', { headers: anon() });
    expect(settings.body.mailer_autoconfirm).toBe(false);

    const res = await server.request('POST', `/auth/v1/signup?redirect_to=${encodeURIComponent(`${SITE}/welcome`)}`, {
      headers: anon(),
      json: { email: alice.email, password: alice.password, data: { username: 'alice' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('access_token');
    expect(res.body).toMatchObject({ email: alice.email, confirmation_sent_at: expect.any(String) });
    expect(res.body).not.toHaveProperty('email_confirmed_at');

    const mail = await mailbox.latest(alice.email);
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.link).toMatch(/^http:\/\/app\.test\/auth\/v1\/verify\?token=[\w-]+&type=signup&redirect_to=/);
    expect(mail.code).toMatch(/^\d{6}$/);

    expect((await signIn(alice.email, alice.password)).body).toMatchObject({
      code: 400,
      error_code: 'email_not_confirmed',
    });
    const again = await server.request('POST', '/auth/v1/signup', {
      headers: anon(),
      json: { email: alice.email, password: alice.password },
    });
    expect(again.status).toBe(429);
    expect(again.body.error_code).toBe('over_email_send_rate_limit');

    const followed = await fetch(onServer(mail.link), { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const location = new URL(followed.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${SITE}/welcome`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(Object.fromEntries(fragment)).toMatchObject({ token_type: 'bearer', type: 'signup', expires_in: '3600' });
    const user = await server.request('GET', '/auth/v1/user', {
      headers: userHeaders(server, fragment.get('access_token') ?? ''),
    });
    expect(user.body.email_confirmed_at).toEqual(expect.any(String));

    const reused = await fetch(onServer(mail.link), { redirect: 'manual' });
    const failed = new URLSearchParams(new URL(reused.headers.get('location') ?? '').hash.slice(1));
    expect(Object.fromEntries(failed)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });
    expect((await signIn(alice.email, alice.password)).status).toBe(200);
  });

  it('answers a sign-up with a confirmed email with a fake user and sends nothing', async () => {
    const before = mailbox.mails.length;
    const res = await server.request('POST', '/auth/v1/signup', {
      headers: anon(),
      json: { email: alice.email, password: bob.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.identities).toEqual([]);
    expect(mailbox.mails.length).toBe(before);
    expect((await signIn(alice.email, alice.password)).status).toBe(200);
  });

  it('recovers a password: resetPasswordForEmail, the 6-digit code, updateUser, sign-in', async () => {
    const client = supabase();
    const signUp = await client.auth.signUp({ email: bob.email, password: bob.password });
    expect(signUp.data.session).toBeNull();
    const confirm = await mailbox.latest(bob.email);
    const confirmed = await client.auth.verifyOtp({ email: bob.email, token: confirm.code, type: 'signup' });
    expect(confirmed.error).toBeNull();

    const sent = await client.auth.resetPasswordForEmail(bob.email, { redirectTo: 'https://evil.test/steal' });
    expect(sent.error).toBeNull();
    const mail = await mailbox.latest(bob.email);
    expect(mail.subject).toBe('Reset your password');
    // A redirect outside the site falls back to the site URL.
    expect(new URL(mail.link).searchParams.get('redirect_to')).toBe(SITE);
    expect((await client.auth.resetPasswordForEmail(bob.email)).error).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
    });

    const wrong = await client.auth.verifyOtp({ email: bob.email, token: '000000', type: 'recovery' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const verified = await client.auth.verifyOtp({ email: bob.email, token: mail.code, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.access_token).toEqual(expect.any(String));
    expect((await client.auth.updateUser({ password: 'Recovered-Passw0rd!' })).error).toBeNull();

    const fresh = await supabase().auth.signInWithPassword({ email: bob.email, password: 'Recovered-Passw0rd!' });
    expect(fresh.error).toBeNull();
  });

  it('answers recover for an unknown address with {} and sends nothing', async () => {
    const before = mailbox.mails.length;
    const res = await server.request('POST', '/auth/v1/recover', {
      headers: anon(),
      json: { email: 'nobody@example.com' },
    });
    expect([res.status, res.body]).toEqual([200, {}]);
    expect(mailbox.mails.length).toBe(before);
    const missing = await server.request('POST', '/auth/v1/recover', { headers: anon(), json: {} });
    expect(missing.body.error_code).toBe('validation_failed');
  });

  it('changes the email after confirming a mail to the new address (token_hash)', async () => {
    const login = await signIn(alice.email, alice.password);
    const headers = userHeaders(server, login.body.access_token);
    const res = await server.request('PUT', '/auth/v1/user', { headers, json: { email: 'alice.new@example.com' } });
    expect(res.body).toMatchObject({
      email: alice.email,
      new_email: 'alice.new@example.com',
      email_change_sent_at: expect.any(String),
    });
    const mail = await mailbox.latest('alice.new@example.com');
    const tokenHash = new URL(mail.link).searchParams.get('token');
    const verified = await server.request('POST', '/auth/v1/verify', {
      headers: anon(),
      json: { type: 'email_change', token_hash: tokenHash },
    });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email: 'alice.new@example.com' });
    expect(verified.body.user).not.toHaveProperty('new_email');
  });

  it('redeems a mail token once, also when two requests race', async () => {
    const { erin } = users;
    await server.request('POST', '/auth/v1/admin/users', {
      headers: keyHeaders(server.serviceKey),
      json: { email: erin.email, password: erin.password, email_confirm: true },
    });
    await server.request('POST', '/auth/v1/recover', { headers: anon(), json: { email: erin.email } });
    const tokenHash = new URL((await mailbox.latest(erin.email)).link).searchParams.get('token');
    const verify = () =>
      server.request('POST', '/auth/v1/verify', { headers: anon(), json: { type: 'recovery', token_hash: tokenHash } });
    const answers = await Promise.all([verify(), verify()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
  });

  it.each([
    [{ type: 'signup' }, 400, 'validation_failed'],
    [{ type: 'signup', token: '123456', token_hash: 'abc' }, 400, 'validation_failed'],
    [{ type: 'signup', token: '123456' }, 400, 'validation_failed'],
    [{ type: 'sms', token_hash: 'abc' }, 400, 'validation_failed'],
    [{ type: '__proto__', token_hash: 'abc' }, 400, 'validation_failed'],
    [{ type: 'toString', token_hash: 'abc' }, 400, 'validation_failed'],
    [{ type: 'magiclink', token_hash: 'abc' }, 403, 'otp_expired'],
    [{ type: 'signup', token_hash: 'abc' }, 403, 'otp_expired'],
  ])('refuses POST /verify %j', async (json, status, code) => {
    const res = await server.request('POST', '/auth/v1/verify', { headers: anon(), json });
    expect([res.status, res.body.error_code]).toEqual([status, code]);
  });
});
