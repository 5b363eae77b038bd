import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppTable, startDeveloper } from '../../../testing/apps.fixtures.js';
import { keyHeaders, startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { type AuthPoolUnderTest, authClient, poolsUnderTest } from '../../../testing/auth-flows.fixtures.js';
import { startMailbox, type TestMailbox } from '../../../testing/auth-mail.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// Invitations and generated links (admin inviteUserByEmail and generateLink), and the admin API's user_metadata,
// with the unmodified supabase-js for console accounts and an app's end users; then anonymous sign-in for an app.

describe.each(testDialects)('invites and generated links on %s', (dialect) => {
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

  describe.each(['console accounts', 'app users'] as const)('for %s', (name) => {
    const address = (local: string) => `${local}.${name === 'app users' ? 'app' : 'console'}@example.com`;

    it('invites by mail; the invitee follows it, sets a password and signs in with it', async () => {
      const admin = authClient(server, pool(name).serviceKey).auth.admin;
      const email = address('invitee');
      const invited = await admin.inviteUserByEmail(email, { data: { team: 'blue' } });
      expect(invited.error).toBeNull();
      expect(invited.data.user).toMatchObject({
        email,
        user_metadata: { team: 'blue' },
        invited_at: expect.any(String),
      });
      expect(invited.data.user?.email_confirmed_at).toBeUndefined();
      const mail = await mailbox.latest(email);
      expect(mail.subject).toBe('You have been invited');
      expect(new URL(mail.link).searchParams.get('type')).toBe('invite');

      const client = authClient(server, pool(name).anonKey);
      const accepted = await client.auth.verifyOtp({ email, token: mail.code, type: 'invite' });
      expect(accepted.error).toBeNull();
      expect(accepted.data.user?.email_confirmed_at).toEqual(expect.any(String));
      expect((await client.auth.updateUser({ password: 'Invited-Passw0rd!' })).error).toBeNull();
      const signedIn = await authClient(server, pool(name).anonKey).auth.signInWithPassword({
        email,
        password: 'Invited-Passw0rd!',
      });
      expect(signedIn.error).toBeNull();

      const twice = await admin.inviteUserByEmail(email);
      expect(twice.error).toMatchObject({ status: 422, code: 'email_exists' });
      const byAnon = await server.request('POST', '/auth/v1/invite', {
        headers: keyHeaders(pool(name).anonKey),
        json: { email: address('sneaky') },
      });
      expect(byAnon.body).toMatchObject({ code: 403, error_code: 'not_admin' });
    });

    it('generates links of every type whose hashed token and code verify, without sending a mail', async () => {
      const admin = authClient(server, pool(name).serviceKey).auth.admin;
      const anon = () => authClient(server, pool(name).anonKey);
      const before = mailbox.mails.length;

      const signup = await admin.generateLink({
        type: 'signup',
        email: address('gen'),
        password: users.alice.password,
      });
      expect(signup.error).toBeNull();
      expect(signup.data.properties).toMatchObject({
        verification_type: 'signup',
        email_otp: expect.stringMatching(/^\d{6}$/),
      });
      expect(signup.data.properties?.action_link).toContain('/auth/v1/verify?token=');
      const confirmed = await anon().auth.verifyOtp({
        token_hash: signup.data.properties?.hashed_token ?? '',
        type: 'signup',
      });
      expect(confirmed.error).toBeNull();

      const magic = await admin.generateLink({ type: 'magiclink', email: address('gen') });
      expect(
        (
          await anon().auth.verifyOtp({
            email: address('gen'),
            token: magic.data.properties?.email_otp ?? '',
            type: 'magiclink',
          })
        ).error,
      ).toBeNull();

      const recovery = await admin.generateLink({ type: 'recovery', email: address('gen') });
      const recovered = await anon().auth.verifyOtp({
        token_hash: recovery.data.properties?.hashed_token ?? '',
        type: 'recovery',
      });
      expect(recovered.error).toBeNull();

      const invite = await admin.generateLink({
        type: 'invite',
        email: address('gen-invite'),
        options: { data: { x: 1 } },
      });
      expect(invite.data.user?.user_metadata).toEqual({ x: 1 });
      expect(
        (await anon().auth.verifyOtp({ token_hash: invite.data.properties?.hashed_token ?? '', type: 'invite' })).error,
      ).toBeNull();

      const change = await admin.generateLink({
        type: 'email_change_new',
        email: address('gen'),
        newEmail: address('gen-new'),
      });
      expect(change.error).toBeNull();
      const changed = await anon().auth.verifyOtp({
        token_hash: change.data.properties?.hashed_token ?? '',
        type: 'email_change',
      });
      expect(changed.data.user?.email).toBe(address('gen-new'));

      const unknown = await admin.generateLink({ type: 'recovery', email: address('nobody') });
      expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' });
      const badType = await server.request('POST', '/auth/v1/admin/generate_link', {
        headers: keyHeaders(pool(name).serviceKey),
        json: { type: 'teleport', email: address('gen') },
      });
      expect(badType.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
      expect(mailbox.mails.length).toBe(before);
    });

    it('stores user_metadata exactly as the admin API sends it', async () => {
      const admin = authClient(server, pool(name).serviceKey).auth.admin;
      const created = await admin.createUser({ email: address('exact'), user_metadata: { a: 1 }, email_confirm: true });
      expect(created.data.user?.user_metadata).toEqual({ a: 1 });
      const updated = await admin.updateUserById(created.data.user?.id ?? '', { user_metadata: { b: 2 } });
      expect(updated.data.user?.user_metadata).toEqual({ a: 1, b: 2 });
    });
  });
});

describe.each(testDialects)('anonymous sign-in on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
  });
  afterAll(() => server.close());

  it('is off by default, for console accounts always; an app turns it on', async () => {
    const dev = await startDeveloper(server, users.alice);
    const consoleAnon = await authClient(server, server.anonKey).auth.signInAnonymously();
    expect(consoleAnon.error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled' });
    const off = await authClient(server, dev.app.anonKey).auth.signInAnonymously();
    expect(off.error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled' });
    const settingsOff = await server.request('GET', '/auth/v1/settings', { headers: keyHeaders(dev.app.anonKey) });
    expect(settingsOff.body.external.anonymous_users).toBe(false);

    await server.request('PATCH', '/api/app', { headers: dev.headers, json: { settings: { anonymousSignIns: true } } });
    const settingsOn = await server.request('GET', '/auth/v1/settings', { headers: keyHeaders(dev.app.anonKey) });
    expect(settingsOn.body.external.anonymous_users).toBe(true);

    await createAppTable(server, dev, {
      name: 'notes',
      schema: { body: { type: 'text' } },
      access: { select: 'authenticated', insert: 'authenticated', update: 'nobody', delete: 'nobody' },
    });
    const client = authClient(server, dev.app.anonKey);
    const anon = await client.auth.signInAnonymously({ options: { data: { nickname: 'guest' } } });
    expect(anon.error).toBeNull();
    expect(anon.data.user).toMatchObject({
      email: '',
      is_anonymous: true,
      user_metadata: { nickname: 'guest' },
      identities: [],
    });
    const listed = await server.request('GET', '/api/users', { headers: dev.headers });
    expect(listed.body.data.find((u: { id: string }) => u.id === anon.data.user?.id)).toMatchObject({ email: '' });
    const claims = await client.auth.getClaims();
    expect(claims.data?.claims).toMatchObject({ is_anonymous: true, role: 'authenticated' });
    // Access rules treat an anonymous user as signed in.
    await client.from('notes').insert({ body: 'from a guest' }).throwOnError();
    const read = await client.from('notes').select('body');
    expect(read.data).toEqual([{ body: 'from a guest' }]);

    const lonely = await client.auth.updateUser({ password: 'Guest-Passw0rd!' });
    expect(lonely.error).toMatchObject({ status: 422, code: 'validation_failed' });
    const converted = await client.auth.updateUser({ email: 'guest@example.com', password: 'Guest-Passw0rd!' });
    expect(converted.error).toBeNull();
    expect(converted.data.user).toMatchObject({ email: 'guest@example.com', is_anonymous: false });
    expect(converted.data.user?.identities?.map((i) => i.provider)).toEqual(['email']);
    const again = await authClient(server, dev.app.anonKey).auth.signInWithPassword({
      email: 'guest@example.com',
      password: 'Guest-Passw0rd!',
    });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).toBe(anon.data.user?.id);
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.data.session?.user.is_anonymous).toBe(false);

    // A user added on the Users page has its email identity too.
    const added = await server.request('POST', '/api/users', {
      headers: dev.headers,
      json: { username: 'added', email: 'added@example.com', password: 'Added-Passw0rd!' },
    });
    const admin = authClient(server, dev.app.serviceKey).auth.admin;
    const fetched = await admin.getUserById(added.body.id);
    expect(fetched.data.user?.identities?.map((i) => [i.provider, i.identity_data?.email])).toEqual([
      ['email', 'added@example.com'],
    ]);
  });
});
