import fc from 'fast-check';
import { bodyOf, type Credentials, type GeneratedBody, hostileValue, idSegment, objectOf } from './fuzz-inputs.js';
import { queryString } from './fuzz-queries.js';

// The routes the API fuzz test sends to, family by family, as app.ts registers them (each feature's
// *.routes.ts): their own verbs, the ids in their paths, the fields their bodies read and who usually calls
// them. Any route may also be sent another verb, other credentials and hostile bodies (api-fuzz.test.ts).

/** KnownIds are the ids of the fuzzed account's things, read when a request is generated. */
export interface KnownIds {
  tables: () => string[];
  keys: () => string[];
  changes: () => string[];
  checkpoints: () => string[];
  /** Only the second user: the first one's account must survive the admin routes. */
  users: () => string[];
}

/** RouteSpec is one route: verbs, a path (ids filled in), a query string, a body and the usual caller. */
export interface RouteSpec {
  methods: string[];
  path: fc.Arbitrary<string>;
  query?: fc.Arbitrary<string>;
  body?: fc.Arbitrary<GeneratedBody>;
  as: Credentials;
  /** How often the route is picked against the others of its family (default 1). */
  weight?: number;
}

/** ITEMS is the fuzzed account's table: a column of every type, the title unique. */
export const ITEMS = {
  name: 'items',
  schema: {
    title: { type: 'text', unique: true },
    qty: { type: 'number' },
    done: { type: 'boolean' },
    due: { type: 'date' },
    meta: { type: 'json' },
    tags: { type: 'array' },
  },
} as const;

const COLUMNS = ['id', ...Object.keys(ITEMS.schema), 'created_at', 'updated_at'];

const email = fc.oneof(fc.constantFrom('fuzz@example.com', 'FUZZ@EXAMPLE.COM', 'a@b', '@', 'a@b.c'), fc.emailAddress());
const password = fc.constantFrom('Fuzz-Passw0rd!', 'short', '', 'x'.repeat(200));
const name = fc.constantFrom('fuzz_one', 'fuzz_two', 'items', 'Items', 'tables', 'ab', 'a'.repeat(64), '1abc', 'a-b');
const columnName = fc.constantFrom('title', 'qty', 'x', 'id', 'ID', 'ctid', 'rowid', '', '1x', 'a b', 'created_at');
const column = objectOf({
  type: fc.constantFrom('text', 'number', 'boolean', 'date', 'json', 'array', 'money'),
  required: fc.boolean(),
  unique: fc.boolean(),
});
const schema = fc.dictionary(columnName, fc.oneof(column, hostileValue), { maxKeys: 4 });
const tableBody = objectOf({ name, description: fc.string({ maxLength: 20 }), schema });
const schemaChange = objectOf({
  name,
  description: fc.string(),
  schema,
  renames: fc.dictionary(columnName, columnName),
});

const fields = {
  title: fc.string({ maxLength: 20 }),
  qty: fc.oneof(fc.integer(), fc.double()),
  done: fc.boolean(),
  due: fc.constantFrom('2025-01-01', '2025-01-01T10:00:00Z', '2025-01-01T10:00:00.123+05:30'),
  meta: fc.jsonValue({ maxDepth: 2 }),
  tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
};
// Mostly rows a table takes (so that writes happen and what follows them runs), sometimes with an id, a
// server column, an unknown column or a value of the wrong kind.
const record = fc.oneof(
  { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 2 },
  {
    arbitrary: objectOf({
      ...fields,
      due: fc.constantFrom('yesterday', '2025-02-30', '2025-01-01T25:00:00Z'),
      id: fc.integer({ min: -2, max: 60 }),
      created_at: fc.constant('2000-01-01T00:00:00Z'),
      unknown: fc.string(),
    }),
    weight: 1,
  },
);
// Rows of a bulk insert need the same keys (or `columns=`): mostly they have them.
const records = fc.oneof(
  record,
  fc.array(fc.record(fields), { minLength: 1, maxLength: 4 }),
  fc.array(record, { maxLength: 4 }),
);

const segment = fc.constantFrom('%00', '%2e%2e', '%ZZ', '%F0%9F%94%A5', 'x'.repeat(300), 'a%20b', 'ITEMS', 'rpc');

const literal = (path: string) => fc.constant(path);
const withId = (prefix: string, ids: () => string[], suffix = '') =>
  idSegment(ids).map((id) => `${prefix}/${id}${suffix}`);

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

/** restRoutes are /rest/v1 (PostgREST's API): the account's table, its definitions, rpc and unknown names. */
export function restRoutes(): Record<string, RouteSpec> {
  const query = queryString(COLUMNS);
  return {
    table: {
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      path: literal(`/rest/v1/${ITEMS.name}`),
      query,
      body: bodyOf(records),
      as: 'user',
      weight: 4,
    },
    definitions: {
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      path: literal('/rest/v1/tables'),
      query: queryString(['id', 'name', 'description', 'schema', 'createdAt', 'updatedAt']),
      body: bodyOf(fc.oneof(tableBody, fc.array(tableBody, { maxLength: 2 }))),
      as: 'user',
    },
    other: {
      methods: ['GET', 'POST', 'PUT'],
      path: fc.oneof(
        segment.map((s) => `/rest/v1/${s}`),
        fc.constantFrom('/rest/v1/rpc/fn', '/rest/v1/rpc/', '/rest/v1/', '/rest/v1', '/rest/v1/items/1'),
      ),
      query,
      body: bodyOf(records),
      as: 'user',
    },
  };
}

