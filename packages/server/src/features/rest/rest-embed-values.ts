import type { Db } from '../../db/database.js';
import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { countRecordsBy } from '../records/record-group-counts.js';
import { listRecords, type RecordRow } from '../records/records.service.js';
import { embedAggregates } from './rest-embed-aggregate.js';
import type { PlannedEmbed } from './rest-embed-plan.js';
import { allConditions } from './rest-filters.js';
import type { EmbedItem } from './rest-query.types.js';
import { type EmbedValueOf, projectRow } from './rest-select.js';

// The embeds of rows already in hand: a write's representation (`insert(…).select('*, author:authors(name)')`),
// whose rows come back from the write itself. One statement per level (per 500 keys), through the records
// service, which applies each embedded table's access rules as it does for any read, stitched in here: no
// statement per row. A read (GET) reads its rows and their embeds in one statement instead (rest-embed-related.ts).

type Row = Record<string, unknown>;

const KEYS_PER_STATEMENT = 500;
const ID_ORDER: OrderTerm[] = [{ column: 'id', direction: 'asc' }];

/** embedValues reads the embeds of some rows, level by level, and tells each row's value. */
export function embedValues(db: Db, actor: Actor, rows: Row[], embeds: PlannedEmbed[]): Promise<EmbedValueOf> {
  return new EmbedReader(db, actor).values(rows, embeds);
}

class EmbedReader {
  constructor(
    readonly db: Db,
    readonly actor: Actor,
  ) {}

  /** values reads each embed of a level for its rows and tells each row's value. */
  async values(rows: Row[], embeds: PlannedEmbed[]): Promise<EmbedValueOf> {
    const values = new Map<EmbedItem, Map<Row, unknown>>();
    for (const embed of embeds) values.set(embed.item, await this.embedOf(rows, embed));
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

  private async embedOf(rows: Row[], embed: PlannedEmbed): Promise<Map<Row, unknown>> {
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
