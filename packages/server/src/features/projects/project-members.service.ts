import {
  addMemberSchema,
  type ProjectMember,
  type ProjectRole,
  projectRoleSchema,
  roleRank,
  updateMemberSchema,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { conflict, notFound, roleForbidden } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { memberProject } from './projects.service.js';
import {
  countOwners,
  deleteMembership,
  findAccountIdByLogin,
  findMemberRow,
  insertMembership,
  listMemberRows,
  type MemberRow,
  updateMembershipRole,
} from './projects.store.js';

// A project's members: OWNER and ADMIN invite existing accounts with a role (VIEWER by default),
// change roles and remove members; an ADMIN only up to ADMIN, and never touches an OWNER. Anyone may leave.
// A project always keeps one OWNER. Each change runs with the project's row locked, so two changes of one
// project's members never interleave (two owners demoting each other at once cannot leave it without one).

const memberNotFound = () => notFound('Member not found', 'member_not_found');
const lastOwner = () =>
  conflict('A project must keep at least one owner; make another member OWNER first', 'last_owner');

function toMember(row: MemberRow): ProjectMember {
  const role = projectRoleSchema.safeParse(row.role);
  return {
    accountId: row.account_id,
    username: row.username,
    email: row.email,
    role: role.success ? role.data : 'VIEWER',
    joinedAt: row.joined_at,
    invitedBy: row.invited_by,
  };
}

// An ADMIN manages members up to ADMIN: it may neither grant OWNER nor change or remove an OWNER.
function assertMayManage(actorRole: ProjectRole, role: ProjectRole): void {
  if (roleRank(role) < roleRank(actorRole)) {
    throw roleForbidden(actorRole, `manage members with the role ${role}`);
  }
}

/** listMembers lists a project's members (any member may). */
export async function listMembers(db: Db, actor: Actor, projectId: string): Promise<ProjectMember[]> {
  await memberProject(db, actor, projectId);
  return (await listMemberRows(db.kysely, projectId)).map(toMember);
}

/** addMember invites an existing account, by email or username, with a role (addMemberSchema). */
export async function addMember(db: Db, actor: Actor, projectId: string, input: unknown): Promise<ProjectMember> {
  const request = parseInput(addMemberSchema, input);
  return db.transaction(async (scope) => {
    const { role: actorRole } = await memberProject(scope, actor, projectId, 'members.manage', { lock: true });
    assertMayManage(actorRole, request.role);
    const accountId = await findAccountIdByLogin(scope.kysely, request);
    if (!accountId) throw notFound('No account has that email or username', 'account_not_found');
    if (await findMemberRow(scope.kysely, projectId, accountId)) {
      throw conflict('That account is already a member of this project', 'already_member');
    }
    const now = new Date().toISOString();
    await insertMembership(scope.kysely, { projectId, accountId, role: request.role, invitedBy: actor.accountId, now });
    const row = await findMemberRow(scope.kysely, projectId, accountId);
    if (!row) throw new Error('addMember: the membership was not stored');
    scope.publish('project.members', { projectId, accountId });
    return toMember(row);
  });
}

/** updateMember changes a member's role (OWNER and ADMIN, an ADMIN up to ADMIN); one OWNER always stays. */
export async function updateMember(
  db: Db,
  actor: Actor,
  projectId: string,
  accountId: string,
  input: unknown,
): Promise<ProjectMember> {
  const { role } = parseInput(updateMemberSchema, input);
  return db.transaction(async (scope) => {
    const { role: actorRole } = await memberProject(scope, actor, projectId, 'members.manage', { lock: true });
    const row = await findMemberRow(scope.kysely, projectId, accountId);
    if (!row) throw memberNotFound();
    const current = toMember(row).role;
    assertMayManage(actorRole, current);
    assertMayManage(actorRole, role);
    if (current === 'OWNER' && role !== 'OWNER' && (await countOwners(scope.kysely, projectId)) <= 1) throw lastOwner();
    await updateMembershipRole(scope.kysely, projectId, accountId, role);
    scope.publish('project.members', { projectId, accountId });
    return toMember({ ...row, role });
  });
}

/**
 * removeMember removes a member: the actor itself (leaving, any role), or another member (OWNER and ADMIN, an
 * ADMIN not an OWNER). The last OWNER can neither leave nor be removed.
 */
export async function removeMember(db: Db, actor: Actor, projectId: string, accountId: string): Promise<ProjectMember> {
  const leaving = accountId === actor.accountId;
  return db.transaction(async (scope) => {
    const { role: actorRole } = await memberProject(scope, actor, projectId, leaving ? 'read' : 'members.manage', {
      lock: true,
    });
    const row = await findMemberRow(scope.kysely, projectId, accountId);
    if (!row) throw memberNotFound();
    const member = toMember(row);
    if (!leaving) assertMayManage(actorRole, member.role);
    if (member.role === 'OWNER' && (await countOwners(scope.kysely, projectId)) <= 1) throw lastOwner();
    await deleteMembership(scope.kysely, projectId, accountId);
    scope.publish('project.members', { projectId, accountId });
    return member;
  });
}
