import { buildTsQuery, type SearchOperator, type TsQuery, TsQuerySyntaxError } from './ts-query.js';

// What a search asks a column's FTS5 table (search-index.ts) before the exact check: a MATCH expression every row
// that can match satisfies, so that only those rows are read and checked by basalt_fts. It is a necessary
// condition, never a sufficient one: a lexeme is needed where the query needs it (`&`, a phrase's words), either
// side of `|` where both are needed, nothing under `!` (a row without the word matches `!word`). Each lexeme is an
// FTS5 string (a prefix query for `:*`), matched against the row's lexemes as FTS5 tokenizes both alike.

// A lexeme with neither a letter nor a digit would be an empty FTS5 string: it constrains nothing here.
const WORDLIKE = /[\p{L}\p{N}]/u;

/** FTS5 expression, or true (any row may match), or false (no row matches). */
type Need = string | boolean;

const ftsString = (lexeme: string) => `"${lexeme.replaceAll('"', '""')}"`;

function both(a: Need, b: Need): Need {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  return `(${a}) AND (${b})`;
}

function either(a: Need, b: Need): Need {
  if (a === true || b === true) return true;
  if (a === false) return b;
  if (b === false) return a;
  return `(${a}) OR (${b})`;
}

function needOf(node: TsQuery): Need {
  switch (node.kind) {
    case 'lexeme':
      // to_tsvector gives every lexeme weight D: a query for other weights only matches nothing.
      if (node.weights !== '' && !node.weights.includes('D')) return false;
      if (!WORDLIKE.test(node.lexeme)) return true;
      return node.prefix ? `${ftsString(node.lexeme)} *` : ftsString(node.lexeme);
    case 'not':
      return true;
    case 'and':
    case 'phrase':
      return both(needOf(node.left), needOf(node.right));
    case 'or':
      return either(needOf(node.left), needOf(node.right));
  }
}

/**
 * searchPrefilter is the FTS5 MATCH expression for a search, or null when it narrows nothing (a query of `!`
 * only, or text to_tsquery refuses: the exact check then reports the error). A query that matches no row gives an
 * expression no row satisfies.
 */
export function searchPrefilter(op: SearchOperator, config: string, text: string): string | null {
  let query: TsQuery | null;
  try {
    query = buildTsQuery(op, text, config);
  } catch (error) {
    if (error instanceof TsQuerySyntaxError) return null;
    throw error;
  }
  const need = query === null ? false : needOf(query);
  if (need === true) return null;
  // Rows hold lexemes of letters and digits, never this token.
  return need === false ? '"basalt_matches_nothing_0"' : need;
}
