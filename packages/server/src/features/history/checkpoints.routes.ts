import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { idOf } from '../../http/ids.js';
import { answer, type Call, type Route } from '../../http/routes/route.js';
import { actorOn, tableIdIn } from '../project-access/project-access.js';
import {
  checkpointRestorePreview,
  createCheckpoint,
  listTableCheckpoints,
  restoreCheckpoint,
} from './checkpoints.service.js';

// The console's checkpoint calls:
//   POST /api/checkpoints               {tableId, name, description?} → 201 the checkpoint
//   GET  /api/checkpoints?tableId=      the caller's checkpoints (of one table), newest first: an array
//   GET  /api/checkpoints/:id/restore-preview   what restoring it does to the access rules
//   POST /api/checkpoints/:id/restore   {keepAccess?} the table as at the checkpoint → a restore result with
//                                       `checkpoint` (keepAccess: today's access rules are kept)
// Another account's table or checkpoint answers like an unknown one (404).

// The actor on the table a body or query field names, when it names one.
const onTableIn = (db: Db, call: Call, value: unknown) => {
  const tableId = tableIdIn(value);
  return tableId === null ? call.actor : actorOn(db, call.actor, { tableId });
};

const fieldOf = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;

/** checkpointsRoutes are the console's checkpoint routes. */
export function checkpointsRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;
  const onCheckpoint = (call: Call) => actorOn(db, call.actor, { checkpointId: idOf(call) });
  return [
    {
      ...user,
      method: 'POST',
      url: '/api/checkpoints',
      handler: async (call) => {
        const actor = await onTableIn(db, call, fieldOf(call.body, 'tableId'));
        return answer(await createCheckpoint(db, actor, call.body), { status: 201 });
      },
    },
    {
      ...user,
      method: 'GET',
      url: '/api/checkpoints',
      handler: async (call) => listTableCheckpoints(db, await onTableIn(db, call, call.query.tableId), call.query),
    },
    {
      ...user,
      method: 'POST',
      url: '/api/checkpoints/:id/restore',
      handler: async (call) => restoreCheckpoint(db, await onCheckpoint(call), idOf(call), call.body),
    },
    {
      ...user,
      method: 'GET',
      url: '/api/checkpoints/:id/restore-preview',
      handler: async (call) => checkpointRestorePreview(db, await onCheckpoint(call), idOf(call)),
    },
  ];
}
