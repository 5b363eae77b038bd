import type { Kysely, Selectable } from 'kysely';
import type { ProjectsTable, SystemDatabase } from '../../db/schema.js';

// The SQL of projects, their memberships and their table links. Layouts are in schema-layouts.store.ts.

type Db = Kysely<SystemDatabase>;

/** ProjectRow is a stored project. */
export type ProjectRow = Selectable<ProjectsTable>;

/** ProjectWithRole is a project and one account's role in it. */
export type ProjectWithRole = ProjectRow & { role: string };

/** insertProject stores a new project and its owner's OWNER membership. */
export async function insertProject(db: Db, row: ProjectRow): Promise<void> {
  await db.insertInto('projects').values(row).execute();
  await db
    .insertInto('project_memberships')
    .values({
      project_id: row.id,
      account_id: row.owner_id,
      role: 'OWNER',
      joined_at: row.created_at,
      invited_by: null,
      created_at: row.created_at,
    })
    .execute();
}

/** findProjectForMember reads a project with the account's role in it, or undefined when it is not a member. */
export function findProjectForMember(db: Db, projectId: string, accountId: string) {
  return db
    .selectFrom('projects')
    .innerJoin('project_memberships as m', 'm.project_id', 'projects.id')
    .selectAll('projects')
    .select('m.role')
    .where('projects.id', '=', projectId)
    .where('m.account_id', '=', accountId)
    .executeTakeFirst();
}

/** listProjectsOfMember lists the projects an account is a member of, with its role, newest first. */
export function listProjectsOfMember(db: Db, accountId: string): Promise<ProjectWithRole[]> {
  return db
    .selectFrom('projects')
    .innerJoin('project_memberships as m', 'm.project_id', 'projects.id')
    .selectAll('projects')
    .select('m.role')
    .where('m.account_id', '=', accountId)
    .orderBy('projects.created_at', 'desc')
    .orderBy('projects.id')
    .execute();
}

/** updateProjectRow changes a project's details. */
export async function updateProjectRow(
  db: Db,
  projectId: string,
  changes: Partial<Pick<ProjectRow, 'name' | 'description' | 'icon' | 'color' | 'is_active' | 'owner_id'>> & {
    updated_at: string;
  },
): Promise<void> {
  await db.updateTable('projects').set(changes).where('id', '=', projectId).execute();
}

/** deleteProjectRow deletes a project (memberships, links and layouts go with it). */
export async function deleteProjectRow(db: Db, projectId: string): Promise<void> {
  await db.deleteFrom('project_memberships').where('project_id', '=', projectId).execute();
  await db.deleteFrom('table_projects').where('project_id', '=', projectId).execute();
  await db.deleteFrom('schema_layout_versions').where('project_id', '=', projectId).execute();
  await db.deleteFrom('schema_layouts').where('project_id', '=', projectId).execute();
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
}

/** MemberRow is a member with the account's name and email. */
export interface MemberRow {
  account_id: string;
  username: string | null;
  email: string;
  role: string;
  joined_at: string;
  invited_by: string | null;
}

/** listMemberRows lists a project's members, in the order they joined. */
export function listMemberRows(db: Db, projectId: string): Promise<MemberRow[]> {
  return db
    .selectFrom('project_memberships as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.account_id', 'a.username', 'a.email', 'm.role', 'm.joined_at', 'm.invited_by'])
    .where('m.project_id', '=', projectId)
    .orderBy('m.id')
    .execute();
}

/** findMemberRow reads one member of a project, or undefined. */
export function findMemberRow(db: Db, projectId: string, accountId: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom('project_memberships as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.account_id', 'a.username', 'a.email', 'm.role', 'm.joined_at', 'm.invited_by'])
    .where('m.project_id', '=', projectId)
    .where('m.account_id', '=', accountId)
    .executeTakeFirst();
}

/** insertMembership adds a member. */
export async function insertMembership(
  db: Db,
  row: { projectId: string; accountId: string; role: string; invitedBy: string; now: string },
): Promise<void> {
  await db
    .insertInto('project_memberships')
    .values({
      project_id: row.projectId,
      account_id: row.accountId,
      role: row.role,
      joined_at: row.now,
      invited_by: row.invitedBy,
      created_at: row.now,
    })
    .execute();
}

