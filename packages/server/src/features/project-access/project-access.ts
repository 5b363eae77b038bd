import { type ProjectRole, projectRoleSchema, roleRank } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import {
  findChangeTableId,
  findCheckpointTableId,
  findTableOwner,
  isTableLinked,
  listTableMemberships,
} from './project-access.store.js';

// How a project member reaches a table another account owns: one helper turns the signed-in caller into the
// actor for the table a request is about (named by its id, by a history change or by a checkpoint), once per
// request; services then check that actor against the role matrix (lib/actor/actor-can.ts). This feature reads
// only memberships and links, so that tables, records, history and projects all stand above it.

/** TableTarget names the table a request is about: directly, or through a history change or a checkpoint. */
export type TableTarget = { tableId: number } | { changeId: number } | { checkpointId: number };

const asRole = (role: string): ProjectRole | null => {
  const parsed = projectRoleSchema.safeParse(role);
  return parsed.success ? parsed.data : null;
};

const isId = (id: number) => Number.isSafeInteger(id) && id > 0;

async function tableIdOf(db: Db, target: TableTarget): Promise<number | undefined> {
  if ('tableId' in target) return isId(target.tableId) ? target.tableId : undefined;
  if ('changeId' in target) return isId(target.changeId) ? findChangeTableId(db.kysely, target.changeId) : undefined;
  return isId(target.checkpointId) ? findCheckpointTableId(db.kysely, target.checkpointId) : undefined;
}

/**
 * actorOn is the actor with which `caller` acts on the table a request is about: the caller itself when it owns
 * the table (or no such table exists), else, when a project the caller is a member of links the table, the
 * table's owner account acted on by the caller as `memberId` with its most powerful role among those projects.
 * When neither, the caller is returned as it is, and the table's services answer 404.
 */
export async function actorOn(db: Db, caller: Actor, target: TableTarget): Promise<Actor> {
  if (caller.memberId !== undefined) return caller;
  const tableId = await tableIdOf(db, target);
  if (tableId === undefined) return caller;
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

/** tableIdIn reads a positive integer table id from a body or query value (a number or digits), else null. */
export function tableIdIn(value: unknown): number | null {
  const n = typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}
