import { type ProjectAction, roleCan } from '@basalt/shared';
import type { Actor } from './actor.js';

// What an actor may do with a table, in one place. A table is reached by its owning account (its console session,
// its API keys, its app's callers under the table's access rules) with every right, and by the members of a
// project it is linked to (an actor with `memberId`, `projectId` and `role`, built by features/project-access)
// with what their role allows: the role matrix of PROJECT_PERMISSIONS.

/** TableAction is what an actor does with a table: read it, write its records, or change its schema. */
export type TableAction = 'read' | 'write' | 'schema';

// The role matrix, by action: which row of PROJECT_PERMISSIONS decides.
const MATRIX_ROW: Record<TableAction, ProjectAction> = {
  read: 'read',
  write: 'records.write',
  schema: 'schema.write',
};

/** OwnedTable is what deciding needs of a table: its owning account. */
export interface OwnedTable {
  accountId: string;
}

/** reaches tells whether the actor reaches the table at all (its own, or shared with it through a project). */
export function reaches(actor: Actor, table: OwnedTable): boolean {
  return table.accountId === actor.accountId;
}

/** can tells whether the actor may do `action` with the table. */
export function can(actor: Actor, action: TableAction, table: OwnedTable): boolean {
  if (!reaches(actor, table)) return false;
  if (actor.memberId === undefined) return true;
  return actor.role !== undefined && roleCan(actor.role, MATRIX_ROW[action]);
}
