import { historyQuerySchema, restoreOptionsSchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { idOf } from '../../http/ids.js';
import type { Call, Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import { actorOn } from '../project-access/project-access.js';
import { listHistory } from './history.service.js';
import { restoreToChange, restoreToChangePreview, revertChange } from './history-actions.service.js';

// The console's history calls:
//   GET  /api/history?tableId=&page=&limit=   the caller's changes, newest first, paged: {data, pagination}
//   POST /api/history/:id/revert              undo one change → {success, message, revertedChangeId, change, table}
//   POST /api/history/:id/restore             {keepAccess?} the table as just after that change → {success,
//                                             message, tableId, changeId, reverted, undoChangeId, table}
//   GET  /api/history/:id/restore-preview     what that restore does to the table's access rules
// Another account's change answers like an unknown one (404); a conflicting later change answers 409.

/** historyRoutes are the change history of the caller's tables (a deleted table's too) and its actions. */
export function historyRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;
  const onChange = (call: Call) => actorOn(db, call.actor, { changeId: idOf(call) });
  return [
    {
      ...user,
      method: 'GET',
      url: '/api/history',
      handler: async (call) => {
        const query = parseInput(historyQuerySchema, call.query);
        // A member reads the history of a table shared with it (its owner's entries of that table).
        const { accountId } =
          query.tableId === undefined ? call.actor : await actorOn(db, call.actor, { tableId: query.tableId });
        return listHistory(db, { accountId, tableId: query.tableId }, query);
      },
    },
    {
      ...user,
      method: 'POST',
      url: '/api/history/:id/revert',
      handler: async (call) => revertChange(db, await onChange(call), idOf(call)),
    },
    {
      ...user,
      method: 'POST',
      url: '/api/history/:id/restore',
      handler: async (call) => {
        const options = parseInput(restoreOptionsSchema, call.body);
        return restoreToChange(db, await onChange(call), idOf(call), options);
      },
    },
    {
      ...user,
      method: 'GET',
      url: '/api/history/:id/restore-preview',
      handler: async (call) => restoreToChangePreview(db, await onChange(call), idOf(call)),
    },
  ];
}
