import type { Db } from '../../db/database.js';
import type { OrderTerm } from '../../db/user-conditions.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { orderTerms } from './rest-filters.js';
import { RestQueryError } from './rest-query.errors.js';
import type { EmbedItem, RestQuery } from './rest-query.types.js';
import { resolveRelationship } from './rest-relations.js';
import { embedName } from './rest-select.js';

// `order=author(name).desc`: ordering by a column of an embedded resource, as PostgREST allows it — the embed must
// be in `select` (PGRST108) and be to-one (PGRST118). The records service reads that column in a subquery by the
// reference, under the other table's select rule (a hidden row sorts as NULL).

const notEmbedded = (name: string) =>
  new RestQueryError(
    400,
    'PGRST108',
    `'${name}' is not an embedded resource in this request`,
    null,
    `Verify that '${name}' is included in the 'select' query parameter.`,
  );

const notToOne = (parent: string, name: string) =>
  new RestQueryError(
    400,
    'PGRST118',
    `A related order on '${name}' is not possible`,
    `'${parent}' and '${name}' do not form a many-to-one or one-to-one relationship`,
  );

/** hasRelatedOrder tells whether an order names an embedded resource's column. */
export const hasRelatedOrder = (query: RestQuery) => query.order.some((term) => term.relation !== undefined);

/** relatedOrderTerms turns a query's order into the records service's, resolving `author(name)` terms. */
export async function relatedOrderTerms(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  query: RestQuery,
): Promise<OrderTerm[]> {
  const plain = orderTerms(query.order);
  const terms: OrderTerm[] = [];
  for (const [i, term] of query.order.entries()) {
    const converted = plain[i] as OrderTerm;
    if (term.relation === undefined) {
      terms.push(converted);
      continue;
    }
    const name = term.relation;
    const item = query.select.find((s): s is EmbedItem => s.kind === 'embed' && embedName(s) === name);
    if (!item) throw notEmbedded(name);
    const relationship = await resolveRelationship(db, actor, table, item);
    if (relationship.cardinality !== 'many-to-one') throw notToOne(table.name, name);
    const via = { table: relationship.target, reference: relationship.column, alias: `o${i}` };
    terms.push({ ...converted, via });
  }
  return terms;
}
