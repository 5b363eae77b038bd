import { lexemeOf, tokenGroups } from './ts-document.js';

// The four query builders of PostgreSQL's text search, as PostgREST's operators call them: `fts` is to_tsquery
// (the query language: & | ! <-> <N>, parentheses, 'quoted' operands, `:*` prefixes and `:ABCD` weights), `plfts`
// plainto_tsquery (every word), `phfts` phraseto_tsquery (the words in order), `wfts` websearch_to_tsquery
// (quoted phrases, `or`, `-word`; never a syntax error). Stop words are dropped as PostgreSQL drops them: a
// phrase keeps their distance (`fat the rats` is 'fat' <2> 'rat'), a query of stop words only matches nothing.

/** TsQuery is a query tree; null (an empty query) matches no document. */
export type TsQuery =
  | { kind: 'lexeme'; lexeme: string; prefix: boolean; weights: string }
  | { kind: 'not'; arg: TsQuery }
  | { kind: 'and' | 'or'; left: TsQuery; right: TsQuery }
  | { kind: 'phrase'; distance: number; left: TsQuery; right: TsQuery };

/** SearchOperator is a PostgREST full-text operator. */
export type SearchOperator = 'fts' | 'plfts' | 'phfts' | 'wfts';

/** TsQuerySyntaxError is PostgreSQL's 42601 for a to_tsquery text it cannot read. */
export class TsQuerySyntaxError extends Error {}

// Before stop words are dropped a tree may hold them: `stop` takes a phrase position and no lexeme.
type Raw =
  | { kind: 'stop' }
  | { kind: 'lexeme'; lexeme: string; prefix: boolean; weights: string }
  | { kind: 'not'; arg: Raw }
  | { kind: 'and' | 'or'; left: Raw; right: Raw }
  | { kind: 'phrase'; distance: number; left: Raw; right: Raw };

const STOP: Raw = { kind: 'stop' };
const MAX_DISTANCE = 16384;

function joined(kind: 'and' | 'phrase', items: Raw[]): Raw {
  return items.reduce((left, right) =>
    kind === 'and' ? { kind, left, right } : { kind: 'phrase', distance: 1, left, right },
  );
}

/** wordsQuery is an operand's text as lexemes: a phrase of its tokens (a hyphenated word: whole, then parts). */
function wordsQuery(text: string, config: string, prefix = false, weights = ''): Raw {
  return tokensQuery(tokenGroups(text).flat(), config, prefix, weights);
}

function tokensQuery(tokens: string[], config: string, prefix = false, weights = ''): Raw {
  if (tokens.length === 0) return STOP;
  return joined(
    'phrase',
    tokens.map((token): Raw => {
      const lexeme = lexemeOf(token, config);
      return lexeme === null ? STOP : { kind: 'lexeme', lexeme, prefix, weights };
    }),
  );
}

interface Cleaned {
  query: TsQuery | null;
  /** Positions taken by dropped stop words at the left and right edges (all of them when query is null). */
  left: number;
  right: number;
}

// PostgreSQL's clean_stopwords_intree: a dropped side of & and | leaves the other, of ! leaves nothing, of a phrase
// lengthens the distance to what is left.
function clean(raw: Raw): Cleaned {
  switch (raw.kind) {
    case 'stop':
      return { query: null, left: 0, right: 0 };
    case 'lexeme':
      return { query: raw, left: 0, right: 0 };
    case 'not': {
      const arg = clean(raw.arg).query;
      return { query: arg && { kind: 'not', arg }, left: 0, right: 0 };
    }
    case 'and':
    case 'or': {
      const l = clean(raw.left).query;
      const r = clean(raw.right).query;
      return { query: l && r ? { kind: raw.kind, left: l, right: r } : (l ?? r), left: 0, right: 0 };
    }
    case 'phrase': {
      const l = clean(raw.left);
      const r = clean(raw.right);
      if (l.query === null && r.query === null) {
        const all = l.left + raw.distance + r.right;
        return { query: null, left: all, right: all };
      }
      if (l.query === null) return { query: r.query, left: l.left + raw.distance + r.left, right: r.right };
      if (r.query === null) return { query: l.query, left: l.left, right: l.right + raw.distance + r.right };
      const distance = Math.min(l.right + raw.distance + r.left, MAX_DISTANCE);
      return { query: { kind: 'phrase', distance, left: l.query, right: r.query }, left: l.left, right: r.right };
    }
  }
}

// ---- to_tsquery

class Reader {
  pos = 0;
  constructor(readonly text: string) {}
  skip(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] ?? '')) this.pos++;
  }
  fail(): never {
    throw new TsQuerySyntaxError(`syntax error in tsquery: "${this.text}"`);
  }
}

