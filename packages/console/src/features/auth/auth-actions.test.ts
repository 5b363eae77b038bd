import { AuthApiError } from '@supabase/supabase-js';
import { describe, expect, it, vi } from 'vitest';
import { createFakeAuth, fakeSession, fakeUser } from '@/test/fake-auth';
import { requestPasswordReset, signIn, signOut, signUp } from './auth-actions';
import { initialsOf, mapSupabaseUser, usernameOf } from './auth-user';

describe('mapSupabaseUser', () => {
  it('takes the username from metadata, else the email local part, else empty', () => {
    expect(usernameOf(fakeUser({ user_metadata: { username: 'grace' } }))).toBe('grace');
    expect(usernameOf(fakeUser({ user_metadata: {}, email: 'linus@example.com' }))).toBe('linus');
    expect(usernameOf(fakeUser({ user_metadata: {}, email: undefined }))).toBe('');
  });

  it('maps the account to the application user with empty subscription fields', () => {
    expect(mapSupabaseUser(fakeUser({ email: undefined }))).toEqual({
      id: 'user-1',
      username: 'ada',
      email: '',
      isAdmin: false,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      subscriptionStatus: null,
      subscriptionPlan: null,
      subscriptionRenewalDate: null,
      cancelAtPeriodEnd: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(mapSupabaseUser(fakeUser({ id: '' }))).toBeNull();
  });

  it('makes initials from the first two letters of the username', () => {
    expect(initialsOf('ada_l')).toBe('AD');
    expect(initialsOf('x')).toBe('X');
    expect(initialsOf('')).toBe('');
  });
});

describe('signIn', () => {
  it('returns the mapped user', async () => {
    const { auth } = createFakeAuth();
    await expect(signIn(auth, { email: 'linus@example.com', password: 'x' })).resolves.toMatchObject({
      username: 'linus',
      email: 'linus@example.com',
    });
    expect(auth.signInWithPassword).toHaveBeenCalledWith({ email: 'linus@example.com', password: 'x' });
  });

  it('passes on the auth error', async () => {
    const { auth } = createFakeAuth();
    vi.mocked(auth.signInWithPassword).mockResolvedValue({
      data: { user: null, session: null },
      error: new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'),
    });
    await expect(signIn(auth, { email: 'a@b.co', password: 'x' })).rejects.toThrow('Invalid login credentials');
  });

  it('reports a missing or unmappable user with the spec texts', async () => {
    const { auth } = createFakeAuth();
    const session = fakeSession();
    vi.mocked(auth.signInWithPassword).mockResolvedValueOnce({
      data: { user: fakeUser({ id: '' }), session },
      error: null,
    });
    await expect(signIn(auth, { email: 'a@b.co', password: 'x' })).rejects.toThrow(
      'Login failed: Could not map Supabase user to application user.',
    );
    // The types promise a user; the check exists for servers that break the promise.
    const noUser = JSON.parse('{"data":{"user":null,"session":null},"error":null}');
    vi.mocked(auth.signInWithPassword).mockResolvedValueOnce(noUser);
    await expect(signIn(auth, { email: 'a@b.co', password: 'x' })).rejects.toThrow(
      'Login failed: No user data returned.',
    );
  });
});

describe('signUp', () => {
  it('sends the username as metadata and asks for confirmation when no session came back', async () => {
    const { auth } = createFakeAuth();
    const result = await signUp(auth, { username: 'ada', email: 'ada@example.com', password: 'Secr3t!pass' });
    expect(auth.signUp).toHaveBeenCalledWith({
      email: 'ada@example.com',
      password: 'Secr3t!pass',
      options: { data: { username: 'ada' } },
    });
    expect(result).toMatchObject({ user: { username: 'ada' }, needsEmailConfirmation: true });
  });

  it('needs no confirmation when signUp signed the user in', async () => {
    const { auth } = createFakeAuth();
    const user = fakeUser();
    vi.mocked(auth.signUp).mockResolvedValue({ data: { user, session: fakeSession(user) }, error: null });
    await expect(signUp(auth, { username: 'ada', email: 'a@b.co', password: 'p' })).resolves.toMatchObject({
      needsEmailConfirmation: false,
    });
  });

  it('reports a missing or unmappable user with the spec texts', async () => {
    const { auth } = createFakeAuth();
    vi.mocked(auth.signUp).mockResolvedValueOnce({ data: { user: null, session: null }, error: null });
    await expect(signUp(auth, { username: 'ada', email: 'a@b.co', password: 'p' })).rejects.toThrow(
      'Registration failed: No user data returned from signup.',
    );
    vi.mocked(auth.signUp).mockResolvedValueOnce({ data: { user: fakeUser({ id: '' }), session: null }, error: null });
    await expect(signUp(auth, { username: 'ada', email: 'a@b.co', password: 'p' })).rejects.toThrow(
      'Registration failed: Could not map Supabase user.',
    );
  });
});

describe('signOut and requestPasswordReset', () => {
  it('throw the auth error', async () => {
    const { auth } = createFakeAuth();
    vi.mocked(auth.signOut).mockResolvedValue({ error: new AuthApiError('Session expired', 401, 'bad_jwt') });
    await expect(signOut(auth)).rejects.toThrow('Session expired');
    vi.mocked(auth.resetPasswordForEmail).mockResolvedValue({
      data: null,
      error: new AuthApiError('Too many requests', 429, 'over_email_send_rate_limit'),
    });
    await expect(requestPasswordReset(auth, 'a@b.co')).rejects.toThrow('Too many requests');
  });
});
