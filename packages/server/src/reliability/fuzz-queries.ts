import fc from 'fast-check';
import { hostileScalar } from './fuzz-inputs.js';

// Generated query strings for the API fuzz test: PostgREST filters with the right operator and any value,
// logic trees, malformed filters, reserved parameters with odd values, broken percent-escapes and separators,
// and many plain or empty queries so that what stands behind the query is reached too.

/**
 * encodeLoose percent-encodes like encodeURIComponent, but writes a lone surrogate (which has no UTF-8 form)
 * as the bytes a careless encoder would produce, so that such text still reaches the server.
 */
export function encodeLoose(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    out += ch.length === 1 && code >= 0xd800 && code <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(ch);
  }
  return out;
}

const FILTER_VALUES = [
  'eq.1',
  'eq.',
  'eq.a%00b',
  'neq.null',
  'gt.abc',
  'gte.1e400',
  'lt.-99999999999999999999',
  'in.(1,2',
  'in.()',
  'in.("a,b",c)',
  'in.(1);DROP TABLE accounts',
  'is.maybe',
  'is.null',
  'is.true',
  'like.*%25',
  'ilike.%00',
  'cs.{"a":',
  'cs.{a,b}',
  'cd.[1,2]',
  'ov.{',
  'match.(',
  'imatch.[[:alpha:',
  'match.(a+)+$',
  'not.eq.1',
  'not.',
  'not.not.eq.1',
  '.eq.1',
  'eq(any).{1,2}',
  'like(all).{a*,b*}',
  'gt(any).{',
  'fts.x',
  'wfts(english).a+b',
  'isdistinct.null',
  'sl.(1,2)',
  'eq',
  '',
];

const RESERVED_VALUES = [
  '*',
  'id,title',
  'id,(SELECT 1)',
  'label:title',
  'qty::text',
  'qty::nonsense',
  'meta->>a',
  'meta->a->b->>c',
  'author(*)',
  'count()',
  '"',
  '"a""b"',
  ',',
  'id.desc.nullsfirst',
  'id.sideways',
  'meta->>a.desc',
  '-1',
  '1.5',
  '99999999999999999999',
  '(qty.gt.5,and(done.is.true,qty.lt.2))',
  '(qty.gt.5',
  '((((((((((((((((((((((((((((((((qty.eq.1))))))))))))))))))))))))))))))))',
  'title,qty,unknown',
  '"title","qty"',
];

const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'is',
  'in',
  'cs',
  'cd',
  'ov',
  'match',
  'imatch',
];

// A filter whose operator is right and whose value is anything: the values reach the type conversions.
const filterValue = fc
  .tuple(
    fc.constantFrom('', 'not.'),
    fc.constantFrom(...OPERATORS, 'eq(any)', 'like(all)', 'isdistinct'),
    fc.oneof(
      fc.constantFrom('1', '-0', '1e308', '1e-400', 'true', 'null', '{}', '[]', '{1,2}', '(1,2)', '"a"', '\\', '*'),
      fc.string({ unit: 'binary', maxLength: 20 }),
      hostileScalar.map((v) => (typeof v === 'string' ? v.slice(0, 1000) : (JSON.stringify(v) ?? ''))),
    ),
  )
  .map(([not, op, value]) => encodeLoose(`${not}${op}.${value}`));

// A logic tree of such filters, a few levels deep, for or= and and=.
function logicTree(columns: string[]): fc.Arbitrary<string> {
  const leaf = fc
    .tuple(
      fc.constantFrom(...columns, 'meta->>a', 'meta->0', 'nope'),
      fc.constantFrom(...OPERATORS),
      fc.string({ maxLength: 8 }),
    )
    .map(([column, op, value]) => `${column}.${op}.${value}`);
  const { tree } = fc.letrec<{ tree: string }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc
        .tuple(fc.constantFrom('and', 'or', 'not.and', 'not.or'), fc.array(tie('tree'), { minLength: 1, maxLength: 3 }))
        .map(([op, items]) => `${op}(${items.join(',')})`),
    ),
  }));
  return fc.array(tree, { minLength: 1, maxLength: 3 }).map((items) => encodeLoose(`(${items.join(',')})`));
}

/** queryString is a raw query string: PostgREST-style pairs, malformed escapes and separators. */
export function queryString(columns: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.constantFrom(
      'select',
      'order',
      'limit',
      'offset',
      'on_conflict',
      'columns',
      'or',
      'and',
      'not.or',
      'not.and',
      'apikey',
      'page',
      'tableId',
      'orderBy',
      'order',
      'grant_type',
      'scope',
      'redirect_to',
      'type',
      'token',
      'per_page',
      'level',
      'search',
      'unknown',
      '"quoted"',
      'meta->>a',
      'meta->',
      '',
      '%',
      '%zz',
      'a%00',
    ),
    fc.constantFrom('id', ...columns),
  );
  const value = fc.oneof(
    fc.constantFrom(...FILTER_VALUES, ...RESERVED_VALUES),
    fc.string({ unit: 'binary', maxLength: 30 }).map(encodeLoose),
    fc.string({ maxLength: 30 }),
    fc.integer().map(String),
  );
  const pair = fc.oneof(
    fc.tuple(fc.constantFrom('id', ...columns), filterValue).map(([k, v]) => `${k}=${v}`),
    fc.tuple(fc.constantFrom('or', 'and', 'not.or'), logicTree(['id', ...columns])).map(([k, v]) => `${k}=${v}`),
    fc.tuple(key, value).map(([k, v]) => `${k}=${v}`),
    fc.tuple(key, value).map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`),
    fc.constantFrom('=', '&', '==', 'a=b=c', '%', '%%', '%2', '+', '?', '#', 'x'.repeat(5_000)),
  );
  // Many requests get a plain filter or none, so that the request goes on to the write or read behind it.
  const plain = fc
    .tuple(
      fc.constantFrom('id', ...columns),
      fc.constantFrom('eq', 'neq', 'gt', 'lt', 'is', 'in', 'like'),
      fc.string({ maxLength: 6 }),
    )
    .map(
      ([column, op, v]) =>
        `${column}=${op}.${op === 'is' ? 'null' : op === 'in' ? `(${encodeLoose(v)})` : encodeLoose(v)}`,
    );
  return fc.oneof(
    { arbitrary: fc.constant(''), weight: 1 },
    { arbitrary: plain.map((p) => `?${p}`), weight: 1 },
    {
      arbitrary: fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`)),
      weight: 2,
    },
  );
}
