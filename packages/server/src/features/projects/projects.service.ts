import { randomUUID } from 'node:crypto';
import {
  createProjectSchema,
  type Project,
  type ProjectAction,
  type ProjectRole,
  projectRoleSchema,
  roleCan,
  updateProjectSchema,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { conflict, notFound, roleForbidden } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import './project-events.js';
import {
  deleteProjectRow,
  findProjectForMember,
  insertProject,
  listProjectsOfMember,
  lockProject,
  type ProjectRow,
  updateMembershipRole,
  updateProjectRow,
} from './projects.store.js';

// Projects: team workspaces that accounts are members of with a role. Every call is made by a member
// (anyone else meets 404, as for a project that does not exist) and checked against the role matrix
// (shared PROJECT_PERMISSIONS); a role that may not is refused with 403 naming it. Members are in
// project-members.service.ts, table links in project-tables.service.ts, layouts in schema-layouts.service.ts.

/** MemberProject is a project as one member sees it: the row and the member's role. */
export interface MemberProject {
  row: ProjectRow;
  role: ProjectRole;
}

const DOING: Record<ProjectAction, string> = {
  'project.delete': 'delete or transfer this project',
  'project.edit': "edit this project's details",
  'members.manage': 'add, change or remove members',
  'schema.write': 'change schemas, layouts or table links',
  'records.write': 'change records',
  read: 'read this project',
};

/** projectNotFound is the 404 of an unknown project, or one the caller is not a member of. */
export const projectNotFound = () => notFound('Project not found', 'project_not_found');

const isProjectId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** toProject renders a project for one member. */
export function toProject(row: ProjectRow, role: ProjectRole): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    ownerId: row.owner_id,
    icon: row.icon,
    color: row.color,
    isActive: Number(row.is_active) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    role,
  };
}

/**
 * memberProject reads a project the actor is a member of (404 otherwise) and, with `action`, checks that its
 * role may do it (403 naming the role). In a scope with `lock`, the project's row is locked first (PostgreSQL),
 * so that membership changes of one project happen one at a time.
 */
export async function memberProject(
  db: Db,
  actor: Actor,
  projectId: string,
  action: ProjectAction = 'read',
  options: { lock?: boolean } = {},
): Promise<MemberProject> {
  if (!isProjectId(projectId)) throw projectNotFound();
  if (options.lock && !(await lockProject(db.kysely, projectId))) throw projectNotFound();
  const found = await findProjectForMember(db.kysely, projectId, actor.accountId);
  const role = found ? projectRoleSchema.safeParse(found.role) : null;
  if (!found || !role?.success) throw projectNotFound();
  if (!roleCan(role.data, action)) throw roleForbidden(role.data, DOING[action]);
  const { role: _role, ...row } = found;
  return { row, role: role.data };
}

/** listProjects lists the projects the actor is a member of, newest first, with its role in each. */
export async function listProjects(db: Db, actor: Actor): Promise<Project[]> {
  const rows = await listProjectsOfMember(db.kysely, actor.accountId);
  return rows.flatMap(({ role, ...row }) => {
    const parsed = projectRoleSchema.safeParse(role);
    return parsed.success ? [toProject(row, parsed.data)] : [];
  });
}

/** createProject creates a project (createProjectSchema) with the actor as its OWNER. */
export async function createProject(db: Db, actor: Actor, input: unknown): Promise<Project> {
  const request = parseInput(createProjectSchema, input);
  const now = new Date().toISOString();
  const row: ProjectRow = {
    id: randomUUID(),
    name: request.name,
    description: request.description?.trim() || null,
    owner_id: actor.accountId,
    icon: null,
    color: null,
    is_active: 1,
    created_at: now,
    updated_at: now,
  };
  await db.transaction((scope) => insertProject(scope.kysely, row));
  return toProject(row, 'OWNER');
}

/** getProject returns one of the actor's projects. */
export async function getProject(db: Db, actor: Actor, projectId: string): Promise<Project> {
  const { row, role } = await memberProject(db, actor, projectId);
  return toProject(row, role);
}

/** updateProject changes a project's name, description, icon, colour or active flag (OWNER and ADMIN). */
export async function updateProject(db: Db, actor: Actor, projectId: string, input: unknown): Promise<Project> {
  const request = parseInput(updateProjectSchema, input);
  return db.transaction(async (scope) => {
    const { row, role } = await memberProject(scope, actor, projectId, 'project.edit', { lock: true });
    const changes = {
      ...(request.name !== undefined ? { name: request.name } : {}),
      ...(request.description !== undefined ? { description: request.description?.trim() || null } : {}),
      ...(request.icon !== undefined ? { icon: request.icon } : {}),
      ...(request.color !== undefined ? { color: request.color } : {}),
      ...(request.isActive !== undefined ? { is_active: request.isActive ? 1 : 0 } : {}),
      updated_at: new Date().toISOString(),
    };
    await updateProjectRow(scope.kysely, projectId, changes);
    return toProject({ ...row, ...changes }, role);
  });
}

/** deleteProject deletes a project with its memberships, links and layouts (OWNER); the tables stay. */
export async function deleteProject(db: Db, actor: Actor, projectId: string): Promise<Project> {
  return db.transaction(async (scope) => {
    const { row, role } = await memberProject(scope, actor, projectId, 'project.delete', { lock: true });
    await deleteProjectRow(scope.kysely, projectId);
    scope.publish('project.members', { projectId, accountId: null });
    return toProject(row, role);
  });
}

/**
 * transferProject makes another member the project's owner (OWNER): it becomes OWNER and the project's ownerId,
 * and the actor stays a member as ADMIN.
 */
export async function transferProject(db: Db, actor: Actor, projectId: string, toAccountId: string): Promise<Project> {
  return db.transaction(async (scope) => {
    const { row } = await memberProject(scope, actor, projectId, 'project.delete', { lock: true });
    if (toAccountId === actor.accountId) throw conflict('You already own this project', 'already_owner');
    const target = await findProjectForMember(scope.kysely, projectId, toAccountId);
    if (!target) throw notFound('Member not found', 'member_not_found');
    const now = new Date().toISOString();
    await updateMembershipRole(scope.kysely, projectId, toAccountId, 'OWNER');
    await updateMembershipRole(scope.kysely, projectId, actor.accountId, 'ADMIN');
    await updateProjectRow(scope.kysely, projectId, { owner_id: toAccountId, updated_at: now });
    scope.publish('project.members', { projectId, accountId: actor.accountId });
    scope.publish('project.members', { projectId, accountId: toAccountId });
    return toProject({ ...row, owner_id: toAccountId, updated_at: now }, 'ADMIN');
  });
}
