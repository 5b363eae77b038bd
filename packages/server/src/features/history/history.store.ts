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
  /** The change this one reverts (features/history revert and restore); absent for every other change. */
  revertOf?: number | null;
}

/** ChangeRow is one stored history entry. */
export type ChangeRow = Selectable<ChangeHistoryTable>;

// Eleven columns per row: 1,000 rows stay far below both engines' limit of bound values.
const INSERT_CHUNK = 1_000;

const stateText = (state: unknown) => (state === null || state === undefined ? null : JSON.stringify(state));

const INSERT_HEAD = `INSERT INTO "change_history" ("account_id", "table_id", "table_name", "record_id", "change_type",
  "previous_state", "new_state", "actor_id", "created_at", "revert_of") VALUES `;

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
        change.revertOf ?? null,
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

/** findChangeById reads one of an account's changes, or null (a revert starts here). */
export async function findChangeById(db: Db, accountId: string, id: number): Promise<ChangeRow | null> {
  const row = await db
    .selectFrom('change_history')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ?? null;
}

/** latestChangeId is the id of a table's newest change, or null when it has none. */
export async function latestChangeId(db: Db, accountId: string, tableId: number): Promise<number | null> {
  const row = await db
    .selectFrom('change_history')
    .select('id')
    .where('account_id', '=', accountId)
    .where('table_id', '=', tableId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** findLatestChange reads a table's newest change, or null. */
export async function findLatestChange(db: Db, accountId: string, tableId: number): Promise<ChangeRow | null> {
  const row = await db
    .selectFrom('change_history')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('table_id', '=', tableId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * listChangesBetween reads up to `limit` of a table's changes with after < id < before, newest first: a restore
 * pages through the changes it reverts with it.
 */
export async function listChangesBetween(
  db: Db,
  accountId: string,
  tableId: number,
  { after, before, limit }: { after: number; before: number; limit: number },
): Promise<ChangeRow[]> {
  return db
    .selectFrom('change_history')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('table_id', '=', tableId)
    .where('id', '>', after)
    .where('id', '<', before)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** maxRecordId is the largest record id any kept change of a table names (0 when none). */
export async function maxRecordId(db: Db, accountId: string, tableId: number): Promise<number> {
  const row = await db
    .selectFrom('change_history')
    .select((eb) => eb.fn.max('record_id').as('n'))
    .where('account_id', '=', accountId)
    .where('table_id', '=', tableId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * deleteExpiredChanges deletes up to `limit` changes made before `cutoff` that no checkpoint needs: a checkpoint
 * needs every change of its table from its own change on (all of them when it names none). It returns how
 * many it deleted.
 */
export async function deleteExpiredChanges(db: Db, cutoff: string, limit: number): Promise<number> {
  const expired = db
    .selectFrom('change_history as h')
    .select('h.id')
    .where('h.created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('checkpoints as c')
            .select('c.id')
            .whereRef('c.table_id', '=', 'h.table_id')
            .whereRef('c.account_id', '=', 'h.account_id')
            .where((inner) =>
              inner.or([inner('c.change_id', 'is', null), inner('c.change_id', '<=', inner.ref('h.id'))]),
            ),
        ),
      ),
    )
    .orderBy('h.id')
    .limit(limit);
  const result = await db.deleteFrom('change_history').where('id', 'in', expired).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** findRevertOf reads the newest change that reverted a change, or null. */
export async function findRevertOf(db: Db, accountId: string, changeId: number): Promise<ChangeRow | null> {
  const row = await db
    .selectFrom('change_history')
    .selectAll()
    .where('revert_of', '=', changeId)
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}
