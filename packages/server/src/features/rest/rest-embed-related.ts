import type { TableDefinition } from '../../db/user-tables.js';
import type { RelatedRead, RelatedRow, RelatedValue } from '../records/record-related-reads.js';
import type { PlannedEmbed } from './rest-embed-plan.js';
import type { EmbedItem, SelectItem } from './rest-query.types.js';
import { type EmbedValueOf, projectRow } from './rest-select.js';

// A read's embeds as the records service's related reads, all in the list's own statement: a many-to-one is the
// row (or null), a one-to-many or many-to-many the rows in their order and page, `comments(count)` their number.
// Each related row carries only the columns its `select` names; it is then projected as a row read alone would be
// (renames, JSON paths, casts, spreads, nested embeds: rest-select.ts). An embed that only filters
// (`authors!inner()`) reads nothing here: its EXISTS condition is in the list's own.

type Row = Record<string, unknown>;

// An embed with a value in the answer (`authors!inner()` has none).
const answered = (embed: PlannedEmbed) => embed.item.select.length > 0;

/** relatedReadsOf is what the list's statement reads for the embeds of a level that have a value. */
export function relatedReadsOf(embeds: PlannedEmbed[]): RelatedRead[] {
  return embeds.filter(answered).map(relatedReadOf);
}

function relatedReadOf(embed: PlannedEmbed): RelatedRead {
  const { relationship, params, countOnly } = embed;
  const { cardinality, target, column, junction } = relationship;
  const toOne = cardinality === 'many-to-one';
  const kind = toOne ? 'one' : countOnly ? 'count' : 'many';
  return {
    kind,
    table: target,
    innerColumn: cardinality === 'one-to-many' ? column : 'id',
    outerColumn: toOne ? column : 'id',
    ...(junction ? { junction } : {}),
    where: embed.where,
    order: embed.order,
    limit: toOne ? null : params.limit,
    offset: toOne ? 0 : params.offset,
    columns: countOnly ? [] : columnsOf(embed.item.select, target),
    related: countOnly ? [] : relatedReadsOf(embed.children),
  };
}

// The columns a selection reads of a row: every column for `*`, else the columns named (a JSON path or a cast is
// applied to the value afterwards, in JavaScript, as for a row read alone).
function columnsOf(select: SelectItem[], table: TableDefinition): string[] {
  if (select.some((item) => item.kind === 'star')) {
    return ['id', ...Object.keys(table.schema), 'created_at', 'updated_at'];
  }
  const columns = new Set<string>();
  for (const item of select) {
    if (item.kind === 'field') columns.add(item.field.column);
    else if (item.kind === 'aggregate' && item.column !== null) columns.add(item.column);
  }
  return [...columns];
}

/** relatedValueOf answers projectRows' question (an embed's value for a row) from what the list's statement read. */
export function relatedValueOf(embeds: PlannedEmbed[], rows: Row[], related: RelatedValue[][]): EmbedValueOf {
  const level = levelOf(embeds);
  const byRow = new Map<Row, RelatedValue[]>();
  rows.forEach((row, i) => {
    byRow.set(row, related[i] ?? []);
  });
  return (item, row) => level.value(item, byRow.get(row) ?? []);
}

interface Level {
  value(item: EmbedItem, values: RelatedValue[]): unknown;
}

// The embeds of one level that have a value, by item: their values come in the same order as relatedReadsOf's.
function levelOf(embeds: PlannedEmbed[]): Level {
  const answeredEmbeds = embeds.filter(answered);
  const at = new Map<EmbedItem, { embed: PlannedEmbed; index: number; children: Level }>();
  answeredEmbeds.forEach((embed, index) => {
    at.set(embed.item, { embed, index, children: levelOf(embed.children) });
  });
  return {
    value(item, values) {
      const found = at.get(item);
      if (!found) return null;
      return projected(found.embed, found.children, values[found.index] ?? null);
    },
  };
}

function projected(embed: PlannedEmbed, children: Level, value: RelatedValue): unknown {
  const toOne = embed.relationship.cardinality === 'many-to-one';
  if (embed.countOnly && !toOne) return [{ count: typeof value === 'number' ? value : 0 }];
  const project = ({ row, related }: RelatedRow) =>
    projectRow(row, embed.item.select, (item) => children.value(item, related));
  if (Array.isArray(value)) return value.map(project);
  if (value === null || typeof value === 'number') return toOne ? null : [];
  return project(value);
}
