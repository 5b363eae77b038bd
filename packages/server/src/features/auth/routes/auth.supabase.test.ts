import { AuthApiError, createClient, isAuthSessionMissingError, isAuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// The real client against the running server: what an app (and the console) does.
describe.each(testDialects)('@supabase/supabase-js auth on %s', (dialect) => {
  let server: TestServer;
  const requested: string[] = [];
  beforeAll(async () => {
    server = await startAuthServer(dialect);
  });
  afterAll(() => server.close());

  const client = (key = server.anonKey) =>
    createClient(server.url, key, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: {
        fetch: (input, init) => {
          requested.push(
            `${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`,
          );
          return fetch(input, init);
        },
      },
    });

  it('signs up, reads and updates the user, refreshes, verifies claims locally and signs out', async () => {
    const supabase = client();
    const { alice } = users;
    const signUp = await supabase.auth.signUp({
      email: alice.email,
      password: alice.password,
      options: { data: { username: alice.username } },
    });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session?.access_token).toEqual(expect.any(String));
    expect(signUp.data.user).toMatchObject({ email: alice.email, user_metadata: { username: 'alice' } });

    const { data: got, error: getError } = await supabase.auth.getUser();
    expect(getError).toBeNull();
    expect(got.user?.id).toBe(signUp.data.user?.id);

    const updated = await supabase.auth.updateUser({ data: { theme: 'dark' } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ username: 'alice', theme: 'dark' });

    const before = (await supabase.auth.getSession()).data.session;
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(before?.refresh_token);

    requested.length = 0;
    const claims = await supabase.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims).toMatchObject({ sub: got.user?.id, role: 'authenticated', email: alice.email });
    expect(requested).toEqual(['GET /auth/v1/.well-known/jwks.json']);

    const token = refreshed.data.session?.access_token ?? '';
    expect((await supabase.auth.signOut()).error).toBeNull();
    const after = await supabase.auth.getUser(token);
    expect(isAuthSessionMissingError(after.error)).toBe(true);
  });

  it('changes the password with updateUser and signs in with the new one', async () => {
    const supabase = client();
    const { bob } = users;
    await supabase.auth.signUp({ email: bob.email, password: bob.password });
    expect((await supabase.auth.updateUser({ password: 'Brand-New-Passw0rd!' })).error).toBeNull();
    const fresh = client();
    const old = await fresh.auth.signInWithPassword({ email: bob.email, password: bob.password });
    expect(old.error).toBeInstanceOf(AuthApiError);
    const signIn = await fresh.auth.signInWithPassword({ email: bob.email, password: 'Brand-New-Passw0rd!' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.email).toBe(bob.email);
  });

  it('surfaces AuthApiError 400 invalid_credentials for a wrong password', async () => {
    const { error, data } = await client().auth.signInWithPassword({
      email: users.alice.email,
      password: 'Wrong-Passw0rd!',
    });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    expect(data.session).toBeNull();
  });

  it('surfaces AuthWeakPasswordError with the reasons', async () => {
    const { error } = await client().auth.signUp({ email: 'weak@example.com', password: 'weakpassword' });
    expect(isAuthWeakPasswordError(error)).toBe(true);
    if (isAuthWeakPasswordError(error)) expect(error.reasons).toEqual(['characters']);
  });

  it('manages users with the service key: createUser, listUsers with pagination, deleteUser', async () => {
    const admin = client(server.serviceKey).auth.admin;
    const created = await admin.createUser({
      email: users.carol.email,
      password: users.carol.password,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    expect(created.data.user?.email_confirmed_at).toEqual(expect.any(String));

    const page = await admin.listUsers({ page: 1, perPage: 1 });
    expect(page.error).toBeNull();
    expect(page.data.users.map((u) => u.email)).toEqual([users.carol.email]);
    expect(page.data).toMatchObject({ total: 3, nextPage: 2, lastPage: 3 });

    const id = created.data.user?.id ?? '';
    const deleted = await admin.deleteUser(id);
    expect(deleted.error).toBeNull();
    expect(deleted.data.user?.id).toBe(id);
    const gone = await admin.getUserById(id);
    expect(gone.error).toMatchObject({ status: 404, code: 'user_not_found' });

    const refused = await client().auth.admin.listUsers();
    expect(refused.error).toMatchObject({ status: 403, code: 'not_admin' });
  });
});
