import fc from 'fast-check';

// Generated hostile input for the API fuzz test (api-fuzz.test.ts): values of the wrong JSON type, huge
// strings, deep nesting, NUL characters and lone surrogates, unknown ids, extreme numbers, bodies that are not
// JSON, odd headers and garbage credentials (query strings: fuzz-queries.ts). Values too large to print
// travel as short tokens (`<<huge>>`, `deep-array`…) that materialize() expands just before sending, so that a
// failing case reads in a line.

const HUGE = '<<huge>>';
const HUGE_TEXT = 'x'.repeat(100_000);

/** materializeJson writes a generated JSON value, expanding the huge-string token. */
export function materializeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (v === HUGE ? HUGE_TEXT : v)) ?? 'null';
}

/** RAW_BODIES are bodies that are not what a JSON parser or the routes expect, by name. */
const RAW_BODIES: Record<string, () => string> = {
  empty: () => '',
  'open-brace': () => '{',
  'cut-off-object': () => '{"name": "a", "schema": {"x": {"type": ',
  'trailing-comma': () => '{"a": 1,}',
  'single-quotes': () => "{'a': 1}",
  'bare-word': () => 'undefined',
  nul: () => '{"a": "\u0000"}',
  'raw-nul': () => '\u0000\u0000',
  'deep-array': () => `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  'deep-object': () => `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  'huge-string': () => JSON.stringify({ name: HUGE_TEXT, email: HUGE_TEXT, title: HUGE_TEXT }),
  'over-the-body-limit': () => JSON.stringify({ a: 'x'.repeat(1_100_000) }),
  'many-keys': () => JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))),
  'long-array': () => JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ title: `t${i}` }))),
  'proto-keys': () => '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}',
  'lone-surrogate': () => '{"a": "\\ud800", "\\udfff": 1}',
  'bad-escape': () => '{"a": "\\x41"}',
  'big-number': () => '{"a": 1e400, "b": -1e400, "c": 123456789012345678901234567890}',
  'utf8-bom': () => '\ufeff{"a": 1}',
};

/** materializeBody turns a generated body into what is sent. */
export function materializeBody(body: GeneratedBody): string | undefined {
  if (body.kind === 'none') return undefined;
  if (body.kind === 'raw') return RAW_BODIES[body.name]?.() ?? '';
  return materializeJson(body.value);
}

/** GeneratedBody is a request body: none, JSON of a generated value, or a named raw text. */
export type GeneratedBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; name: string };

// Past Number.MAX_SAFE_INTEGER: an id or number that no longer counts in ones.
const BEYOND_SAFE = 2 ** 53 + 2;

/** hostileScalar is one value that a field may hold but should not. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    -0.5,
    1e308,
    -1e308,
    BEYOND_SAFE,
    '',
    ' ',
    'a\u0000b',
    '\u0000',
    '\ud800',
    '🔥ß漢字',
    '%00',
    "' OR 1=1 --",
    '"; DROP TABLE accounts; --',
    HUGE,
    '1e309',
    'NaN',
    'Infinity',
    '-1',
    '0',
    '999999999999999999999',
    '2025-13-45T99:99:99Z',
    '00000000-0000-0000-0000-000000000000',
    'ctid',
    'rowid',
    '__proto__',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
);

/** hostileValue is a scalar, or an array or object of them, a few levels deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small', withCrossShrink: true },
  hostileScalar,
  fc.array(hostileScalar, { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('a', 'type', 'id', '', '__proto__', 'x y', '\u0000'), hostileScalar, {
    maxKeys: 3,
  }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** objectOf is a body with the fields a route reads, each one valid-looking or hostile, some left out. */
export function objectOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.fromEntries(
    Object.entries(fields).map(([name, valid]) => [
      name,
      fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: hostileValue, weight: 1 }),
    ]),
  );
  return fc.record(entries, { requiredKeys: [] });
}

