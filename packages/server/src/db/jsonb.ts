// PostgreSQL's jsonb semantics for JS values: what SQLite's emulations (db/dialect/sqlite.ts) compute per row
// so that both engines answer alike, and what the data API needs outside SQL (JSON paths in `select`, values
// in error details). Each function names the PostgreSQL behaviour it follows.

/** JsonPathStep is one `->key` (a JSON value) or `->>key` (text) step; a number is an array index (negative: from the end). */
export interface JsonPathStep {
  arrow: '->' | '->>';
  key: string | number;
}

/** JsonPath is a column's path, `meta->size->>w`: PostgREST's `->`/`->>` chain. */
export type JsonPath = readonly JsonPathStep[];

/**
 * JSON_PATH_LIMITS bound a path from a client: no stored value nests deeper than column-types' JSON depth (100),
 * and an array index is PostgreSQL's `integer` (`-> 3000000000` fails there).
 */
export const JSON_PATH_LIMITS = { maxSteps: 100, maxIndex: 2_147_483_647 } as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isContainer = (v: unknown) => typeof v === 'object' && v !== null;

/** jsonEqual compares two JSON values as jsonb `=` does: object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

/**
 * jsonContains is jsonb `a @> b`: an object contains the keys of b with contained values; an array contains
 * each element of b (scalars by equality, containers by containment); a top-level array contains a scalar
 * it holds; scalars contain equal scalars.
 */
export function jsonContains(a: unknown, b: unknown, topLevel = true): boolean {
  if (Array.isArray(a)) {
    if (Array.isArray(b)) {
      return b.every((e) =>
        isContainer(e)
          ? a.some((x) => isContainer(x) && Array.isArray(x) === Array.isArray(e) && jsonContains(x, e, false))
          : a.some((x) => !isContainer(x) && x === e),
      );
    }
    return topLevel && !isContainer(b) && a.some((x) => !isContainer(x) && x === b);
  }
  if (isObject(a)) return isObject(b) && Object.keys(b).every((k) => k in a && jsonContains(a[k], b[k], false));
  return !isContainer(b) && a === b;
}

/** jsonOverlaps tells whether two JSON arrays share an element (PostgreSQL's `&&` for arrays). */
export function jsonOverlaps(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) && a.some((x) => b.some((y) => jsonEqual(x, y)));
}

function step(value: unknown, key: string | number): unknown {
  if (Array.isArray(value)) {
    // jsonb `-> int` on an array; a text key finds nothing there, as `-> 'text'` does.
    if (typeof key !== 'number') return undefined;
    return value[key < 0 ? value.length + key : key];
  }
  if (isObject(value) && typeof key === 'string') return Object.hasOwn(value, key) ? value[key] : undefined;
  return undefined;
}

/**
 * jsonPathValue follows a path as PostgreSQL's `->`/`->>` do: undefined is SQL NULL (a missing key or index,
 * or a JSON null read as text); after a final `->` the JSON value (JSON null included), after `->>` its text.
 */
export function jsonPathValue(value: unknown, path: JsonPath): unknown {
  let current = value;
  for (const [i, s] of path.entries()) {
    current = step(current, s.key);
    if (current === undefined) return undefined;
    if (s.arrow === '->>') {
      // `->>` yields text, which has no keys: the records service refuses a step after it.
      if (i < path.length - 1 || current === null) return undefined;
      return typeof current === 'string' ? current : jsonbText(current);
    }
  }
  return current;
}

// jsonb stores object keys shorter first, then by their bytes (UTF-8), and prints them in that order.
function compareKeys(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length - y.length || Buffer.compare(x, y);
}

/** numericText is PostgreSQL's numeric output of a JSON number's text: plain digits, never an exponent. */
export function numericText(n: number): string {
  const text = JSON.stringify(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** jsonbText is PostgreSQL's text output of a jsonb value: `{"a": 1, "bb": [1, 2]}`, keys in jsonb order. */
export function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return numericText(value);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort(compareKeys);
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText(value[k])}`).join(', ')}}`;
}

// A double as 16 hex digits that sort as the numbers do: flip the sign bit of positives, every bit of negatives.
function sortableNumber(n: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n === 0 ? 0 : n);
  const bits = view.getBigUint64(0);
  const sign = 1n << 63n;
  return ((bits & sign) === 0n ? bits | sign : ~bits & 0xffff_ffff_ffff_ffffn).toString(16).padStart(16, '0');
}

/**
 * jsonbSortKey is text whose byte order is jsonb's order (`Object > Array > Boolean > Number > String > Null`,
 * a top-level `[]` below null; strings by bytes, as the C collation; numbers by value). Arrays and objects
 * sort by size and then by their text, which only approximates jsonb's element-by-element order.
 */
export function jsonbSortKey(value: unknown): string {
  if (value === null) return '1';
  if (typeof value === 'string') return `2${value}`;
  if (typeof value === 'number') return `3${sortableNumber(value)}`;
  if (typeof value === 'boolean') return value ? '41' : '40';
  if (Array.isArray(value)) {
    return value.length === 0 ? '0' : `5${value.length.toString(16).padStart(8, '0')}${jsonbText(value)}`;
  }
  const size = isObject(value) ? Object.keys(value).length : 0;
  return `6${size.toString(16).padStart(8, '0')}${jsonbText(value)}`;
}
