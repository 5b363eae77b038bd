import type { Db } from '../../db/database.js';
import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import { columnTypeIn, type TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { checkCondition } from '../records/record-conditions.js';
import { countRecordsBy } from '../records/record-group-counts.js';
import { rowRuleOf, withRules } from '../records/record-rules.js';
import { listRecords, type RecordRow } from '../records/records.service.js';
import { checkEmbedAggregates, embedAggregates, hasEmbedAggregates } from './rest-embed-aggregate.js';
import { allConditions, filtersCondition, orderTerms } from './rest-filters.js';
import { undefinedColumn } from './rest-query.errors.js';
import type { EmbedItem, EmbedParams, Filter, RestQuery, SelectItem } from './rest-query.types.js';
import { type Relationship, resolveRelationship } from './rest-relations.js';
import { checkSelect, type EmbedValueOf, embedName, projectRow } from './rest-select.js';

// Embedded resources on /rest/v1 reads. Every relationship is resolved (rest-relations.ts) and every embedded
// column checked before anything runs. The top-level statement carries what changes which rows it returns:
// `!inner` embeds and `embed=is.null` anti-joins become EXISTS conditions (db/user-tables.ts), each with the
// embedded table's own filters and its select access rule, so a row hidden from the caller never lets its
// parent through. Then each embed is read with one statement per level (per 500 keys), through the records
// service, which applies the embedded table's access rules as it does for any read, and stitched in here:
// no statement per row.

type Row = Record<string, unknown>;

const KEYS_PER_STATEMENT = 500;
const ID_ORDER: OrderTerm[] = [{ column: 'id', direction: 'asc' }];
const NO_PARAMS: EmbedParams = { filters: [], logic: [], order: [], limit: null, offset: 0 };

interface PlannedEmbed {
  item: EmbedItem;
  relationship: Relationship;
  params: EmbedParams;
  /** The embed's own filters (unchecked) and the EXISTS conditions of its own inner embeds. */
  where: Condition | undefined;
  order: OrderTerm[];
  countOnly: boolean;
  /** Holds aggregates other than a lone count: read grouped (rest-embed-aggregate.ts). */
  aggregated: boolean;
  children: PlannedEmbed[];
}

/** EmbedPlan is what a read with embeds adds: its top-level condition, and the embeds' values for its rows. */
export interface EmbedPlan {
  where: Condition | undefined;
  values(rows: RecordRow[]): Promise<EmbedValueOf>;
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

  /** values reads each embed of a level for its rows and tells each row's value. */
  async values(rows: Row[], embeds: PlannedEmbed[]): Promise<EmbedValueOf> {
    const values = new Map<EmbedItem, Map<Row, unknown>>();
    for (const embed of embeds) values.set(embed.item, await this.embedValues(rows, embed));
    return (item, row) => {
      const value = values.get(item)?.get(row);
      if (value !== undefined) return value;
      return values.get(item) && isToOne(embeds, item) ? null : [];
    };
  }

  private async project(rows: RecordRow[], embed: PlannedEmbed): Promise<Map<RecordRow, Row>> {
    const nested = await this.values(rows, embed.children);
    return new Map(rows.map((row) => [row, projectRow(row, embed.item.select, nested)]));
  }

  private async embedValues(rows: Row[], embed: PlannedEmbed): Promise<Map<Row, unknown>> {
    const { relationship } = embed;
    const out = new Map<Row, unknown>();
    if (embed.aggregated) {
      const groups = await embedAggregates(this.db, this.actor, embed, keysOf(rows, 'id') as number[]);
      for (const row of rows) out.set(row, groups.get(row.id as number) ?? []);
      return out;
    }
    if (relationship.cardinality === 'many-to-one') {
      const children = await this.read(relationship.target, 'id', keysOf(rows, relationship.column), embed, false);
      const projected = await this.project(children, embed);
      const byId = new Map(children.map((child) => [child.id, projected.get(child)]));
      for (const row of rows) out.set(row, byId.get(row[relationship.column] as number) ?? null);
      return out;
    }
    if (
      relationship.cardinality === 'one-to-many' &&
      embed.countOnly &&
      embed.params.limit === null &&
      embed.params.offset === 0
    ) {
      // Only the numbers: one grouped count, no rows read.
      const counts = await this.countBy(relationship.target, relationship.column, keysOf(rows, 'id'), embed.where);
      for (const row of rows) out.set(row, [{ count: counts.get(row.id as number) ?? 0 }]);
      return out;
    }
    let linked: Map<unknown, RecordRow[]>;
    if (relationship.cardinality === 'one-to-many') {
      const children = await this.read(relationship.target, relationship.column, keysOf(rows, 'id'), embed, true);
      linked = groupBy(children, (child) => [child[relationship.column]]);
    } else {
      const junction = relationship.junction;
      if (!junction) throw new Error('embedValues: a many-to-many without its junction');
      const links = await this.read(junction.table, junction.parentColumn, keysOf(rows, 'id'), null, false);
      const parentsOf = groupBy(links, (link) => [link[junction.targetColumn]]);
      const targets = await this.read(relationship.target, 'id', keysOf(links, junction.targetColumn), embed, true);
      linked = groupBy(targets, (target) =>
        (parentsOf.get(target.id) ?? []).map((link) => link[junction.parentColumn]),
      );
    }
    const { offset, limit } = embed.params;
    for (const row of rows) {
      const group = linked.get(row.id) ?? [];
      const page = group.slice(offset, limit === null ? undefined : offset + limit);
      out.set(row, embed.countOnly ? [{ count: page.length }] : page);
    }
    if (!embed.countOnly) {
      const projected = await this.project([...new Set([...linked.values()].flat())], embed);
      for (const [row, page] of out)
        out.set(
          row,
          (page as RecordRow[]).map((child) => projected.get(child)),
        );
    }
    return out;
  }

  private async countBy(
    table: TableDefinition,
    column: string,
    keys: unknown[],
    where: Condition | undefined,
  ): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    for (let at = 0; at < keys.length; at += KEYS_PER_STATEMENT) {
      const values = keys.slice(at, at + KEYS_PER_STATEMENT) as number[];
      const all = allConditions([{ kind: 'in', column, values }, ...(where ? [where] : [])]);
      for (const [key, n] of await countRecordsBy(this.db, this.actor, table, column, all)) counts.set(key, n);
    }
    return counts;
  }

  // The rows of a table whose `column` is one of `keys`, with the embed's conditions and order, by chunks of keys.
  private async read(
    table: TableDefinition,
    column: string,
    keys: unknown[],
    embed: PlannedEmbed | null,
    ordered: boolean,
  ): Promise<RecordRow[]> {
    const rows: RecordRow[] = [];
    for (let at = 0; at < keys.length; at += KEYS_PER_STATEMENT) {
      const values = keys.slice(at, at + KEYS_PER_STATEMENT) as number[];
      const where = allConditions([{ kind: 'in', column, values }, ...(embed?.where ? [embed.where] : [])]);
      // Led by the key column, the order is the key's index order (rows are grouped by it anyway): an engine then
      // reads the index instead of walking the whole table in id order to find a page's few rows.
      const within = ordered && embed && embed.order.length > 0 ? embed.order : ID_ORDER;
      const order: OrderTerm[] = column === 'id' ? within : [{ column, direction: 'asc' }, ...within];
      rows.push(...(await listRecords(this.db, this.actor, table, { ...(where ? { where } : {}), order })));
    }
    return rows;
  }
}

