import { Cursor, castName, field, fieldName, jsonPath, withTarget } from './rest-query.cursor.js';
import { aggregatesNotAllowed, unknownType } from './rest-query.errors.js';
import {
  type AggregateItem,
  type EmbedItem,
  type OrderTerm,
  SELECT_CASTS,
  type SelectCast,
  type SelectItem,
} from './rest-query.types.js';

/** MAX_EMBED_DEPTH is how deep embedded resources may nest. */
export const MAX_EMBED_DEPTH = 8;

// `select`, `order`, `columns` and `on_conflict`, after PostgREST's pFieldForest, pOrder and pColumns.
// Embedded resources (`author:authors!hint!inner(*)`, `...authors(name)`) are parsed here and resolved against
// the tables' references by rest-embed.ts; they nest at most MAX_EMBED_DEPTH levels (a clear 400, never a deep
// recursion). `order=author(name)` orders by a column of an embedded to-one resource. Aggregates (`count()`,
// `amount.sum()`) are answered at the top level and inside embeds (`comments(likes.sum())`), as PostgREST 12 with
// aggregates enabled does; an aggregate over a JSON path or a cast column is PGRST123.

const CAST_ALIASES: Record<string, SelectCast> = {
  int: 'integer',
  int4: 'integer',
  int8: 'bigint',
  float8: 'double precision',
  float: 'double precision',
  bool: 'boolean',
  varchar: 'text',
};

function selectCast(name: string): SelectCast {
  const normal = name.toLowerCase().replace(/\s+/g, ' ');
  const cast = CAST_ALIASES[normal] ?? SELECT_CASTS.find((c) => c === normal);
  if (!cast) throw unknownType(name);
  return cast;
}

const AGGREGATE = /^\.(sum|avg|count|max|min)\(\)/;

function atItemEnd(c: Cursor): boolean {
  return c.atEnd() || c.peek() === ',' || c.peek() === ')';
}

// `name!hint!inner(...)`, after the name: the hints, then the embedded selection.
function embedItem(c: Cursor, name: string, alias: string | null, spread: boolean, depth: number): EmbedItem {
  if (depth >= MAX_EMBED_DEPTH) {
    c.unsupported(`Embedded resources cannot be nested more than ${MAX_EMBED_DEPTH} levels deep`);
  }
  let hint: string | null = null;
  let join: EmbedItem['join'] = null;
  while (c.peek() === '!') {
    c.pos++;
    const word = fieldName(c);
    if (word === 'inner' || word === 'left') join = word;
    else if (hint === null) hint = word;
    else c.fail(['"("']);
  }
  c.expect('(', '"("');
  const select: SelectItem[] = [];
  c.skipSpaces();
  if (c.peek() !== ')') {
    for (;;) {
      select.push(selectItem(c, depth + 1));
      if (c.peek() !== ',') break;
      c.pos++;
    }
  }
  c.expect(')', '")"');
  c.skipSpaces();
  if (!atItemEnd(c)) c.fail(['","', '")"', 'end of input']);
  // `name()` selects nothing of the embed, as in PostgREST (it still joins, for `!inner`).
  return { kind: 'embed', name, alias, hint, join, spread, select };
}

// After `fn()`: an optional cast of the result (`avg()::int`), then the item's end.
function aggregateEnd(c: Cursor, item: AggregateItem): AggregateItem {
  let cast: SelectCast | null = null;
  if (c.startsWith('::')) {
    c.pos += 2;
    cast = selectCast(castName(c));
  }
  c.skipSpaces();
  if (!atItemEnd(c)) c.fail(['"::"', '","', 'end of input']);
  return { ...item, cast };
}

