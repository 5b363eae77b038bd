import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

// What member access reads: who owns a table, which table a change or checkpoint is about, and the projects
// through which an account reaches a table.

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

/** TableMembershipRow is one of an account's roles over a table: a project linking it, and the role there. */
export interface TableMembershipRow {
  project_id: string;
  role: string;
}

/** listTableMemberships lists the projects linking a table in which the account is a member, with its roles. */
export function listTableMemberships(
  db: Kysely<SystemDatabase>,
  accountId: string,
  tableId: number,
): Promise<TableMembershipRow[]> {
  return db
    .selectFrom('table_projects as l')
    .innerJoin('project_memberships as m', 'm.project_id', 'l.project_id')
    .select(['l.project_id', 'm.role'])
    .where('l.table_id', '=', tableId)
    .where('m.account_id', '=', accountId)
    .execute();
}

/** isTableLinked tells whether a table is linked to a project. */
export async function isTableLinked(db: Kysely<SystemDatabase>, projectId: string, tableId: number): Promise<boolean> {
  const row = await db
    .selectFrom('table_projects')
    .select('id')
    .where('project_id', '=', projectId)
    .where('table_id', '=', tableId)
    .executeTakeFirst();
  return row !== undefined;
}
