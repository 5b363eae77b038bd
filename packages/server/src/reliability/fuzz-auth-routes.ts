import fc from 'fast-check';
import { bodyOf, hostileValue, objectOf } from './fuzz-inputs.js';
import { queryString } from './fuzz-queries.js';
import { email, type KnownIds, literal, password, type RouteSpec, withId } from './fuzz-routes.js';

// The routes not on the route table yet, listed by hand until they move onto it: /auth/v1 with the JWKS
// (GoTrue's API) and the console's account routes. Every other route is fuzzed from the table itself.

/** authRoutes are /auth/v1 and the JWKS (GoTrue's API), the second user being the usual caller. */
export function authRoutes(known: KnownIds): Record<string, RouteSpec> {
  const userAttrs = objectOf({
    email,
    password,
    email_confirm: fc.boolean(),
    phone: fc.string(),
    user_metadata: hostileValue,
    app_metadata: hostileValue,
    role: fc.string(),
    ban_duration: fc.constantFrom('1h', 'none', '-1h', 'forever', '999999999h'),
    id: fc.uuid(),
    password_hash: fc.string(),
  });
  return {
    signup: {
      methods: ['POST'],
      path: literal('/auth/v1/signup'),
      body: bodyOf(objectOf({ email, password, data: hostileValue, gotrue_meta_security: hostileValue })),
      as: 'anon-key',
    },
    token: {
      methods: ['POST'],
      path: literal('/auth/v1/token'),
      query: fc.oneof(
        fc.constantFrom(
          '?grant_type=password',
          '?grant_type=refresh_token',
          '?grant_type=pkce',
          '?grant_type=id_token',
          '?grant_type=',
        ),
        queryString(['grant_type']),
      ),
      body: bodyOf(
        objectOf({
          email,
          password,
          refresh_token: fc.string({ maxLength: 40 }),
          id_token: fc.string({ maxLength: 80 }),
          provider: fc.constantFrom('google', 'github', 'custom:x', ''),
          nonce: fc.string({ maxLength: 20 }),
        }),
      ),
      as: 'anon-key',
    },
    user: {
      methods: ['GET', 'PUT'],
      path: literal('/auth/v1/user'),
      body: bodyOf(
        objectOf({ email, password, data: hostileValue, app_metadata: hostileValue, current_password: password }),
      ),
      as: 'other-user',
    },
    logout: {
      methods: ['POST'],
      path: literal('/auth/v1/logout'),
      query: fc.constantFrom('', '?scope=global', '?scope=local', '?scope=others', '?scope=everyone', '?scope='),
      as: 'other-user',
    },
    recover: {
      methods: ['POST'],
      path: literal('/auth/v1/recover'),
      body: bodyOf(objectOf({ email })),
      as: 'anon-key',
    },
    verify: {
      methods: ['POST', 'GET'],
      path: literal('/auth/v1/verify'),
      query: fc.oneof(
        fc.constantFrom('?type=recovery&token=x', '?type=signup&token=&redirect_to=javascript:alert(1)', '?type=x'),
        queryString(['token', 'type', 'redirect_to']),
      ),
      body: bodyOf(
        objectOf({
          type: fc.constantFrom('signup', 'recovery', 'email', 'magiclink', 'invite', 'email_change', 'sms'),
          token: fc.string({ maxLength: 8 }),
          token_hash: fc.string(),
          email,
        }),
      ),
      as: 'anon-key',
    },
    meta: {
      methods: ['GET'],
      path: fc.constantFrom(
        '/auth/v1/settings',
        '/auth/v1/health',
        '/auth/v1/.well-known/jwks.json',
        '/.well-known/jwks.json',
        '/auth/v1/otp',
        '/auth/v1/resend',
        '/auth/v1/authorize',
        '/auth/v1/sso',
        '/auth/v1/nowhere',
      ),
      as: 'anon-key',
    },
    otp: {
      methods: ['POST'],
      path: fc.constantFrom('/auth/v1/otp', '/auth/v1/resend'),
      query: fc.oneof(fc.constant(''), queryString(['redirect_to'])),
      body: bodyOf(
        objectOf({
          email,
          phone: fc.string(),
          type: fc.constantFrom('signup', 'email_change', 'sms', 'x'),
          data: hostileValue,
          create_user: fc.oneof(fc.boolean(), hostileValue),
          code_challenge: fc.oneof(fc.string(), fc.constant('a'.repeat(43))),
          code_challenge_method: fc.constantFrom('s256', 'plain', 'md5', ''),
        }),
      ),
      as: 'anon-key',
    },
    invite: {
      methods: ['POST'],
      path: fc.constantFrom('/auth/v1/invite', '/auth/v1/admin/generate_link'),
      body: bodyOf(
        objectOf({
          email,
          new_email: email,
          password,
          data: hostileValue,
          type: fc.constantFrom(
            'signup',
            'invite',
            'magiclink',
            'recovery',
            'email_change_new',
            'email_change_current',
            'x',
          ),
        }),
      ),
      as: 'service-key',
    },
    factors: {
      methods: ['POST', 'DELETE'],
      path: fc.oneof(
        fc.constant('/auth/v1/factors'),
        fc.uuid().map((id) => `/auth/v1/factors/${id}`),
        fc.uuid().map((id) => `/auth/v1/factors/${id}/challenge`),
        fc.uuid().map((id) => `/auth/v1/factors/${id}/verify`),
        fc.string({ maxLength: 12 }).map((id) => `/auth/v1/factors/${encodeURIComponent(id)}/verify`),
      ),
      body: bodyOf(
        objectOf({
          factor_type: fc.constantFrom('totp', 'phone', 'webauthn', 'x'),
          friendly_name: fc.string({ maxLength: 20 }),
          issuer: fc.string({ maxLength: 20 }),
          challenge_id: fc.oneof(fc.uuid(), fc.string()),
          code: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
        }),
      ),
      as: 'other-user',
    },
    identities: {
      methods: ['GET', 'DELETE'],
      path: fc.oneof(
        fc.constant('/auth/v1/user/identities/authorize'),
        fc.uuid().map((id) => `/auth/v1/user/identities/${id}`),
      ),
      query: fc.oneof(
        fc.constantFrom('?provider=github', '?provider=custom:x&skip_http_redirect=true'),
        queryString(['provider']),
      ),
      as: 'other-user',
    },
    oauth: {
      methods: ['GET', 'POST'],
      path: fc.constantFrom('/auth/v1/authorize', '/auth/v1/callback'),
      query: fc.oneof(
        fc.constantFrom('?provider=github', '?state=not-a-uuid&code=x', '?error=access_denied', '?provider=x&ref=nope'),
        fc.uuid().map((id) => `?state=${id}&code=x`),
        queryString(['provider', 'state', 'code', 'redirect_to', 'apikey']),
      ),
      as: 'anon-key',
    },
    adminUsers: {
      methods: ['GET', 'POST'],
      path: literal('/auth/v1/admin/users'),
      query: fc.oneof(fc.constantFrom('?page=1&per_page=50', '?page=-1', '?per_page=99999999999'), queryString([])),
      body: bodyOf(userAttrs),
      as: 'service-key',
    },
    adminUser: {
      methods: ['GET', 'PUT', 'DELETE'],
      path: fc.oneof(
        withId('/auth/v1/admin/users', known.users),
        fc.uuid().map((id) => `/auth/v1/admin/users/${id}`),
      ),
      body: bodyOf(fc.oneof(userAttrs, objectOf({ should_soft_delete: fc.boolean() }))),
      as: 'service-key',
    },
  };
}