/** consoleRoutes are the console's /api routes, a signed-in user being the usual caller. */
export function consoleRoutes(known: KnownIds): Record<string, RouteSpec> {
  const pageQuery = fc.oneof(
    fc.constantFrom('?page=1&limit=10', '?page=0', '?limit=100000', '?tableId=abc', '?page=1e3'),
    queryString(['page', 'limit', 'tableId', 'level', 'search', 'from', 'to', 'source']),
  );
  return {
    tables: {
      methods: ['GET', 'POST'],
      path: literal('/api/tables'),
      body: bodyOf(tableBody),
      as: 'user',
    },
    table: {
      methods: ['GET', 'PATCH', 'DELETE'],
      path: withId('/api/tables', known.tables),
      body: bodyOf(schemaChange),
      as: 'user',
    },
    schema: {
      methods: ['PUT', 'POST'],
      path: fc.oneof(
        withId('/api/tables', known.tables, '/schema'),
        withId('/api/tables', known.tables, '/schema/preview'),
      ),
      body: bodyOf(schemaChange),
      as: 'user',
    },
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
    checkpoints: {
      methods: ['GET', 'POST'],
      path: literal('/api/checkpoints'),
      query: pageQuery,
      body: bodyOf(objectOf({ tableId: idSegment(known.tables), name: fc.string(), description: fc.string() })),
      as: 'user',
    },
    checkpointRestore: {
      methods: ['POST'],
      path: withId('/api/checkpoints', known.checkpoints, '/restore'),
      as: 'user',
    },
    history: {
      methods: ['GET'],
      path: literal('/api/history'),
      query: pageQuery,
      as: 'user',
    },
    historyAction: {
      methods: ['POST'],
      path: fc.oneof(
        withId('/api/history', known.changes, '/revert'),
        withId('/api/history', known.changes, '/restore'),
      ),
      as: 'user',
    },
    keys: {
      methods: ['GET', 'POST'],
      path: literal('/api/keys'),
      body: bodyOf(objectOf({ name: fc.string({ maxLength: 120 }) })),
      as: 'user',
    },
    key: { methods: ['DELETE'], path: withId('/api/keys', known.keys), as: 'user' },
    reads: {
      methods: ['GET'],
      path: fc.constantFrom(
        '/api/config',
        '/api/stats',
        '/api/activity',
        '/api/openapi.json',
        '/api/logs',
        '/api/health',
        '/api/health/database',
        '/api/csrf-token',
        '/api/auth/me',
        '/api/nowhere/at/all',
      ),
      query: pageQuery,
      as: 'user',
    },
    databaseCheck: { methods: ['POST'], path: literal('/api/health/database/check'), as: 'user' },
    consoleAuth: {
      methods: ['POST'],
      path: fc.constantFrom('/api/auth/register', '/api/auth/login', '/api/auth/logout'),
      body: bodyOf(objectOf({ username: fc.string({ maxLength: 30 }), email, password })),
      as: 'none',
    },
  };
}

/** publicRoutes are the public record API, under /api/table and the short /api/<name>, with an API key. */
export function publicRoutes(known: KnownIds): Record<string, RouteSpec> {
  const tableName = fc.oneof(
    { arbitrary: fc.constant(ITEMS.name), weight: 4 },
    { arbitrary: fc.oneof(segment, fc.constantFrom('tables', 'keys', 'nope')), weight: 1 },
  );
  const listQuery = fc.oneof(
    fc.constantFrom('?limit=1001', '?limit=-1', '?offset=-5', '?orderBy=nope', '?order=sideways', '?limit=1e2'),
    queryString([...COLUMNS, 'limit', 'offset', 'orderBy', 'order']),
  );
  const recordId = fc.oneof(idSegment(known.tables), fc.integer({ min: 1, max: 30 }).map(String));
  return {
    collection: {
      methods: ['GET', 'POST'],
      path: fc.tuple(fc.constantFrom('/api/table', '/api'), tableName).map(([prefix, t]) => `${prefix}/${t}`),
      query: listQuery,
      body: bodyOf(records),
      as: 'api-key',
      weight: 2,
    },
    one: {
      methods: ['GET', 'PUT', 'PATCH', 'DELETE'],
      path: fc
        .tuple(fc.constantFrom('/api/table', '/api'), tableName, recordId)
        .map(([prefix, t, id]) => `${prefix}/${t}/${id}`),
      body: bodyOf(record),
      as: 'api-key',
    },
  };
}
