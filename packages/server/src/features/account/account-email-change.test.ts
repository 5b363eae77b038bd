import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../testing/account.fixtures.js';
import { keyHeaders, startAuthServer, type TestUser, users } from '../../testing/auth.fixtures.js';
import { startMailbox, type TestMailbox } from '../../testing/auth-mail.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// PATCH /api/user/profile with mail configured (SMTP_URL): a new email is GoTrue's email_change. A link goes
// to the new address, and the email changes only once it is followed; until then the old one stays.

const SITE = 'http://app.test';

describe.each(testDialects)('changing the email with mail configured on %s', (dialect) => {
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

  const onServer = (link: string) => link.replace(SITE, server.url);
  const signIn = (email: string, password: string) =>
    server.request('POST', '/api/auth/login', { json: { email, password } });

  // Signs a user up and confirms the address through the sign-up mail, then signs in.
  async function confirmedUser(user: TestUser): Promise<string> {
    await server.request('POST', '/auth/v1/signup', {
      headers: keyHeaders(server.anonKey),
      json: { email: user.email, password: user.password, data: { username: user.username } },
    });
    await fetch(onServer((await mailbox.latest(user.email)).link), { redirect: 'manual' });
    const res = await signIn(user.email, user.password);
    expect(res.status).toBe(200);
    return res.body.session.access_token;
  }

  it('mails a link to the new address and changes the email only once it is followed', async () => {
    const token = await confirmedUser(users.alice);
    await confirmedUser(users.bob);
    const res = await server.request('PATCH', '/api/user/profile', {
      headers: bearer(token),
      json: { username: 'alice', email: 'alice.new@example.com', marketingEmails: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      profile: expect.objectContaining({
        email: users.alice.email,
        pendingEmail: 'alice.new@example.com',
        marketingEmails: true,
      }),
      emailChangePending: true,
    });

    const mail = await mailbox.latest('alice.new@example.com');
    expect(mail.subject).toBe('Confirm your new email address');
    const link = new URL(mail.link);
    expect(link.searchParams.get('type')).toBe('email_change');
    expect(link.searchParams.get('redirect_to')).toBe(`${SITE}/settings`);

    // Nothing changed yet: the old address still signs in, the new one does not.
    expect((await signIn('alice.new@example.com', users.alice.password)).status).toBe(401);
    expect((await signIn(users.alice.email, users.alice.password)).status).toBe(200);

    // Too soon for another mail of the same kind.
    const again = await server.request('PATCH', '/api/user/profile', {
      headers: bearer(token),
      json: { email: 'alice.other@example.com' },
    });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('over_email_send_rate_limit');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);

    const followed = await fetch(onServer(mail.link), { redirect: 'manual' });
    expect(followed.status).toBe(303);
    expect(followed.headers.get('location')).toMatch(/^http:\/\/app\.test\/settings#access_token=/);

    const profile = await server.request('GET', '/api/user/profile', { headers: bearer(token) });
    expect(profile.body).toMatchObject({ email: 'alice.new@example.com', pendingEmail: null, marketingEmails: true });
    expect((await signIn('alice.new@example.com', users.alice.password)).status).toBe(200);
    expect((await signIn(users.alice.email, users.alice.password)).status).toBe(401);
  });

  it("refuses another account's address with 409 and mails nothing", async () => {
    const token = (await signIn(users.bob.email, users.bob.password)).body.session.access_token;
    const before = mailbox.mails.length;
    const res = await server.request('PATCH', '/api/user/profile', {
      headers: bearer(token),
      json: { email: 'alice.new@example.com' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'email_exists', message: 'An account with this email already exists' });
    expect(mailbox.mails.length).toBe(before);
  });

  it('keeps a username clash from mailing anything', async () => {
    const token = (await signIn(users.bob.email, users.bob.password)).body.session.access_token;
    const before = mailbox.mails.length;
    const res = await server.request('PATCH', '/api/user/profile', {
      headers: bearer(token),
      json: { username: 'alice', email: 'bob.new@example.com' },
    });
    expect([res.status, res.body.code]).toEqual([409, 'username_exists']);
    expect(mailbox.mails.length).toBe(before);
    const profile = await server.request('GET', '/api/user/profile', { headers: bearer(token) });
    expect(profile.body).toMatchObject({ username: 'bob', email: users.bob.email, pendingEmail: null });
  });

  it('answers 503 and keeps the other changes when the mail server is down', async () => {
    const token = (await signIn(users.bob.email, users.bob.password)).body.session.access_token;
    await mailbox.close();
    try {
      const res = await server.request('PATCH', '/api/user/profile', {
        headers: bearer(token),
        json: { username: 'bobby', email: 'bob.new@example.com' },
      });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        code: 'mail_unavailable',
        message: 'The confirmation email could not be sent. Please try again later.',
      });
      const profile = await server.request('GET', '/api/user/profile', { headers: bearer(token) });
      expect(profile.body).toMatchObject({ username: 'bobby', email: users.bob.email, pendingEmail: null });
    } finally {
      mailbox = await startMailbox();
    }
  });
});
