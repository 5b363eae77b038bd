import type { Db } from '../../db/database.js';
import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import { columnTypeIn, type TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { checkCondition } from '../records/record-conditions.js';
import type { RelatedRead, RelatedValue } from '../records/record-related-reads.js';
import { rowRuleOf, withRules } from '../records/record-rules.js';
import type { RecordRow } from '../records/records.service.js';
import { checkEmbedAggregates, hasEmbedAggregates } from './rest-embed-aggregate.js';
import type { PlannedEmbed } from './rest-embed-plan.js';
import { relatedReadsOf, relatedValueOf } from './rest-embed-related.js';
import { embedValues } from './rest-embed-values.js';
import { allConditions, filtersCondition, orderTerms } from './rest-filters.js';
import { undefinedColumn } from './rest-query.errors.js';
import type { EmbedItem, EmbedParams, Filter, RestQuery, SelectItem } from './rest-query.types.js';
import { type Relationship, resolveRelationship } from './rest-relations.js';
import { checkSelect, type EmbedValueOf, embedName } from './rest-select.js';

// Embedded resources on /rest/v1 reads. Every relationship is resolved (rest-relations.ts) and every embedded
// column checked before anything runs. The list's condition carries what changes which rows it returns: `!inner`
// embeds and `embed=is.null` anti-joins become EXISTS conditions (db/user-conditions.ts), each with the embedded
// table's own filters and its select access rule, so a row hidden from the caller never lets its parent through.
// A read then takes the rows and every embed in ONE statement: each embed is a related read of the records
// service (rest-embed-related.ts), which applies the embedded table's access rules as it does for any read. A
// write's representation embeds rows it already has, one statement per level (rest-embed-values.ts).

const NO_PARAMS: EmbedParams = { filters: [], logic: [], order: [], limit: null, offset: 0 };

/** EmbedPlan is what a read with embeds adds to its list, and how its embeds' values are found. */
export interface EmbedPlan {
  /** The list's condition, with the EXISTS conditions of `!inner` and `is.null`. */
  where: Condition | undefined;
  /** What the list's statement reads for each row (empty when every embed only filters). */
  related: RelatedRead[];
  /** valueOf tells the embeds' values from what the list's statement read (rows and values in the same order). */
  valueOf(rows: RecordRow[], related: RelatedValue[][]): EmbedValueOf;
  /** values reads the embeds of rows already in hand (a write's representation). */
  values(rows: RecordRow[]): Promise<EmbedValueOf>;
  /** An embed holds aggregates: the list reads its rows alone, and `values` reads the embeds afterwards. */
  aggregated: boolean;
}

class Planner {
  private aliases = 0;
  constructor(
    readonly db: Db,
    readonly actor: Actor,
    readonly query: RestQuery,
  ) {}

  async embeds(table: TableDefinition, select: SelectItem[], path: string): Promise<PlannedEmbed[]> {
    const planned: PlannedEmbed[] = [];
    for (const item of select) {
      if (item.kind !== 'embed') continue;
      const relationship = await resolveRelationship(this.db, this.actor, table, item);
      const target = relationship.target;
      const named = path === '' ? embedName(item) : `${path}.${embedName(item)}`;
      const params =
        this.query.embedded[named] ??
        this.query.embedded[path === '' ? item.name : `${path}.${item.name}`] ??
        NO_PARAMS;
      const countOnly = isCountOnly(item, target);
      const aggregated = !countOnly && hasEmbedAggregates(item);
      if (!countOnly) checkSelect(item.select, target.name, (column) => columnTypeIn(target, column));
      if (aggregated) checkEmbedAggregates(item, relationship);
      for (const term of params.order) {
        if (columnTypeIn(target, term.field.column) === null) throw undefinedColumn(target.name, term.field.column);
      }
      const children = await this.embeds(target, item.select, named);
      const where = this.levelWhere(target, params, children);
      const order = orderTerms(params.order);
      planned.push({ item, relationship, params, where, order, countOnly, aggregated, children });
    }
    return planned;
  }

  /** levelWhere is a level's filters with its anti-joins (`embed=is.null`) and inner joins as conditions. */
  levelWhere(
    table: TableDefinition,
    params: Pick<EmbedParams, 'filters' | 'logic'>,
    embeds: PlannedEmbed[],
  ): Condition | undefined {
    const plain: Filter[] = [];
    const related: Condition[] = [];
    for (const filter of params.filters) {
      const embed = embedFiltered(filter, embeds, table);
      if (!embed) {
        plain.push(filter);
        continue;
      }
      const operation = filter.operation as { kind: 'is'; value: string };
      const present = (operation.value === 'not_null') !== filter.negated;
      const exists = this.exists(embed);
      related.push(present ? exists : { kind: 'not', condition: exists });
    }
    for (const embed of embeds) if (embed.item.join === 'inner') related.push(this.exists(embed));
    const own = filtersCondition({ filters: plain, logic: params.logic });
    return allConditions([...(own ? [own] : []), ...related]);
  }

  private alias(): string {
    this.aliases++;
    return `e${this.aliases}`;
  }

  /** exists is EXISTS a row of the embed, as the caller may see it, for the outer row. */
  private exists(embed: PlannedEmbed): Condition {
    const { target, column, junction } = embed.relationship;
    const checked = embed.where ? checkCondition(this.db.dialect, target, embed.where) : undefined;
    const where = withRules(checked, rowRuleOf(this.actor, target, 'select'));
    switch (embed.relationship.cardinality) {
      case 'many-to-one':
        return { kind: 'exists', table: target, alias: this.alias(), innerColumn: 'id', outerColumn: column, where };
      case 'one-to-many':
        return { kind: 'exists', table: target, alias: this.alias(), innerColumn: column, outerColumn: 'id', where };
      case 'many-to-many': {
        if (!junction) throw new Error('exists: a many-to-many without its junction');
        const linked: Condition = {
          kind: 'exists',
          table: target,
          alias: this.alias(),
          innerColumn: 'id',
          outerColumn: junction.targetColumn,
          where,
        };
        return {
          kind: 'exists',
          table: junction.table,
          alias: this.alias(),
          innerColumn: junction.parentColumn,
          outerColumn: 'id',
          where: withRules(linked, rowRuleOf(this.actor, junction.table, 'select')),
        };
      }
    }
  }
}

// `comments(count)` (or `count()`): the number of embedded rows, when the table has no column of that name.
function isCountOnly(item: EmbedItem, target: TableDefinition): boolean {
  const [only] = item.select;
  if (item.select.length === 1 && only?.kind === 'aggregate') {
    return only.fn === 'count' && only.column === null && only.alias === null && only.cast === null;
  }
  return (
    item.select.length === 1 &&
    only?.kind === 'field' &&
    only.field.column === 'count' &&
    only.field.jsonPath.length === 0 &&
    only.alias === null &&
    columnTypeIn(target, 'count') === null
  );
}

// A filter `name=is.null` / `name=not.is.null` on an embed (not a column) of this level.
function embedFiltered(filter: Filter, embeds: PlannedEmbed[], table: TableDefinition): PlannedEmbed | null {
  const { column, jsonPath } = filter.field;
  if (jsonPath.length > 0 || columnTypeIn(table, column) !== null) return null;
  const operation = filter.operation;
  if (operation.kind !== 'is' || (operation.value !== 'null' && operation.value !== 'not_null')) return null;
  return embeds.find((e) => embedName(e.item) === column || e.item.name === column) ?? null;
}

/** hasEmbeds tells whether a selection embeds anything (a read without embeds takes none of this path). */
export function hasEmbeds(select: SelectItem[]): boolean {
  return select.some((item) => item.kind === 'embed');
}

/** planEmbeds resolves a read's embeds and its top-level condition; throws PGRST200/201, 42703 before any read. */
export async function planEmbeds(db: Db, actor: Actor, table: TableDefinition, query: RestQuery): Promise<EmbedPlan> {
  const planner = new Planner(db, actor, query);
  const embeds = await planner.embeds(table, query.select, '');
  const aggregated = anyAggregated(embeds);
  return {
    where: planner.levelWhere(table, query, embeds),
    related: aggregated ? [] : relatedReadsOf(embeds),
    aggregated,
    valueOf: (rows, related) => relatedValueOf(embeds, rows, related),
    values: (rows) => embedValues(db, actor, rows, embeds),
  };
}

// Aggregates inside an embed are not part of the one statement: such a read takes its embeds level by level.
function anyAggregated(embeds: PlannedEmbed[]): boolean {
  return embeds.some((embed) => embed.aggregated || anyAggregated(embed.children));
}
