import type { Db } from '../../db/database.js';
import { SqlText } from '../../db/sql-text.js';
import { type Condition, writeCondition } from '../../db/user-conditions.js';
import { quotedColumn, quotedTable, type TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { assertCan } from './record-access.js';
import { checkCondition } from './record-conditions.js';
import { rowRuleOf, withRules } from './record-rules.js';

// The number of records per value of one column, among those a condition selects and the actor may read: what an
// embedded `comments(count)` needs for a page of posts, in one grouped statement instead of reading the comments.

/** countRecordsBy counts the readable records per value of `column` (NULL values are not counted). */
export async function countRecordsBy(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  column: string,
  where: Condition | undefined,
): Promise<Map<number, number>> {
  assertCan(actor, 'read', table);
  const checked = where ? checkCondition(db.dialect, table, where) : undefined;
  const full = withRules(checked, rowRuleOf(actor, table, 'select'));
  const key = quotedColumn(column);
  const out = new SqlText(db.dialect.userTables.numberedParameters).raw(
    `SELECT ${key} AS k, count(*) AS n FROM ${quotedTable(table.id)}`,
  );
  if (full) {
    out.raw(' WHERE ');
    writeCondition(out, db.dialect, table, full);
  }
  out.raw(` GROUP BY ${key}`);
  const rows = await db.readRows(out.compiled<{ k: number | string | null; n: number | string }>());
  const counts = new Map<number, number>();
  for (const row of rows) if (row.k !== null) counts.set(Number(row.k), Number(row.n));
  return counts;
}