/** updateMembershipRole changes a member's role. */
export async function updateMembershipRole(db: Db, projectId: string, accountId: string, role: string): Promise<void> {
  await db
    .updateTable('project_memberships')
    .set({ role })
    .where('project_id', '=', projectId)
    .where('account_id', '=', accountId)
    .execute();
}

/** deleteMembership removes a member. */
export async function deleteMembership(db: Db, projectId: string, accountId: string): Promise<void> {
  await db
    .deleteFrom('project_memberships')
    .where('project_id', '=', projectId)
    .where('account_id', '=', accountId)
    .execute();
}

/** countOwners counts a project's OWNER members. */
export async function countOwners(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('project_memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .where('role', '=', 'OWNER')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * lockProject locks a project's row for the rest of the transaction with a write that changes nothing (a row
 * lock on PostgreSQL, the write lock on SQLite); false when there is no such project.
 */
export async function lockProject(db: Db, projectId: string): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', projectId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** findAccountIdByLogin finds an account by email or username (both compared without case), or undefined. */
export async function findAccountIdByLogin(
  db: Db,
  login: { email?: string | undefined; username?: string | undefined },
): Promise<string | undefined> {
  let query = db.selectFrom('accounts').select('id');
  if (login.email) query = query.where('email', '=', login.email.toLowerCase());
  else if (login.username) query = query.where('username_key', '=', login.username.toLowerCase());
  else return undefined;
  return (await query.executeTakeFirst())?.id;
}

/** LinkedTableRow is a table linked to a project, with its owner. */
export interface LinkedTableRow {
  id: number;
  name: string;
  description: string | null;
  schema: string;
  account_id: string;
  owner_username: string | null;
  owner_email: string;
  created_at: string;
  linked_at: string;
  project_id: string;
}

const linkedTableColumns = [
  't.id',
  't.name',
  't.description',
  't.schema',
  't.account_id',
  'a.username as owner_username',
  'a.email as owner_email',
  't.created_at',
  'l.created_at as linked_at',
  'l.project_id',
] as const;

/** listLinkedTableRows lists the existing tables linked to a project, by name. */
export function listLinkedTableRows(db: Db, projectId: string): Promise<LinkedTableRow[]> {
  return db
    .selectFrom('table_projects as l')
    .innerJoin('user_tables as t', 't.id', 'l.table_id')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(linkedTableColumns)
    .where('l.project_id', '=', projectId)
    .orderBy('t.name_key')
    .execute();
}

/** SharedTableRow is a linked table of another account, with the project and the member's role. */
export type SharedTableRow = LinkedTableRow & { project_name: string; role: string };

/** listSharedTableRows lists the tables other accounts share with an account through its projects. */
export function listSharedTableRows(db: Db, accountId: string): Promise<SharedTableRow[]> {
  return db
    .selectFrom('project_memberships as m')
    .innerJoin('table_projects as l', 'l.project_id', 'm.project_id')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('user_tables as t', 't.id', 'l.table_id')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select([...linkedTableColumns, 'p.name as project_name', 'm.role'])
    .where('m.account_id', '=', accountId)
    .where('t.account_id', '!=', accountId)
    .orderBy('t.name_key')
    .orderBy('p.name')
    .execute();
}

/** insertTableLink links a table to a project; false when it already was. */
export async function insertTableLink(db: Db, projectId: string, tableId: number, now: string): Promise<boolean> {
  const found = await db
    .selectFrom('table_projects')
    .select('id')
    .where('project_id', '=', projectId)
    .where('table_id', '=', tableId)
    .executeTakeFirst();
  if (found) return false;
  await db.insertInto('table_projects').values({ project_id: projectId, table_id: tableId, created_at: now }).execute();
  return true;
}

/** deleteTableLink unlinks a table from a project; false when it was not linked. */
export async function deleteTableLink(db: Db, projectId: string, tableId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('table_projects')
    .where('project_id', '=', projectId)
    .where('table_id', '=', tableId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
