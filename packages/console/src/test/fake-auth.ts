import { type AuthChangeEvent, AuthError, type Session, type User } from '@supabase/supabase-js';
import { vi } from 'vitest';
import type { AuthClient } from '@/features/auth/auth-actions';

/** fakeUser is a supabase user for tests; fields override the defaults. */
export function fakeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'user-1',
    aud: 'authenticated',
    app_metadata: {},
    user_metadata: { username: 'ada' },
    email: 'ada@example.com',
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** fakeSession is a session of the given user. */
export function fakeSession(user: User = fakeUser()): Session {
  return {
    access_token: 'access-token',
    refresh_token: 'refresh-token',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: 'bearer',
    user,
  };
}

type Listener = (event: AuthChangeEvent, session: Session | null) => void | Promise<void>;

/**
 * createFakeAuth is an in-memory stand-in for supabase-js's auth client: sign-in succeeds for any
 * credentials and emits SIGNED_IN, sign-out emits SIGNED_OUT. Spy on its methods to change an answer.
 */
export function createFakeAuth(initial: Session | null = null) {
  let session = initial;
  const listeners = new Set<Listener>();
  const emit = (event: AuthChangeEvent, next: Session | null) => {
    session = next;
    for (const listener of listeners) void listener(event, next);
  };

  const auth: AuthClient = {
    getSession: async () => (session ? { data: { session }, error: null } : { data: { session: null }, error: null }),
    onAuthStateChange: (callback: Listener) => {
      listeners.add(callback);
      queueMicrotask(() => void callback('INITIAL_SESSION', session));
      return { data: { subscription: { id: 'fake', callback, unsubscribe: () => listeners.delete(callback) } } };
    },
    signInWithPassword: async (credentials) => {
      const email = 'email' in credentials ? credentials.email : undefined;
      const user = fakeUser({ email, user_metadata: {} });
      const next = fakeSession(user);
      emit('SIGNED_IN', next);
      return { data: { user, session: next }, error: null };
    },
    signUp: async (credentials) => {
      const email = 'email' in credentials ? credentials.email : undefined;
      const user = fakeUser({ email, user_metadata: credentials.options?.data ?? {} });
      return { data: { user, session: null }, error: null };
    },
    signOut: async () => {
      emit('SIGNED_OUT', null);
      return { error: null };
    },
    resetPasswordForEmail: async () => ({ data: {}, error: null }),
    updateUser: async () => {
      if (!session) return { data: { user: null }, error: new AuthError('Auth session missing!', 400) };
      emit('USER_UPDATED', session);
      return { data: { user: session.user }, error: null };
    },
  };

  for (const method of [
    'getSession',
    'signInWithPassword',
    'signUp',
    'signOut',
    'resetPasswordForEmail',
    'updateUser',
  ] as const) {
    vi.spyOn(auth, method);
  }
  return { auth, emit };
}