function selectItem(c: Cursor, depth = 0): SelectItem {
  c.skipSpaces();
  const start = c.pos;
  if (c.startsWith('...')) {
    c.pos += 3;
    const name = fieldName(c);
    if (c.peek() !== '(' && c.peek() !== '!') c.fail(['"("', '"!"']);
    return embedItem(c, name, null, true, depth);
  }
  if (c.peek() === '*') {
    c.pos++;
    c.skipSpaces();
    if (!atItemEnd(c)) c.fail(['")"', '","', 'end of input']);
    return { kind: 'star' };
  }
  let alias: string | null = fieldName(c);
  if (c.peek() === ':' && c.peek(1) !== ':') {
    c.pos++;
  } else {
    alias = null;
    c.pos = start;
  }
  if (c.startsWith('count()')) {
    c.pos += 'count()'.length;
    return aggregateEnd(c, { kind: 'aggregate', fn: 'count', column: null, alias, cast: null });
  }
  const column = fieldName(c);
  if (c.peek() === '(' || c.peek() === '!') return embedItem(c, column, alias, false, depth);
  const path = jsonPath(c);
  let cast: SelectCast | null = null;
  if (c.startsWith('::')) {
    c.pos += 2;
    cast = selectCast(castName(c));
  }
  const aggregate = AGGREGATE.exec(c.text.slice(c.pos));
  if (aggregate) {
    // Aggregates over a plain column (PostgREST 12), at the top level or inside an embed (rest-embed-aggregate.ts).
    if (path.length > 0 || cast !== null) throw aggregatesNotAllowed();
    c.pos += aggregate[0].length;
    const fn = aggregate[1] as AggregateItem['fn'];
    return aggregateEnd(c, { kind: 'aggregate', fn, column, alias, cast: null });
  }
  c.skipSpaces();
  if (!atItemEnd(c)) c.fail(['letter', 'digit', '"-"', '"->>"', '"->"', '"::"', '","', 'end of input']);
  return { kind: 'field', field: { column, jsonPath: path }, alias, cast };
}

/** parseSelect reads `select`; an empty value means `*`. */
export function parseSelect(value: string): SelectItem[] {
  // `*` (also what no select means) is by far the usual value: no parser for it.
  if (value === '*' || value.trim() === '') return [{ kind: 'star' }];
  return withTarget('select parameter', value, () => {
    const c = new Cursor(value);
    const items: SelectItem[] = [];
    for (;;) {
      items.push(selectItem(c));
      if (c.peek() !== ',') break;
      c.pos++;
    }
    if (!c.atEnd()) c.fail(['","', 'end of input']);
    return items;
  });
}

function orderTerm(c: Cursor): OrderTerm {
  c.skipSpaces();
  const start = c.pos;
  const name = fieldName(c);
  // `author(name)`: a column of an embedded to-one resource (rest-read.ts checks that it is one).
  let relation: string | null = null;
  if (c.peek() === '(') {
    c.pos++;
    relation = name;
  } else c.pos = start;
  const fieldRef = field(c);
  if (relation !== null) c.expect(')', '")"');
  let direction: 'asc' | 'desc' | null = null;
  let nulls: 'first' | 'last' | null = null;
  const keyword = (words: string[]) => words.find((w) => c.startsWith(`.${w}`));
  const dir = keyword(['asc', 'desc']);
  if (dir === 'asc' || dir === 'desc') {
    direction = dir;
    c.pos += dir.length + 1;
  }
  const nullsWord = keyword(['nullsfirst', 'nullslast']);
  if (nullsWord) {
    nulls = nullsWord === 'nullsfirst' ? 'first' : 'last';
    c.pos += nullsWord.length + 1;
  }
  c.skipSpaces();
  if (!c.atEnd() && c.peek() !== ',') {
    // Like Parsec: a dot followed by no known word reports the words; otherwise what may follow.
    if (c.peek() === '.' && nulls === null) {
      const words = direction === null ? ['asc', 'desc', 'nullsfirst', 'nullslast'] : ['nullsfirst', 'nullslast'];
      c.failKeywords(words, c.pos + 1);
    }
    c.fail(nulls === null ? ['delimiter (.)', '","', 'end of input'] : ['","', 'end of input']);
  }
  const resolved = direction ?? 'asc';
  // PostgreSQL's defaults: NULLS LAST ascending, NULLS FIRST descending (SQLite's differ: write them out).
  const term: OrderTerm = {
    field: fieldRef,
    direction: resolved,
    nulls: nulls ?? (resolved === 'asc' ? 'last' : 'first'),
  };
  return relation === null ? term : { relation, ...term };
}

/** parseOrder reads `order=col.desc.nullsfirst,col2`; an empty value means no order. */
export function parseOrder(value: string): OrderTerm[] {
  if (value.trim() === '') return [];
  return withTarget('order', value, () => {
    const c = new Cursor(value);
    const terms: OrderTerm[] = [];
    for (;;) {
      terms.push(orderTerm(c));
      if (c.peek() !== ',') break;
      c.pos++;
    }
    return terms;
  });
}

/** parseColumnList reads `columns` or `on_conflict`: names (quoted or not) separated by commas. */
export function parseColumnList(target: 'columns parameter' | 'on_conflict parameter', value: string): string[] {
  return withTarget(target, value, () => {
    const c = new Cursor(value);
    const names: string[] = [];
    for (;;) {
      c.skipSpaces();
      names.push(fieldName(c));
      c.skipSpaces();
      if (c.peek() !== ',') break;
      c.pos++;
    }
    if (!c.atEnd()) c.fail(['","', 'end of input']);
    return names;
  });
}