/** bodyOf is a JSON body built by `json`, or any hostile JSON value, or a named raw text, or none. */
export function bodyOf(json: fc.Arbitrary<unknown>): fc.Arbitrary<GeneratedBody> {
  return fc.oneof(
    { arbitrary: json.map((value): GeneratedBody => ({ kind: 'json', value })), weight: 5 },
    { arbitrary: hostileValue.map((value): GeneratedBody => ({ kind: 'json', value })), weight: 2 },
    {
      arbitrary: fc.constantFrom(...Object.keys(RAW_BODIES)).map((name): GeneratedBody => ({ kind: 'raw', name })),
      weight: 2,
    },
    { arbitrary: fc.constant<GeneratedBody>({ kind: 'none' }), weight: 1 },
  );
}

/** idSegment is a path segment where an id goes: unknown, malformed or hostile (or one of `known`). */
export function idSegment(known: () => string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '1e3',
      '999999999',
      '9'.repeat(40),
      'abc',
      '%00',
      '%27%20OR%201%3D1',
      '%2e%2e',
      '%ZZ',
      '%F0%9F%94%A5',
      'x'.repeat(300),
      '00000000-0000-0000-0000-000000000000',
      'null',
      'undefined',
    ),
    fc.integer({ min: -5, max: 50 }).map(String),
    fc.nat().chain(() => fc.constantFrom(...(known().length > 0 ? known() : ['1']))),
  );
}

/** ANY_METHOD are the verbs a fuzzed request may use on any route. */
export const ANY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Credentials names who a request claims to be; the test maps each name to headers. */
export type Credentials =
  | 'user'
  | 'other-user'
  | 'api-key'
  | 'anon-key'
  | 'service-key'
  | 'none'
  | 'garbage-bearer'
  | 'malformed-jwt'
  | 'forged-jwt'
  | 'unknown-api-key'
  | 'garbage-apikey'
  | 'garbage-cookie';

/** credentials prefers `usual` and sometimes picks any other. */
export function credentials(usual: Credentials): fc.Arbitrary<Credentials> {
  return fc.oneof(
    { arbitrary: fc.constant(usual), weight: 8 },
    {
      arbitrary: fc.constantFrom<Credentials>(
        'user',
        'other-user',
        'api-key',
        'anon-key',
        'service-key',
        'none',
        'garbage-bearer',
        'malformed-jwt',
        'forged-jwt',
        'unknown-api-key',
        'garbage-apikey',
        'garbage-cookie',
      ),
      weight: 2,
    },
  );
}

const anyHeaders = fc.record(
  {
    prefer: fc.constantFrom(
      'return=representation',
      'return=minimal',
      'return=headers-only',
      'count=exact',
      'resolution=merge-duplicates',
      'resolution=ignore-duplicates',
      'resolution=merge-duplicates, return=representation, count=exact',
      'missing=default',
      'tx=rollback',
      'handling=strict, max-affected=-1',
      'return=representation,,,=,',
      '\u00ff\u00fe',
    ),
    accept: fc.constantFrom(
      'application/vnd.pgrst.object+json',
      'text/csv',
      'application/xml',
      '*/*',
      'application/json;q=0',
      ';;;',
    ),
    'accept-profile': fc.constantFrom('public', 'other', ''),
    'content-profile': fc.constantFrom('public', 'other'),
    range: fc.constantFrom('0-9', '10-', '-5', '5-1', '99999999999999999999-', 'garbage'),
    'content-type': fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/jsonx',
    ),
    'x-csrf-token': fc.constantFrom('garbage', ''),
  },
  { requiredKeys: [] },
);

/**
 * extraHeaders are headers a client may add, valid or not: Prefer, Accept, profiles, Range, Content-Type. Most
 * requests carry none or only a Prefer, so that the body and query behind them are reached too.
 */
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 3 },
  { arbitrary: fc.record({ prefer: anyHeaders.map((h) => h.prefer ?? 'return=representation') }), weight: 3 },
  { arbitrary: anyHeaders, weight: 2 },
);
