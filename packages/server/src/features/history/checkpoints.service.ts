import {
  type Checkpoint,
  type CheckpointRestoreResult,
  checkpointQuerySchema,
  createCheckpointSchema,
  type RestorePreview,
  restoreOptionsSchema,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import { type Actor, actorIdOf } from '../../lib/actor/actor.js';
import { assertCan } from '../records/records.service.js';
import { findTableById } from '../tables/tables.service.js';
import { type CheckpointRow, findCheckpointById, insertCheckpoint, listCheckpoints } from './checkpoints.store.js';
import { latestChangeId } from './history.store.js';
import { restoreTable } from './history-actions.service.js';
import { restorePreviewOf } from './restore-access.js';

// Checkpoints: a name for a table's state, kept as its latest
// change at that moment. Restoring one is a restore to that change (history-actions.service.ts), so it is
// recorded and can be undone like any restore. A table always has its SCHEMA_CREATE change unless history
// retention removed every change it had; a checkpoint made then names no change (changeId null), and
// restoring it reverts every change the table has had since.

/** toCheckpoint renders a stored checkpoint. */
function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    id: Number(row.id),
    tableId: Number(row.table_id),
    name: row.name,
    description: row.description,
    changeId: row.change_id === null ? null : Number(row.change_id),
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

/** createCheckpoint marks the latest change of one of the actor's tables (404 for another account's table). */
export async function createCheckpoint(db: Db, actor: Actor, input: unknown): Promise<Checkpoint> {
  const request = parseInput(createCheckpointSchema, input);
  const table = await findTableById(db, actor, request.tableId);
  if (!table) throw notFound('Table not found', 'table_not_found');
  assertCan(actor, 'write', table);
  const row = await insertCheckpoint(db.kysely, {
    accountId: actor.accountId,
    tableId: table.id,
    name: request.name,
    description: request.description,
    changeId: await latestChangeId(db.kysely, actor.accountId, table.id),
    createdBy: actorIdOf(actor),
    now: new Date().toISOString(),
  });
  db.publish('checkpoint.created', { accountId: actor.accountId, tableId: table.id });
  return toCheckpoint(row);
}

/** listTableCheckpoints lists the actor's checkpoints, of one table when the query names it, newest first. */
export async function listTableCheckpoints(db: Db, actor: Actor, query: unknown): Promise<Checkpoint[]> {
  const { tableId } = parseInput(checkpointQuerySchema, query);
  return (await listCheckpoints(db.kysely, actor.accountId, tableId)).map(toCheckpoint);
}

async function checkpointOf(db: Db, actor: Actor, id: number): Promise<Checkpoint> {
  const row = Number.isSafeInteger(id) ? await findCheckpointById(db.kysely, actor.accountId, id) : null;
  if (!row) throw notFound('Checkpoint not found', 'checkpoint_not_found');
  return toCheckpoint(row);
}

/**
 * restoreCheckpoint restores a checkpoint's table to its change (404 for an unknown or another account's one);
 * the body may ask to keep today's access rules ({keepAccess: true}).
 */
export async function restoreCheckpoint(
  db: Db,
  actor: Actor,
  id: number,
  body: unknown,
): Promise<CheckpointRestoreResult> {
  const options = parseInput(restoreOptionsSchema, body);
  const checkpoint = await checkpointOf(db, actor, id);
  const result = await restoreTable(db, actor, checkpoint.tableId, checkpoint.changeId, 'Checkpoint restored', options);
  return { ...result, checkpoint };
}

/** checkpointRestorePreview tells what restoring a checkpoint does to its table's access rules. */
export async function checkpointRestorePreview(db: Db, actor: Actor, id: number): Promise<RestorePreview> {
  const checkpoint = await checkpointOf(db, actor, id);
  return restorePreviewOf(db, actor, checkpoint.tableId, checkpoint.changeId);
}
