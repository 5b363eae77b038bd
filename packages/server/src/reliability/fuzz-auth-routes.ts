import fc from 'fast-check';
import { bodyOf, hostileValue, idSegment, objectOf } from './fuzz-inputs.js';
import { queryString } from './fuzz-queries.js';
import { email, type KnownIds, password, type RouteHint } from './fuzz-routes.js';

// What the fuzz test knows of /auth/v1 (GoTrue's API) and the console's account routes beyond the route table:
// the bodies and queries their validation reads, and who usually calls them (an /auth/v1 route's caller step
// admits anyone: the apikey decides, so the table alone cannot say).

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

const otp: RouteHint = {
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
};

const invite: RouteHint = {
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
};

const factorId = fc.oneof(
  fc.uuid(),
  idSegment(() => []),
);
const factor: RouteHint = {
  params: { id: factorId },
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
};

const identities: RouteHint = {
  params: { id: factorId },
  query: fc.oneof(
    fc.constantFrom('?provider=github', '?provider=custom:x&skip_http_redirect=true'),
    queryString(['provider']),
  ),
  as: 'other-user',
};

const oauth: RouteHint = {
  query: fc.oneof(
    fc.constantFrom('?provider=github', '?state=not-a-uuid&code=x', '?error=access_denied', '?provider=x&ref=nope'),
    fc.uuid().map((id) => `?state=${id}&code=x`),
    queryString(['provider', 'state', 'code', 'redirect_to', 'apikey']),
  ),
  as: 'anon-key',
};

const consoleAuth: RouteHint = {
  body: bodyOf(objectOf({ username: fc.string({ maxLength: 30 }), email, password })),
  as: 'none',
};

/** authHints are the hints of /auth/v1 and of the console's account routes, by URL pattern. */
export function authHints(known: KnownIds): Record<string, RouteHint> {
  const adminUserId = { id: fc.oneof(idSegment(known.users), fc.uuid()) };
  return {
    '/auth/v1/signup': {
      body: bodyOf(objectOf({ email, password, data: hostileValue, gotrue_meta_security: hostileValue })),
      as: 'anon-key',
    },
    '/auth/v1/token': {
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
    '/auth/v1/user': {
      body: bodyOf(
        objectOf({ email, password, data: hostileValue, app_metadata: hostileValue, current_password: password }),
      ),
      as: 'other-user',
    },
    '/auth/v1/logout': {
      query: fc.constantFrom('', '?scope=global', '?scope=local', '?scope=others', '?scope=everyone', '?scope='),
      as: 'other-user',
    },
    '/auth/v1/reauthenticate': { as: 'other-user' },
    '/auth/v1/recover': { body: bodyOf(objectOf({ email })), as: 'anon-key' },
    '/auth/v1/verify': {
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
    '/auth/v1/otp': otp,
    '/auth/v1/resend': otp,
    '/auth/v1/invite': invite,
    '/auth/v1/admin/generate_link': invite,
    '/auth/v1/factors': factor,
    '/auth/v1/factors/:id': factor,
    '/auth/v1/factors/:id/challenge': factor,
    '/auth/v1/factors/:id/verify': factor,
    '/auth/v1/user/identities/authorize': identities,
    '/auth/v1/user/identities/:id': identities,
    '/auth/v1/authorize': oauth,
    '/auth/v1/callback': oauth,
    '/auth/v1/admin/users': {
      query: fc.oneof(fc.constantFrom('?page=1&per_page=50', '?page=-1', '?per_page=99999999999'), queryString([])),
      body: bodyOf(userAttrs),
      as: 'service-key',
    },
    '/auth/v1/admin/users/:id': {
      params: adminUserId,
      body: bodyOf(fc.oneof(userAttrs, objectOf({ should_soft_delete: fc.boolean() }))),
      as: 'service-key',
    },
    '/auth/v1/admin/users/:id/factors': { params: adminUserId, as: 'service-key' },
    '/auth/v1/admin/users/:id/factors/:factorId': { params: { ...adminUserId, factorId }, as: 'service-key' },
    '/api/user/profile': {
      body: bodyOf(objectOf({ username: fc.string({ maxLength: 30 }), email, marketingEmails: fc.boolean() })),
    },
    '/api/user/change-password': { body: bodyOf(objectOf({ currentPassword: password, newPassword: password })) },
    'DELETE /api/user': { body: bodyOf(objectOf({ confirm: fc.constantFrom('fuzz', 'someone', '') })) },
    '/api/auth/register': consoleAuth,
    '/api/auth/login': consoleAuth,
    '/api/auth/logout': consoleAuth,
  };
}
