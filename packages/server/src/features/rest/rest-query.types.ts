// The request AST of the PostgREST data API. The parser knows no schema: column names
// are raw strings (possibly hostile) that the wiring checks against the table definition (42703 / PGRST204)
// and writes only through the identifier gate; every value stays a string until a column type converts it.

import type { JsonPathStep } from '../../db/jsonb.js';

export type { JsonPathStep } from '../../db/jsonb.js';

/** FieldRef is a column with an optional JSON path (`meta->a->>b`). */
export interface FieldRef {
  column: string;
  jsonPath: JsonPathStep[];
}

/** SELECT_CASTS are the casts `select` accepts (`col::text`), by their canonical PostgreSQL names. */
export const SELECT_CASTS = [
  'text',
  'integer',
  'bigint',
  'numeric',
  'double precision',
  'boolean',
  'json',
  'jsonb',
] as const;

/** SelectCast is a canonical cast name; the wiring maps it to each engine's SQL. */
export type SelectCast = (typeof SELECT_CASTS)[number];

/** SelectItem is `*` or one column (`label:col->path::cast`). */
export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; field: FieldRef; alias: string | null; cast: SelectCast | null }
  | AggregateItem
  | EmbedItem;

/** AggregateFunction is one of PostgREST 12's aggregates. */
export type AggregateFunction = 'count' | 'sum' | 'avg' | 'min' | 'max';

/**
 * AggregateItem is `alias:column.fn()::cast`, or `count()` (column null): the other selected columns group the
 * rows. `cast` converts the result, as `avg()::int` does.
 */
export interface AggregateItem {
  kind: 'aggregate';
  fn: AggregateFunction;
  column: string | null;
  alias: string | null;
  cast: SelectCast | null;
}

/**
 * EmbedItem is an embedded resource: `alias:name!hint!inner(select)`, or `...name(select)` (a spread). `name` is a
 * table, or a reference column of the parent (a many-to-one by that column); `hint` a constraint or column name.
 */
export interface EmbedItem {
  kind: 'embed';
  name: string;
  alias: string | null;
  hint: string | null;
  join: 'inner' | 'left' | null;
  spread: boolean;
  select: SelectItem[];
}

/** EmbedParams are an embedded resource's own filters, order and paging (`comments.order=…`, `authors.name=…`). */
export interface EmbedParams {
  filters: Filter[];
  logic: LogicTree[];
  order: OrderTerm[];
  limit: number | null;
  offset: number;
}

/** ComparisonOperator compares a column with one value. */
export type ComparisonOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte';

/** PatternOperator matches text: like/ilike (SQL patterns, `*` already turned into `%`), match/imatch (POSIX regex). */
export type PatternOperator = 'like' | 'ilike' | 'match' | 'imatch';

/** QuantifiableOperator can take `(any)` / `(all)`; `neq` cannot, as in PostgREST. */
export type QuantifiableOperator = Exclude<ComparisonOperator, 'neq'> | PatternOperator;

/** ContainmentOperator is cs (contains, @>), cd (contained by, <@) or ov (overlaps, &&). */
export type ContainmentOperator = 'cs' | 'cd' | 'ov';

/** SearchOperator is a full-text operator: to_tsquery, plainto_, phraseto_ and websearch_to_tsquery. */
export type SearchOperator = 'fts' | 'plfts' | 'phfts' | 'wfts';

/** IsValue is what `is.` takes (case-insensitive on the wire, lower-case here). */
export type IsValue = 'null' | 'not_null' | 'true' | 'false' | 'unknown';

/** Operation is the operator and value(s) of one filter. */
export type Operation =
  | { kind: 'compare'; op: ComparisonOperator; value: string }
  | { kind: 'pattern'; op: PatternOperator; value: string }
  | { kind: 'quantified'; op: QuantifiableOperator; quantifier: 'any' | 'all'; values: string[] }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: IsValue }
  | { kind: 'isdistinct'; value: string }
  | { kind: 'contains'; op: ContainmentOperator; value: string }
  | { kind: 'search'; op: SearchOperator; config: string | null; value: string };

/** Filter is `{column}={not.}{op}.{value}`, or `column.op.value` inside a logic tree. */
export interface Filter {
  field: FieldRef;
  negated: boolean;
  operation: Operation;
}

/** LogicTree is `or=(…)`, `and=(…)`, `not.or=(…)`, nested `and(…)`/`or(…)`/`not.and(…)`, down to filters. */
export type LogicTree =
  | { kind: 'filter'; filter: Filter }
  | { kind: 'and' | 'or'; negated: boolean; children: LogicTree[] };

/** OrderTerm is one `col.desc.nullsfirst`; defaults are resolved (asc, NULLS LAST for asc, FIRST for desc). */
export interface OrderTerm {
  field: FieldRef;
  direction: 'asc' | 'desc';
  nulls: 'first' | 'last';
}

/** RestRange is the rows to return: offset, and a limit or null for all (limit/offset ∩ Range header). */
export interface RestRange {
  offset: number;
  limit: number | null;
}

/** Preferences are the `Prefer` items Basalt reads; null when absent (unknown items are ignored). */
export interface Preferences {
  return: 'minimal' | 'representation' | 'headers-only' | null;
  /** exact: the true count; planned: the planner's estimate; estimated: exact when small, else planned. */
  count: 'exact' | 'planned' | 'estimated' | null;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missing: 'default' | 'null' | null;
}

/** ResponseFormat is what `Accept` asked for: an array, one object (`vnd.pgrst.object+json`), or CSV. */
export type ResponseFormat = 'json' | 'object' | 'csv';

/** RestQuery is a parsed data-API request: query string and headers. */
export interface RestQuery {
  select: SelectItem[];
  /** Top-level column filters, ANDed. */
  filters: Filter[];
  /** `or`/`and`/`not.or`/`not.and` parameters, ANDed with the filters. */
  logic: LogicTree[];
  /** Empty: no `order` was given (Basalt then orders by id). */
  order: OrderTerm[];
  /** limit/offset, intersected with the Range header on GET and HEAD. */
  range: RestRange;
  onConflict: string[] | null;
  columns: string[] | null;
  prefer: Preferences;
  format: ResponseFormat;
  /** Embedded resources' parameters by their dotted path of names or aliases (`posts.comments`). */
  embedded: Record<string, EmbedParams>;
}
