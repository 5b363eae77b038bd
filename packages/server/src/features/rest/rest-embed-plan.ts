import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import type { EmbedItem, EmbedParams } from './rest-query.types.js';
import type { Relationship } from './rest-relations.js';

/** PlannedEmbed is one embed, resolved and checked: its relationship, its own condition, order and embeds. */
export interface PlannedEmbed {
  item: EmbedItem;
  relationship: Relationship;
  params: EmbedParams;
  /** The embed's own filters (unchecked) and the EXISTS conditions of its own inner embeds. */
  where: Condition | undefined;
  order: OrderTerm[];
  countOnly: boolean;
  /** Holds aggregates other than a lone count: read grouped, level by level (rest-embed-aggregate.ts). */
  aggregated: boolean;
  children: PlannedEmbed[];
}
