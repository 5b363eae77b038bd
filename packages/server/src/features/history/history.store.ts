import type { Kysely, Selectable } from 'kysely';
import type { ChangeHistoryTable, SystemDatabase } from '../../db/schema.js';

// The SQL of the change history. Writers pass the transaction of the change they record, so a change and
// its history commit or roll back together (DESIGN.md principle 4).

type Db = Kysely<SystemDatabase>;

/** ChangeRow is one stored history entry. */
export type ChangeRow = Selectable<ChangeHistoryTable>;

/**
 * ChangeFilter selects an account's changes, optionally of one table (also one that was deleted) or, with
 * `functions`, of its SQL functions (kept under negative table ids).
 */
export interface ChangeFilter {
  accountId: string;
  tableId?: number | undefined;
  functions?: boolean | undefined;
}

/**
 * listChangesPage returns one page of changes, newest first: those older than change `before` when it is given
 * (a range read at any depth), else `offset` changes down (which walks the index past every change above the
 * page).
 *
 * The page's ids are read first, from the (account_id, table_id, id) index alone, and then their rows. Asked for
 * the rows at once, PostgreSQL walks the primary key backwards instead and filters, expecting a table's changes
 * to be spread evenly over the ids: when another table's 100,000 changes are newer, it reads all of them before
 * the first of this page (and the row of every change an offset skips).
 */
export async function listChangesPage(
  db: Db,
  filter: ChangeFilter,
  { limit, offset, before }: { limit: number; offset: number; before?: number | undefined },
): Promise<ChangeRow[]> {
  let ids = db.selectFrom('change_history').select('id').where('account_id', '=', filter.accountId);
  if (filter.tableId !== undefined) ids = ids.where('table_id', '=', filter.tableId);
  if (filter.functions) ids = ids.where('table_id', '<', 0);
  if (before !== undefined) ids = ids.where('id', '<', before);
  ids = ids.orderBy('id', 'desc').limit(limit).offset(offset);
  return db.selectFrom('change_history').selectAll().where('id', 'in', ids).orderBy('id', 'desc').execute();
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

/** findLatestChange reads a table's newest change, or null (its id first, as listChangesPage explains). */
export async function findLatestChange(db: Db, accountId: string, tableId: number): Promise<ChangeRow | null> {
  const id = await latestChangeId(db, accountId, tableId);
  return id === null ? null : findChangeById(db, accountId, id);
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

/** ChangeLink is a change's id and the change it reverted, if any. */
export interface ChangeLink {
  id: number;
  revertOf: number | null;
}

/** listChangeLinks reads the id and revert_of of a table's changes with after < id, oldest first (no states). */
export async function listChangeLinks(
  db: Db,
  accountId: string,
  tableId: number,
  after: number,
): Promise<ChangeLink[]> {
  const rows = await db
    .selectFrom('change_history')
    .select(['id', 'revert_of'])
    .where('account_id', '=', accountId)
    .where('table_id', '=', tableId)
    .where('id', '>', after)
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => ({ id: Number(row.id), revertOf: row.revert_of === null ? null : Number(row.revert_of) }));
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

/** ExpiredChanges are the ids of a batch of changes older than the retention, and whether the walk has ended. */
export interface ExpiredChanges {
  ids: number[];
  /** True once the walk has met a change made at or after the cutoff, or the end of history. */
  done: boolean;
}

/**
 * listExpiredChanges reads, oldest first, up to `limit` changes after the change `afterId` (the last of the batch
 * before): a range of the primary key, whose ids grow with time, so the walk ends at the first change made at or
 * after `cutoff` without an index of its own (which every write would pay for).
 */
export async function listExpiredChanges(
  db: Db,
  cutoff: string,
  { afterId, limit }: { afterId: number | null; limit: number },
): Promise<ExpiredChanges> {
  let query = db.selectFrom('change_history').select(['id', 'created_at']);
  if (afterId !== null) query = query.where('id', '>', afterId);
  const rows = await query.orderBy('id').limit(limit).execute();
  const ids: number[] = [];
  for (const row of rows) {
    if (row.created_at >= cutoff) return { ids, done: true };
    ids.push(Number(row.id));
  }
  return { ids, done: rows.length < limit };
}

/** DeletedChange is whose change of which table a delete removed. */
export interface DeletedChange {
  accountId: string;
  tableId: number;
}

/**
 * deleteUnneededChanges deletes those of the given changes that no checkpoint needs: a checkpoint needs every
 * change of its table from its own change on (all of them when it names none). It returns what it deleted.
 */
export async function deleteUnneededChanges(db: Db, ids: number[]): Promise<DeletedChange[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .deleteFrom('change_history')
    .where('change_history.id', 'in', ids)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('checkpoints as c')
            .select('c.id')
            .whereRef('c.table_id', '=', 'change_history.table_id')
            .whereRef('c.account_id', '=', 'change_history.account_id')
            .where((inner) =>
              inner.or([inner('c.change_id', 'is', null), inner('c.change_id', '<=', inner.ref('change_history.id'))]),
            ),
        ),
      ),
    )
    .returning(['account_id', 'table_id'])
    .execute();
  return rows.map((row) => ({ accountId: row.account_id, tableId: Number(row.table_id) }));
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

/**
 * findFirstSchemaChangeAfter reads a table's oldest change of its definition (SCHEMA_*) with id > after, or null:
 * the state it saved as "before" is the table's definition just after change `after`.
 */
export async function findFirstSchemaChangeAfter(
  db: Db,
  accountId: string,
  tableId: number,
  after: number,
): Promise<ChangeRow | null> {
  const row = await db
    .selectFrom('change_history')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('table_id', '=', tableId)
    .where('id', '>', after)
    .where('change_type', 'in', ['SCHEMA_CREATE', 'SCHEMA_UPDATE', 'SCHEMA_DELETE'])
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** listGroupChanges reads the changes of one delete that cascaded (their shared change_group), newest first. */
export async function listGroupChanges(db: Db, accountId: string, group: string): Promise<ChangeRow[]> {
  return db
    .selectFrom('change_history')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('change_group', '=', group)
    .orderBy('id', 'desc')
    .execute();
}
