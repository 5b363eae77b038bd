import { type ProjectAction, roleCan } from '@basalt/shared';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError, notFound } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';

// Who may read and write a table's records and change its schema, in one place. A table is reached by its owning
// account (its console session, its API keys) with every right, and by the members of a project it is linked to
// (an actor with `memberId`, `projectId` and `role`, built by features/projects/project-access.ts) with what
// their role allows: the role matrix below. Anyone else meets the same
// 404 as for a table that does not exist; a member whose role may not gets 403 naming the role.

/** RecordAction is what an actor does with a table: read it, write its records, or change its schema. */
export type RecordAction = 'read' | 'write' | 'schema';

// The role matrix, by action: which row of PROJECT_PERMISSIONS decides.
const MATRIX_ROW: Record<RecordAction, ProjectAction> = {
  read: 'read',
  write: 'records.write',
  schema: 'schema.write',
};

const DOING: Record<RecordAction, string> = {
  read: 'read this table',
  write: 'change records, revert record changes or create checkpoints',
  schema: 'change schemas, restore versions or checkpoints, or edit layouts and links',
};

/** reaches tells whether the actor reaches the table at all (its own, or shared with it through a project). */
function reaches(actor: Actor, table: TableDefinition): boolean {
  return table.accountId === actor.accountId;
}

/** can tells whether the actor may do `action` with the table. */
export function can(actor: Actor, action: RecordAction, table: TableDefinition): boolean {
  if (!reaches(actor, table)) return false;
  if (actor.memberId === undefined) return true;
  return actor.role !== undefined && roleCan(actor.role, MATRIX_ROW[action]);
}

/** roleForbidden is the 403 of a member whose role may not do an action. */
export function roleForbidden(role: string, doing: string): ApiError {
  return new ApiError(403, 'role_forbidden', `Your role in this project (${role}) does not allow you to ${doing}.`);
}

/** assertCan refuses an actor who may not: 404 as for a missing table, or 403 naming the member's role. */
export function assertCan(actor: Actor, action: RecordAction, table: TableDefinition): void {
  if (can(actor, action, table)) return;
  if (!reaches(actor, table)) throw notFound(`Could not find the table '${table.name}'`, 'PGRST205');
  throw roleForbidden(actor.role ?? 'none', DOING[action]);
}