function isToOne(embeds: PlannedEmbed[], item: EmbedItem): boolean {
  return embeds.find((e) => e.item === item)?.relationship.cardinality === 'many-to-one';
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

function keysOf(rows: Row[], column: string): unknown[] {
  const keys = new Set<unknown>();
  for (const row of rows) {
    const key = row[column];
    if (key !== null && key !== undefined) keys.add(key);
  }
  return [...keys];
}

function groupBy(rows: RecordRow[], keysOfRow: (row: RecordRow) => unknown[]): Map<unknown, RecordRow[]> {
  const groups = new Map<unknown, RecordRow[]>();
  for (const row of rows) {
    for (const key of keysOfRow(row)) {
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
  }
  return groups;
}

/** hasEmbeds tells whether a selection embeds anything (a read without embeds takes none of this path). */
export function hasEmbeds(select: SelectItem[]): boolean {
  return select.some((item) => item.kind === 'embed');
}

/** planEmbeds resolves a read's embeds and its top-level condition; throws PGRST200/201, 42703 before any read. */
export async function planEmbeds(db: Db, actor: Actor, table: TableDefinition, query: RestQuery): Promise<EmbedPlan> {
  const planner = new Planner(db, actor, query);
  const embeds = await planner.embeds(table, query.select, '');
  return {
    where: planner.levelWhere(table, query, embeds),
    values: (rows) => planner.values(rows, embeds),
  };
}
