import { type ProjectRole, projectRoleSchema, roleRank } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import { findChangeTableId, findCheckpointTableId, findTableOwner } from './project-access.store.js';
import { isTableLinked, listTableMemberships } from './projects.store.js';

// How a project member reaches a table another account owns: the routes of tables, records, history and
// checkpoints turn the signed-in caller into the actor for one table with `actorForTable`, and the services
// check that actor against the role matrix (records/record-access.ts). This module reads only the projects'
// own tables, so that tables.service can ask `isLinkedTo` without importing the projects service.

const asRole = (role: string): ProjectRole | null => {
  const parsed = projectRoleSchema.safeParse(role);
  return parsed.success ? parsed.data : null;
};

/**
 * actorForTable is the actor with which `caller` acts on table `tableId`: the caller itself when it owns the
 * table (or no such table exists), else, when a project the caller is a member of links the table, the table's
 * owner account acted on by the caller as `memberId` with its most powerful role among those projects. When
 * neither, the caller is returned as it is, and the table's services answer 404.
 */
export async function actorForTable(db: Db, caller: Actor, tableId: number): Promise<Actor> {
  if (caller.memberId !== undefined || !Number.isSafeInteger(tableId) || tableId < 1) return caller;
  const owner = await findTableOwner(db.kysely, tableId);
  if (owner === undefined || owner === caller.accountId) return caller;
  let best: { projectId: string; role: ProjectRole } | null = null;
  for (const row of await listTableMemberships(db.kysely, caller.accountId, tableId)) {
    const role = asRole(row.role);
    if (role && (!best || roleRank(role) < roleRank(best.role))) best = { projectId: row.project_id, role };
  }
  if (!best) return caller;
  return { accountId: owner, memberId: caller.accountId, projectId: best.projectId, role: best.role };
}

/** isLinkedTo tells whether a table is linked to the project a member actor acts in (true for any other actor). */
export async function isLinkedTo(db: Db, actor: Actor, tableId: number): Promise<boolean> {
  if (actor.memberId === undefined) return true;
  return actor.projectId !== undefined && isTableLinked(db.kysely, actor.projectId, tableId);
}

/** actorForChange is actorForTable for the table of a history change (the caller when there is no such change). */
export async function actorForChange(db: Db, caller: Actor, changeId: number): Promise<Actor> {
  if (!Number.isSafeInteger(changeId) || changeId < 1) return caller;
  const tableId = await findChangeTableId(db.kysely, changeId);
  return tableId === undefined ? caller : actorForTable(db, caller, tableId);
}

/** actorForCheckpoint is actorForTable for the table of a checkpoint (the caller when there is no such one). */
export async function actorForCheckpoint(db: Db, caller: Actor, checkpointId: number): Promise<Actor> {
  if (!Number.isSafeInteger(checkpointId) || checkpointId < 1) return caller;
  const tableId = await findCheckpointTableId(db.kysely, checkpointId);
  return tableId === undefined ? caller : actorForTable(db, caller, tableId);
}

/** tableIdIn reads a positive integer table id from a body or query value (a number or digits), else null. */
export function tableIdIn(value: unknown): number | null {
  const n = typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** actorForTableIn is actorForTable for a table id given in a body or query field, if it names one. */
export async function actorForTableIn(db: Db, caller: Actor, value: unknown): Promise<Actor> {
  const tableId = tableIdIn(value);
  return tableId === null ? caller : actorForTable(db, caller, tableId);
}
