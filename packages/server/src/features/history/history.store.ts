import type { Kysely, Selectable } from 'kysely';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import type { ChangeHistoryTable, SystemDatabase } from '../../db/schema.js';
import { SqlText } from '../../db/sql-text.js';

// The SQL of the change history. Writers pass the transaction of the change they record, so a change and
// its history commit or roll back together (DESIGN.md principle 4).

type Db = Kysely<SystemDatabase>;

/** ChangeType is what a history entry records (spec console-management §3 "History change"). */
export type ChangeType =
  | 'SCHEMA_CREATE'
  | 'SCHEMA_UPDATE'
  | 'SCHEMA_DELETE'
  | 'RECORD_CREATE'
  | 'RECORD_UPDATE'
  | 'RECORD_DELETE';

/** ChangeInput is one change to record; states are JSON values (null where there is none). */
export interface ChangeInput {
  accountId: string;
  tableId: number;
  tableName: string;
  recordId: number | null;
  changeType: ChangeType;
  previousState: unknown;
  newState: unknown;
  actorId: string | null;
}

/** ChangeRow is one stored history entry. */
export type ChangeRow = Selectable<ChangeHistoryTable>;

// Ten columns per row: 1,000 rows stay far below both engines' limit of bound values.
const INSERT_CHUNK = 1_000;

const stateText = (state: unknown) => (state === null || state === undefined ? null : JSON.stringify(state));

const INSERT_HEAD = `INSERT INTO "change_history" ("account_id", "table_id", "table_name", "record_id", "change_type",
  "previous_state", "new_state", "actor_id", "created_at") VALUES `;

/**
 * insertChanges stores changes in order, in as few statements as the engines allow. It runs in every record
 * write, so the statement is written as text (db/sql-text.ts) rather than through the query builder.
 */
export async function insertChanges(db: Db, dialect: SqlDialect, changes: ChangeInput[], now: string): Promise<void> {
  for (let i = 0; i < changes.length; i += INSERT_CHUNK) {
    const out = new SqlText(dialect.userTables.numberedParameters).raw(INSERT_HEAD);
    changes.slice(i, i + INSERT_CHUNK).forEach((change, n) => {
      out.raw(n === 0 ? '(' : ', (');
      out.values([
        change.accountId,
        change.tableId,
        change.tableName,
        change.recordId,
        change.changeType,
        stateText(change.previousState),
        stateText(change.newState),
        change.actorId,
        now,
      ]);
      out.raw(')');
    });
    await db.executeQuery(out.compiled());
  }
}

/** ChangeFilter selects an account's changes, optionally of one table (also one that was deleted). */
export interface ChangeFilter {
  accountId: string;
  tableId?: number | undefined;
}

/** listChangesPage returns one page of changes, newest first. */
export async function listChangesPage(
  db: Db,
  filter: ChangeFilter,
  { limit, offset }: { limit: number; offset: number },
): Promise<ChangeRow[]> {
  let query = db.selectFrom('change_history').selectAll().where('account_id', '=', filter.accountId);
  if (filter.tableId !== undefined) query = query.where('table_id', '=', filter.tableId);
  return query.orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

/** countChanges counts the changes a filter selects. */
export async function countChanges(db: Db, filter: ChangeFilter): Promise<number> {
  let query = db
    .selectFrom('change_history')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', filter.accountId);
  if (filter.tableId !== undefined) query = query.where('table_id', '=', filter.tableId);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** findChangeById reads one of an account's changes, or null (issue 5's revert starts here). */
export async function findChangeById(db: Db, accountId: string, id: number): Promise<ChangeRow | null> {
  const row = await db
    .selectFrom('change_history')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ?? null;
}