/** legacyConsoleRoutes are the console's account routes: profile, password, deletion, sign-in and its reads. */
export function legacyConsoleRoutes(): Record<string, RouteSpec> {
  return {
    profile: {
      methods: ['GET', 'PATCH'],
      path: literal('/api/user/profile'),
      body: bodyOf(objectOf({ username: fc.string({ maxLength: 30 }), email, marketingEmails: fc.boolean() })),
      as: 'user',
    },
    password: {
      methods: ['POST'],
      path: literal('/api/user/change-password'),
      body: bodyOf(objectOf({ currentPassword: password, newPassword: password })),
      as: 'user',
    },
    account: {
      methods: ['DELETE'],
      path: literal('/api/user'),
      body: bodyOf(objectOf({ confirm: fc.constantFrom('fuzz', 'someone', '') })),
      as: 'user',
    },
    consoleAuth: {
      methods: ['POST'],
      path: fc.constantFrom('/api/auth/register', '/api/auth/login', '/api/auth/logout'),
      body: bodyOf(objectOf({ username: fc.string({ maxLength: 30 }), email, password })),
      as: 'none',
    },
    reads: {
      methods: ['GET'],
      path: fc.constantFrom('/api/csrf-token', '/api/auth/me', '/api/nowhere/at/all'),
      as: 'user',
    },
  };
}
