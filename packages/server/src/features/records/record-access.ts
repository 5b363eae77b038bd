import type { TableDefinition } from '../../db/user-tables.js';
import { notFound, roleForbidden } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { can, reaches, type TableAction } from '../../lib/actor/actor-can.js';

// The records' refusals of the role matrix (lib/actor/actor-can.ts): anyone who does not reach a table meets the
// same 404 as for a table that does not exist; a member whose role may not gets 403 naming the role.

const DOING: Record<TableAction, string> = {
  read: 'read this table',
  write: 'change records, revert record changes or create checkpoints',
  schema: 'change schemas, restore versions or checkpoints, or edit layouts and links',
};

/** assertCan refuses an actor who may not: 404 as for a missing table, or 403 naming the member's role. */
export function assertCan(actor: Actor, action: TableAction, table: TableDefinition): void {
  if (can(actor, action, table)) return;
  if (!reaches(actor, table)) throw notFound(`Could not find the table '${table.name}'`, 'PGRST205');
  throw roleForbidden(actor.role ?? 'none', DOING[action]);
}
