import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

// The one read of another feature's table that member access needs: who owns a table definition.

/** findTableOwner returns the account owning a table definition, or undefined when there is none. */
export async function findTableOwner(db: Kysely<SystemDatabase>, tableId: number): Promise<string | undefined> {
  const row = await db.selectFrom('user_tables').select('account_id').where('id', '=', tableId).executeTakeFirst();
  return row?.account_id;
}

/** findChangeTableId returns the table a history change is about, or undefined. */
export async function findChangeTableId(db: Kysely<SystemDatabase>, changeId: number): Promise<number | undefined> {
  const row = await db.selectFrom('change_history').select('table_id').where('id', '=', changeId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.table_id);
}

/** findCheckpointTableId returns the table a checkpoint belongs to, or undefined. */
export async function findCheckpointTableId(db: Kysely<SystemDatabase>, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('checkpoints').select('table_id').where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : Number(row.table_id);
}
