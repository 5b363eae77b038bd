// LIKE / ILIKE matching in linear time, for SQLite (the `basalt_like` SQL function) and for the definitions
// of /rest/v1/tables, which are filtered in memory.
//
// Why not a regular expression: a pattern such as `%a%a%a%a%a%b` compiled to a backtracking RegExp takes
// seconds on one 100-character value, and it runs inside a synchronous SQLite function, so one request would
// freeze the whole server. This matcher never backtracks:
//
// - the pattern is cut at its `%` into segments of literal characters and `_`;
// - the first segment must match at the start, the last one at the end, and each middle segment is found at
//   its leftmost position after the previous one (taking the leftmost match never loses a match, because the
//   `%` between two segments absorbs any gap);
// - a middle segment is searched with the bit-parallel Shift-And algorithm, one pass over the text.
//
// So one value costs O(n × ⌈m / 32⌉) for a text of n characters and a segment of m: linear in the text for any
// pattern a URL can carry. Semantics follow PostgreSQL: `_` is one character (a code point), `\` escapes the
// next character (a trailing `\` is itself), ILIKE lower-cases both sides character by character.

const PERCENT = 0x25;
const UNDERSCORE = 0x5f;
const BACKSLASH = 0x5c;
/** ANY stands for `_` in a segment (code points are never negative). */
const ANY = -1;

interface Segment {
  /** Code points, or ANY. */
  tokens: Int32Array;
  /** For the Shift-And search: per code point, the bit set of positions it may take (ANY positions included). */
  masks: Map<number, Uint32Array>;
  /** The positions of ANY, which every code point may take. */
  anyMask: Uint32Array;
}

/** LikeMatcher tests values against one compiled LIKE pattern. */
export interface LikeMatcher {
  test(value: string): boolean;
}

const foldCache = new Map<number, number[]>();

/** foldCodePoint lower-cases one code point (to one or more), as PostgreSQL's lower() does per character. */
function foldCodePoint(cp: number, out: number[]): void {
  if (cp < 0x80) {
    out.push(cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp);
    return;
  }
  let folded = foldCache.get(cp);
  if (!folded) {
    folded = [...String.fromCodePoint(cp).toLowerCase()].map((c) => c.codePointAt(0) ?? 0);
    if (foldCache.size < 10_000) foldCache.set(cp, folded);
  }
  for (const c of folded) out.push(c);
}

/** codePointsOf lists a text's code points, lower-cased for ILIKE. */
function codePointsOf(text: string, fold: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) ?? 0;
    if (cp > 0xffff) i++;
    if (fold) foldCodePoint(cp, out);
    else out.push(cp);
  }
  return out;
}

function segmentOf(tokens: number[]): Segment {
  const words = Math.max(1, Math.ceil(tokens.length / 32));
  const anyMask = new Uint32Array(words);
  tokens.forEach((t, j) => {
    if (t === ANY) anyMask[j >>> 5] = (anyMask[j >>> 5] as number) | (1 << (j & 31));
  });
  const masks = new Map<number, Uint32Array>();
  tokens.forEach((t, j) => {
    if (t === ANY) return;
    let mask = masks.get(t);
    if (!mask) {
      mask = Uint32Array.from(anyMask);
      masks.set(t, mask);
    }
    mask[j >>> 5] = (mask[j >>> 5] as number) | (1 << (j & 31));
  });
  return { tokens: Int32Array.from(tokens), masks, anyMask };
}

/** matchesAt tells whether a segment matches the text at a position (the caller checks that it fits). */
function matchesAt(segment: Segment, text: number[], at: number): boolean {
  const { tokens } = segment;
  for (let j = 0; j < tokens.length; j++) {
    const t = tokens[j] as number;
    if (t !== ANY && t !== text[at + j]) return false;
  }
  return true;
}

/** findFrom returns the leftmost position p, from ≤ p and p + length ≤ to, where the segment matches, or -1. */
function findFrom(segment: Segment, text: number[], from: number, to: number): number {
  const length = segment.tokens.length;
  const { masks, anyMask } = segment;
  if (anyMask.length === 1) {
    const last = 1 << (length - 1);
    let state = 0;
    for (let i = from; i < to; i++) {
      state = ((state << 1) | 1) & ((masks.get(text[i] as number) ?? anyMask)[0] as number);
      if (state & last) return i - length + 1;
    }
    return -1;
  }
  // Segments longer than 32 characters: the same algorithm over several words.
  const words = anyMask.length;
  const state = new Uint32Array(words);
  const lastWord = (length - 1) >>> 5;
  const lastBit = 1 << ((length - 1) & 31);
  for (let i = from; i < to; i++) {
    const mask = masks.get(text[i] as number) ?? anyMask;
    let carry = 1;
    for (let w = 0; w < words; w++) {
      const word = state[w] as number;
      state[w] = (((word << 1) | carry) & (mask[w] as number)) >>> 0;
      carry = word >>> 31;
    }
    if ((state[lastWord] as number) & lastBit) return i - length + 1;
  }
  return -1;
}

/** compileLike compiles a LIKE pattern (`%`, `_`, `\` escapes); caseInsensitive makes it ILIKE. */
export function compileLike(pattern: string, caseInsensitive: boolean): LikeMatcher {
  const segments: number[][] = [[]];
  let previousPercent = false;
  for (let i = 0; i < pattern.length; i++) {
    let cp = pattern.codePointAt(i) ?? 0;
    if (cp > 0xffff) i++;
    const current = segments[segments.length - 1] as number[];
    if (cp === PERCENT) {
      if (!previousPercent) segments.push([]);
      previousPercent = true;
      continue;
    }
    previousPercent = false;
    if (cp === UNDERSCORE) {
      current.push(ANY);
      continue;
    }
    if (cp === BACKSLASH && i + 1 < pattern.length) {
      cp = pattern.codePointAt(++i) ?? 0;
      if (cp > 0xffff) i++;
    }
    if (caseInsensitive) foldCodePoint(cp, current);
    else current.push(cp);
  }
  const compiled = segments.map(segmentOf);
  const fixedLength = segments.reduce((sum, s) => sum + s.length, 0);
  const first = compiled[0] as Segment;
  const last = compiled[compiled.length - 1] as Segment;
  const middle = compiled.slice(1, -1);

  return {
    test(value) {
      const text = codePointsOf(value, caseInsensitive);
      if (compiled.length === 1) return text.length === fixedLength && matchesAt(first, text, 0);
      if (text.length < fixedLength || !matchesAt(first, text, 0)) return false;
      const end = text.length - last.tokens.length;
      if (!matchesAt(last, text, end)) return false;
      let at = first.tokens.length;
      for (const segment of middle) {
        const found = findFrom(segment, text, at, end);
        if (found === -1) return false;
        at = found + segment.tokens.length;
      }
      return at <= end;
    },
  };
}

const matchers = new Map<string, LikeMatcher>();
const MATCHER_CACHE_SIZE = 500;

/** likeMatches tells whether a value matches a LIKE (or, caseInsensitive, ILIKE) pattern; patterns are cached. */
export function likeMatches(value: string, pattern: string, caseInsensitive: boolean): boolean {
  const key = `${caseInsensitive ? 'i' : 's'}${pattern}`;
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = compileLike(pattern, caseInsensitive);
    if (matchers.size >= MATCHER_CACHE_SIZE) matchers.clear();
    matchers.set(key, matcher);
  }
  return matcher.test(value);
}
