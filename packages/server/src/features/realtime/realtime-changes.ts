import { POSTGRES_TYPE_NAMES } from '../../db/column-types/postgres-type-names.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { RecordChange } from '../records/record-events.js';
import { admits, type RowRule, rowRuleOf } from '../records/record-rules.js';
import type { RecordRow } from '../records/record-values.js';

// What one subscriber hears of one record change: the payload of a postgres_changes message (schema, table,
// commit_timestamp, type, columns with PostgreSQL type names so the client converts values, record, old_record,
// errors), cut to what the table's access rules let the subscriber select, as PostgreSQL's row-level security
// would: an INSERT or UPDATE reaches a subscriber who may select the new row; a DELETE reaches anyone whose rule
// is not `nobody`, its old_record whole when they may select the old row, else only its id (what Supabase sends
// for a row it cannot check). An UPDATE's old_record is likewise whole or only the id.

/** Visibility is how much of a change a subscriber may see: none, or the new row and whole or id-only old row. */
export type Visibility = null | { oldWhole: boolean };

/** ColumnInfo is one column as postgres_changes names it. */
export interface ColumnInfo {
  name: string;
  type: string;
}

const columnsCache = new WeakMap<TableDefinition, ColumnInfo[]>();

/** columnsOf lists a table's columns, the system ones included, with PostgreSQL type names. */
export function columnsOf(table: TableDefinition): ColumnInfo[] {
  let columns = columnsCache.get(table);
  if (!columns) {
    columns = [{ name: 'id', type: 'int8' }];
    for (const [name, column] of Object.entries(table.schema))
      columns.push({ name, type: POSTGRES_TYPE_NAMES[column.type] });
    columns.push({ name: 'created_at', type: 'timestamptz' }, { name: 'updated_at', type: 'timestamptz' });
    columnsCache.set(table, columns);
  }
  return columns;
}

/** selectRuleOf is the rule that decides which rows a subscriber hears. */
export function selectRuleOf(actor: Actor, table: TableDefinition): RowRule {
  return rowRuleOf(actor, table, 'select');
}

/** visibilityOf decides what a subscriber under `rule` hears of one change. */
export function visibilityOf(rule: RowRule, change: RecordChange): Visibility {
  if (rule.kind === 'all') return { oldWhole: true };
  if (rule.kind === 'none') return null;
  const oldWhole = change.oldRecord !== null && admits(rule, change.oldRecord);
  if (change.type === 'DELETE') return { oldWhole };
  return change.record !== null && admits(rule, change.record) ? { oldWhole } : null;
}

/** recordsSeen are the record and old record a subscriber is shown (what its filter is checked against). */
export function recordsSeen(
  change: RecordChange,
  visibility: Exclude<Visibility, null>,
): { record: RecordRow | null; oldRecord: RecordRow | { id: number } | null } {
  const old = change.oldRecord;
  return {
    record: change.type === 'DELETE' ? null : change.record,
    oldRecord: old === null ? null : visibility.oldWhole ? old : { id: old.id },
  };
}

/** changeData is the `data` of a postgres_changes message, as JSON text (shared by every subscriber that sees it). */
export function changeData(
  table: TableDefinition,
  change: RecordChange,
  visibility: Exclude<Visibility, null>,
  commitTimestamp: string,
): string {
  const { record, oldRecord } = recordsSeen(change, visibility);
  return JSON.stringify({
    schema: 'public',
    table: table.name,
    commit_timestamp: commitTimestamp,
    type: change.type,
    eventType: change.type,
    columns: columnsOf(table),
    ...(record !== null ? { record } : {}),
    ...(change.type !== 'INSERT' ? { old_record: oldRecord ?? {} } : {}),
    errors: null,
  });
}