const OPERAND_END = /[\s&|!()<>:']/;

function operand(r: Reader, config: string): Raw {
  r.skip();
  let text = '';
  if (r.text[r.pos] === "'") {
    r.pos++;
    for (;;) {
      if (r.pos >= r.text.length) r.fail();
      const ch = r.text[r.pos++] ?? '';
      if (ch === '\\' && r.pos < r.text.length) text += r.text[r.pos++];
      else if (ch === "'") break;
      else text += ch;
    }
  } else {
    const start = r.pos;
    while (r.pos < r.text.length && !OPERAND_END.test(r.text[r.pos] ?? '')) r.pos++;
    text = r.text.slice(start, r.pos);
    if (text === '') r.fail();
  }
  let prefix = false;
  let weights = '';
  if (r.text[r.pos] === ':') {
    r.pos++;
    while (r.pos < r.text.length && /[*a-dA-D]/.test(r.text[r.pos] ?? '')) {
      const ch = r.text[r.pos++] ?? '';
      if (ch === '*') prefix = true;
      else weights += ch.toUpperCase();
    }
  }
  return wordsQuery(text, config, prefix, weights);
}

function unary(r: Reader, config: string, depth: number): Raw {
  if (depth > 64) r.fail();
  r.skip();
  const ch = r.text[r.pos];
  if (ch === '!') {
    r.pos++;
    return { kind: 'not', arg: unary(r, config, depth + 1) };
  }
  if (ch === '(') {
    r.pos++;
    const inner = orExpr(r, config, depth + 1);
    r.skip();
    if (r.text[r.pos] !== ')') r.fail();
    r.pos++;
    return inner;
  }
  if (ch === undefined || ch === ')' || ch === '&' || ch === '|' || ch === '<' || ch === '>' || ch === ':') r.fail();
  return operand(r, config);
}

const FOLLOWED_BY = /^<(-|\d+)>/;

function phraseExpr(r: Reader, config: string, depth: number): Raw {
  let left = unary(r, config, depth);
  for (;;) {
    r.skip();
    const m = FOLLOWED_BY.exec(r.text.slice(r.pos));
    if (!m) return left;
    const distance = m[1] === '-' ? 1 : Number(m[1]);
    if (distance > MAX_DISTANCE) r.fail();
    r.pos += m[0].length;
    left = { kind: 'phrase', distance, left, right: unary(r, config, depth) };
  }
}

function andExpr(r: Reader, config: string, depth: number): Raw {
  let left = phraseExpr(r, config, depth);
  for (;;) {
    r.skip();
    if (r.text[r.pos] !== '&') return left;
    r.pos++;
    left = { kind: 'and', left, right: phraseExpr(r, config, depth) };
  }
}

function orExpr(r: Reader, config: string, depth: number): Raw {
  let left = andExpr(r, config, depth);
  for (;;) {
    r.skip();
    if (r.text[r.pos] !== '|') return left;
    r.pos++;
    left = { kind: 'or', left, right: andExpr(r, config, depth) };
  }
}

function toTsQueryRaw(text: string, config: string): Raw {
  const r = new Reader(text);
  r.skip();
  if (r.pos >= text.length) return STOP;
  const query = orExpr(r, config, 0);
  r.skip();
  if (r.pos < text.length) r.fail();
  return query;
}

// ---- websearch_to_tsquery

function websearchRaw(text: string, config: string): Raw {
  const terms: { raw: Raw; or: boolean }[] = [];
  let pendingOr = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const negated = ch === '-' && i + 1 < text.length && !/\s/.test(text[i + 1] ?? '');
    if (negated) i++;
    let raw: Raw;
    let word = '';
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      const end = close === -1 ? text.length : close;
      raw = wordsQuery(text.slice(i + 1, end), config);
      i = end + 1;
    } else {
      const start = i;
      while (i < text.length && !/[\s"]/.test(text[i] ?? '')) i++;
      word = text.slice(start, i);
      raw = wordsQuery(word, config);
    }
    if (!negated && word.toLowerCase() === 'or') {
      if (terms.length > 0) pendingOr = true;
      continue;
    }
    if (raw.kind === 'stop') continue;
    terms.push({ raw: negated ? { kind: 'not', arg: raw } : raw, or: pendingOr });
    pendingOr = false;
  }
  if (terms.length === 0) return STOP;
  // & binds tighter than |: `a b or c d` is (a & b) | (c & d).
  const groups: Raw[][] = [];
  for (const term of terms) {
    if (term.or || groups.length === 0) groups.push([term.raw]);
    else groups.at(-1)?.push(term.raw);
  }
  return groups.map((g) => joined('and', g)).reduce((left, right) => ({ kind: 'or', left, right }));
}

/** buildTsQuery is the query a PostgREST operator makes of its text; a bad `fts` text throws TsQuerySyntaxError. */
export function buildTsQuery(mode: SearchOperator, text: string, config: string): TsQuery | null {
  let raw: Raw;
  if (mode === 'fts') raw = toTsQueryRaw(text, config);
  else if (mode === 'wfts') raw = websearchRaw(text, config);
  else {
    const groups = tokenGroups(text).map((group) => tokensQuery(group, config));
    raw = groups.length === 0 ? STOP : mode === 'plfts' ? joined('and', groups) : joined('phrase', groups);
  }
  return clean(raw).query;
}
