import type { Kysely, Selectable } from 'kysely';
import type { CheckpointsTable, SystemDatabase } from '../../db/schema.js';

// The SQL of checkpoints: named marks in a table's history (features/history/checkpoints.service.ts).

type Db = Kysely<SystemDatabase>;

/** CheckpointRow is one stored checkpoint. */
export type CheckpointRow = Selectable<CheckpointsTable>;

/** NewCheckpoint is what creating a checkpoint stores. */
export interface NewCheckpoint {
  accountId: string;
  tableId: number;
  name: string;
  description: string | null;
  changeId: number | null;
  createdBy: string;
  now: string;
}

/** insertCheckpoint stores a checkpoint and returns it with its id. */
export async function insertCheckpoint(db: Db, checkpoint: NewCheckpoint): Promise<CheckpointRow> {
  return db
    .insertInto('checkpoints')
    .values({
      account_id: checkpoint.accountId,
      table_id: checkpoint.tableId,
      name: checkpoint.name,
      description: checkpoint.description,
      change_id: checkpoint.changeId,
      created_by: checkpoint.createdBy,
      created_at: checkpoint.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** listCheckpoints lists an account's checkpoints, of one table when tableId is given, newest first. */
export async function listCheckpoints(db: Db, accountId: string, tableId?: number): Promise<CheckpointRow[]> {
  let query = db.selectFrom('checkpoints').selectAll().where('account_id', '=', accountId);
  if (tableId !== undefined) query = query.where('table_id', '=', tableId);
  return query.orderBy('id', 'desc').execute();
}

/** findCheckpointById reads one of an account's checkpoints, or null. */
export async function findCheckpointById(db: Db, accountId: string, id: number): Promise<CheckpointRow | null> {
  const row = await db
    .selectFrom('checkpoints')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ?? null;
}
