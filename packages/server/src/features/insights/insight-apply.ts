import { analyzeColumn } from '../../db/column-indexes.js';
import type { Db } from '../../db/database.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { findTableDefinitionById } from '../table-definitions/table-definitions.store.js';
import type { TableResponse } from '../tables/table-definition.js';
import { updateTable } from '../tables/tables.service.js';
import { type Insight, markImplemented, toInsight } from './insights.service.js';

// "Apply" on an insight Basalt can act on itself: an unindexed filter or order gets its index through the one
// schema change path (validated as a PATCH of the table is, recorded in history, revertable there), the column's
// statistics are refreshed so that the planner takes the index at once (db/column-indexes.ts), then the insight is
// marked implemented. Any other insight is refused: its action is the person's to take.

/** AppliedInsight is the insight, now implemented, and the table as the change left it. */
export interface AppliedInsight {
  insight: Insight;
  table: TableResponse;
}

/** applyInsight does what one of the actor's account's insights suggests (404 another's, 409 when it cannot). */
export async function applyInsight(db: Db, actor: Actor, id: number): Promise<AppliedInsight> {
  const row = await db.kysely
    .selectFrom('performance_insights')
    .selectAll()
    .where('account_id', '=', actor.accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Insight not found', 'insight_not_found');
  const insight = toInsight(row);
  if (insight.implemented) throw conflict('This insight is already implemented', 'insight_implemented');
  const column = insight.details?.column;
  if (!insight.canApply || typeof column !== 'string' || insight.tableId === null) {
    throw conflict('Basalt cannot apply this insight; follow its suggested action', 'insight_not_applicable');
  }
  const table = await findTableDefinitionById(db.kysely, actor.accountId, insight.tableId);
  const definition = table?.schema[column];
  if (!table || !definition) {
    throw conflict(`The column "${column}" no longer exists; the insight no longer applies`, 'insight_outdated');
  }
  const changed = await updateTable(db, actor, table.id, {
    schema: { ...table.schema, [column]: { ...definition, indexed: true } },
  });
  await analyzeColumn(db.kysely, db.dialect.name, table.id, column);
  return { insight: await markImplemented(db, actor, id), table: changed };
}
