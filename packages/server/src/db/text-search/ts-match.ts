import { DEFAULT_CONFIG, type TsVector, toTsVector } from './ts-document.js';
import { buildTsQuery, type SearchOperator, type TsQuery } from './ts-query.js';

// `tsvector @@ tsquery` in JavaScript, for SQLite's `basalt_fts` function. A phrase (`<->`, `<N>`) matches where
// its right side's positions follow its left side's by the distance, as PostgreSQL's phrase search does; `!`
// inside a phrase is every position but the argument's. Weights: to_tsvector gives every lexeme weight D, so a
// query lexeme restricted to other weights (`cat:A`) matches nothing, as on PostgreSQL.

function lexemePositions(vector: TsVector, node: Extract<TsQuery, { kind: 'lexeme' }>): number[] {
  if (node.weights !== '' && !node.weights.includes('D')) return [];
  if (!node.prefix) return vector.get(node.lexeme) ?? [];
  const found: number[] = [];
  for (const [lexeme, positions] of vector) if (lexeme.startsWith(node.lexeme)) found.push(...positions);
  return found.sort((a, b) => a - b);
}

function lastPosition(vector: TsVector): number {
  let last = 0;
  for (const positions of vector.values()) last = Math.max(last, positions.at(-1) ?? 0);
  return last;
}

// The positions where a node matches (a phrase's: where it ends).
function positions(vector: TsVector, node: TsQuery): number[] {
  switch (node.kind) {
    case 'lexeme':
      return lexemePositions(vector, node);
    case 'not': {
      const hidden = new Set(positions(vector, node.arg));
      const all: number[] = [];
      for (let p = 1; p <= lastPosition(vector) + 1; p++) if (!hidden.has(p)) all.push(p);
      return all;
    }
    case 'or':
      return [...new Set([...positions(vector, node.left), ...positions(vector, node.right)])].sort((a, b) => a - b);
    case 'and': {
      const right = new Set(positions(vector, node.right));
      return positions(vector, node.left).filter((p) => right.has(p));
    }
    case 'phrase': {
      const left = new Set(positions(vector, node.left));
      return positions(vector, node.right).filter((p) => left.has(p - node.distance));
    }
  }
}

/** matchesQuery is `vector @@ query` (an empty query matches nothing). */
export function matchesQuery(vector: TsVector, query: TsQuery | null): boolean {
  if (query === null) return false;
  switch (query.kind) {
    case 'not':
      return !matchesQuery(vector, query.arg);
    case 'and':
      return matchesQuery(vector, query.left) && matchesQuery(vector, query.right);
    case 'or':
      return matchesQuery(vector, query.left) || matchesQuery(vector, query.right);
    default:
      return positions(vector, query).length > 0;
  }
}

// A statement runs one query over every row: its tree is built once. Bounded, as every cache of request text is.
const queries = new Map<string, TsQuery | null>();

/** textSearchMatches is `to_tsvector('english', document) @@ <mode>(config, text)`, as SQLite's basalt_fts runs it. */
export function textSearchMatches(
  document: string,
  mode: SearchOperator,
  config: string | null,
  text: string,
): boolean {
  const key = `${mode}\u0000${config ?? ''}\u0000${text}`;
  let query = queries.get(key);
  if (query === undefined) {
    query = buildTsQuery(mode, text, config ?? DEFAULT_CONFIG);
    if (queries.size >= 1000) queries.clear();
    queries.set(key, query);
  }
  return matchesQuery(toTsVector(document), query);
}
