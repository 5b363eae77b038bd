import type { Db } from '../../db/database.js';
import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import type { Actor } from '../../lib/actor/actor.js';
import { type Aggregate, aggregateRecords } from '../records/record-aggregates.js';
import { allConditions } from './rest-filters.js';
import { notGroupable, RestQueryError } from './rest-query.errors.js';
import type { EmbedItem, EmbedParams, SelectItem } from './rest-query.types.js';
import type { Relationship } from './rest-relations.js';
import { aggregateKey, projectRow } from './rest-select.js';

// Aggregates inside an embedded resource, as PostgREST 12 answers them: `comments(likes.sum())` is
// `comments: [{ sum: 12 }]` for each parent, and the embed's other selected columns group it
// (`comments(author, count())` is one element per author). A one-to-many embed is one grouped statement per
// 500 parents, grouped by the reference column too, under the embedded table's select rule
// (features/records/record-aggregates.ts checks the types: sum and avg of text are 42883, as at the top level).
// A parent without rows gets one element with count 0 and the others null when nothing groups, else none.

type Row = Record<string, unknown>;

const KEYS_PER_STATEMENT = 500;

/** hasEmbedAggregates tells whether an embed's own selection holds an aggregate. */
export const hasEmbedAggregates = (item: EmbedItem) => item.select.some((inner) => inner.kind === 'aggregate');

const aggregatedOnlyOneToMany = (name: string) =>
  new RestQueryError(
    400,
    'PGRST100',
    `Aggregates inside "${name}" are not answered: only an embed of the rows that refer to the parent (one-to-many) aggregates`,
    null,
    null,
  );

/** checkEmbedAggregates refuses what an aggregated embed cannot group by (PGRST100), before anything runs. */
export function checkEmbedAggregates(item: EmbedItem, relationship: Relationship): void {
  for (const inner of item.select) {
    if (inner.kind === 'star') throw notGroupable('*');
    if (inner.kind === 'embed') throw notGroupable('embedded resources');
    if (inner.kind === 'field' && inner.field.jsonPath.length > 0) throw notGroupable('JSON paths');
  }
  if (relationship.cardinality !== 'one-to-many') throw aggregatedOnlyOneToMany(item.name);
}

function groupsOf(select: SelectItem[]): string[] {
  const groups: string[] = [];
  for (const inner of select) {
    if (inner.kind === 'field' && !groups.includes(inner.field.column)) groups.push(inner.field.column);
  }
  return groups;
}

/** AggregatedEmbed is what the aggregated read of one embed needs from its plan (rest-embed.ts). */
export interface AggregatedEmbed {
  item: EmbedItem;
  relationship: Relationship;
  params: EmbedParams;
  where: Condition | undefined;
  order: OrderTerm[];
}

/** embedAggregates reads an aggregated one-to-many embed for its parents' ids: each parent's projected groups. */
export async function embedAggregates(
  db: Db,
  actor: Actor,
  embed: AggregatedEmbed,
  parentIds: number[],
): Promise<Map<number, Row[]>> {
  const { item, relationship, params } = embed;
  const key = relationship.column;
  const groups = groupsOf(item.select);
  const aggregates: Aggregate[] = [];
  for (const inner of item.select) {
    if (inner.kind === 'aggregate') aggregates.push({ fn: inner.fn, column: inner.column, key: aggregateKey(inner) });
  }
  const byParent = new Map<number, Row[]>();
  for (let at = 0; at < parentIds.length; at += KEYS_PER_STATEMENT) {
    const values = parentIds.slice(at, at + KEYS_PER_STATEMENT);
    const where = allConditions([{ kind: 'in', column: key, values }, ...(embed.where ? [embed.where] : [])]);
    const rows = await aggregateRecords(db, actor, relationship.target, {
      groups: [key, ...groups.filter((g) => g !== key)],
      aggregates,
      ...(where ? { where } : {}),
      order: [{ column: key, direction: 'asc' }, ...embed.order],
      limit: null,
      offset: 0,
    });
    for (const row of rows) {
      const parent = Number(row[key]);
      byParent.set(parent, [...(byParent.get(parent) ?? []), row]);
    }
  }
  const empty: Row[] = groups.length > 0 ? [] : [Object.fromEntries(aggregates.map(emptyValue))];
  const out = new Map<number, Row[]>();
  for (const id of parentIds) {
    const page = (byParent.get(id) ?? empty).slice(
      params.offset,
      params.limit === null ? undefined : params.offset + params.limit,
    );
    out.set(
      id,
      page.map((row) => projectRow(row, item.select)),
    );
  }
  return out;
}

// An aggregate over no rows: count is 0, the others NULL (SQL's answer without GROUP BY).
const emptyValue = (aggregate: Aggregate): [string, unknown] => [aggregate.key, aggregate.fn === 'count' ? 0 : null];
