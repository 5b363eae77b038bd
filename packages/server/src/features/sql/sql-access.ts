import { roleCan } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { ApiError, forbidden, notFound } from '../../http/errors.js';
import { type Actor, accountActor, type ProjectRole } from '../../lib/actor/actor.js';
import { memberProject } from '../projects/projects.service.js';

// Who may use SQL Execution in a project: its members from DEVELOPER up (OWNER, ADMIN, DEVELOPER). Connections,
// files, runs and history all pass this one check. A project the caller is not a member of, or that does not
// exist, is answered as not found, so that ids of other people's projects reveal nothing.

/** ProjectRoles tells an account's role in a project, or null when it has none (or the project does not exist). */
export interface ProjectRoles {
  roleOf(db: Db, accountId: string, projectId: string): Promise<ProjectRole | null>;
}

/** projectRoles is the lookup in use: the projects area's membership. */
export const projectRoles: ProjectRoles = {
  async roleOf(db, accountId, projectId) {
    try {
      return (await memberProject(db, accountActor(accountId), projectId)).role;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
};

/** SqlAccess is canRunSql's answer: allowed (with the role), forbidden (a member below DEVELOPER), or not found. */
export type SqlAccess = { allowed: true; role: ProjectRole } | { allowed: false; reason: 'forbidden' | 'not_found' };

/** canRunSql decides whether an actor may use SQL Execution in a project. */
export async function canRunSql(
  db: Db,
  actor: Actor,
  projectId: string,
  roles: ProjectRoles = projectRoles,
): Promise<SqlAccess> {
  const role = await roles.roleOf(db, actor.accountId, projectId);
  if (!role) return { allowed: false, reason: 'not_found' };
  // Running SQL is a schema change in the projects' role table: DEVELOPER and up.
  return roleCan(role, 'schema.write') ? { allowed: true, role } : { allowed: false, reason: 'forbidden' };
}

/** requireSqlAccess returns the actor acting in the project with its role, or throws 404 / 403. */
export async function requireSqlAccess(
  db: Db,
  actor: Actor,
  projectId: string,
): Promise<Actor & { projectId: string }> {
  const access = await canRunSql(db, actor, projectId);
  if (access.allowed) return { ...actor, projectId, role: access.role };
  if (access.reason === 'forbidden') {
    throw forbidden('Running SQL in this project needs the DEVELOPER role or higher', 'sql_role_required');
  }
  throw notFound('Project not found', 'project_not_found');
}
