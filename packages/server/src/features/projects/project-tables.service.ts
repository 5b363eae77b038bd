import {
  type ProjectRole,
  type ProjectTable,
  projectRoleSchema,
  roleCan,
  type SharedTable,
  type TableSchema,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { notFound, roleForbidden } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { findTableById, schemaWithIdColumn } from '../tables/tables.service.js';
import { memberProject } from './projects.service.js';
import {
  deleteTableLink,
  insertTableLink,
  type LinkedTableRow,
  listLinkedTableRows,
  listSharedTableRows,
} from './projects.store.js';

// Tables linked to a project: a member with a role that may change schemas (DEVELOPER and up) links
// one of its own tables, which shares it with every member per their role; unlinking takes the same role, or
// being the table's owner. A table is only ever linked by its owner, so nobody shares what is not theirs.

const tableNotFound = () => notFound('Table not found', 'table_not_found');

function toProjectTable(row: LinkedTableRow): ProjectTable {
  const schema = JSON.parse(row.schema) as TableSchema;
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    ownerId: row.account_id,
    ownerName: row.owner_username ?? row.owner_email.split('@')[0] ?? null,
    schema: schemaWithIdColumn(schema),
    createdAt: row.created_at,
    linkedAt: row.linked_at,
  };
}

/** listProjectTables lists the tables linked to a project (any member may). */
export async function listProjectTables(db: Db, actor: Actor, projectId: string): Promise<ProjectTable[]> {
  await memberProject(db, actor, projectId);
  return (await listLinkedTableRows(db.kysely, projectId)).map(toProjectTable);
}

/** linkTable links one of the actor's own tables to a project (DEVELOPER and up); linking twice changes nothing. */
export async function linkTable(db: Db, actor: Actor, projectId: string, tableId: number): Promise<ProjectTable> {
  return db.transaction(async (scope) => {
    await memberProject(scope, actor, projectId, 'schema.write', { lock: true });
    const own = await findTableById(scope, { accountId: actor.accountId }, tableId);
    if (!own) throw tableNotFound();
    await insertTableLink(scope.kysely, projectId, own.id, new Date().toISOString());
    const linked = (await listLinkedTableRows(scope.kysely, projectId)).find((row) => Number(row.id) === own.id);
    if (!linked) throw new Error('linkTable: the link was not stored');
    scope.publish('project.members', { projectId, accountId: null });
    return toProjectTable(linked);
  });
}

/** unlinkTable unlinks a table from a project (DEVELOPER and up, or the table's owner). */
export async function unlinkTable(db: Db, actor: Actor, projectId: string, tableId: number): Promise<ProjectTable> {
  return db.transaction(async (scope) => {
    const { role } = await memberProject(scope, actor, projectId, 'read', { lock: true });
    const linked = (await listLinkedTableRows(scope.kysely, projectId)).find((row) => Number(row.id) === tableId);
    if (!linked) throw tableNotFound();
    if (linked.account_id !== actor.accountId && !roleCan(role, 'schema.write')) {
      throw roleForbidden(role, 'change schemas, layouts or table links');
    }
    await deleteTableLink(scope.kysely, projectId, tableId);
    scope.publish('project.members', { projectId, accountId: null });
    return toProjectTable(linked);
  });
}

/** listSharedTables lists the tables other accounts share with the actor, each with its project and the role. */
export async function listSharedTables(db: Db, actor: Actor): Promise<SharedTable[]> {
  const rows = await listSharedTableRows(db.kysely, actor.accountId);
  return rows.flatMap((row) => {
    const role = projectRoleSchema.safeParse(row.role);
    if (!role.success) return [];
    return [{ ...toProjectTable(row), projectId: row.project_id, projectName: row.project_name, role: role.data }];
  });
}

/** roleOver reads the actor's role in a project (404 when it is not a member). */
export async function roleOver(db: Db, actor: Actor, projectId: string): Promise<ProjectRole> {
  return (await memberProject(db, actor, projectId)).role;
}
