import type { Db } from '../../db/database.js';
import { addToHistoryCount } from '../../db/history-counts.js';
import { type Actor, actorIdOf } from '../../lib/actor/actor.js';
import { recordActivity } from '../activity/activity.service.js';
import { type ChangeType, insertChanges } from '../journal/journal.store.js';
import type { SqlFunction, SqlFunctionInput } from './sql-functions.schemas.js';

// A SQL function's definition in history, like a table's: FUNCTION_CREATE, FUNCTION_UPDATE and FUNCTION_DELETE
// entries hold the definition before and after, in the transaction of the change, with one activity entry on
// `sql_functions`. History keys entries by table; a function's are kept under the negative of its id (a table's id
// is positive), so they never mix with a table's, and a function brought back by a revert keeps its id and its key.
// The reverts are in sql-functions-reverts.ts.

/** DefinitionNote is what a revert tells a definition change: what it undoes, and the id a deleted one gets back. */
export interface DefinitionNote {
  revertOf?: number;
  restore?: { id: number; createdAt: string };
}

/** historyKeyOf is the history `table_id` of a function's entries. */
export const historyKeyOf = (functionId: number) => -functionId;

/** functionIdOf is the function an entry is about. */
export const functionIdOf = (historyKey: number) => -historyKey;

const ACTIONS = { FUNCTION_CREATE: 'CREATE', FUNCTION_UPDATE: 'UPDATE', FUNCTION_DELETE: 'DELETE' } as const;

/** journalDefinition records one change of a function's definition in history and the activity feed. */
export async function journalDefinition(
  scope: Db,
  actor: Actor,
  changeType: keyof typeof ACTIONS & ChangeType,
  before: SqlFunction | null,
  after: SqlFunction | null,
  note: DefinitionNote,
): Promise<void> {
  const fn = (after ?? before) as SqlFunction;
  const now = new Date();
  const context = {
    accountId: actor.accountId,
    tableId: historyKeyOf(fn.id),
    tableName: fn.name,
    actorId: actorIdOf(actor),
    createdAt: now.toISOString(),
    revertOf: note.revertOf ?? null,
  };
  const change = { recordId: null, changeType, previousState: before, newState: after };
  await insertChanges(scope.run, scope.dialect, context, [change]);
  await addToHistoryCount(scope, { accountId: actor.accountId, tableId: context.tableId }, 1);
  await recordActivity(
    scope,
    { accountId: actor.accountId, action: ACTIONS[changeType], resource: 'sql_functions', details: { name: fn.name } },
    now,
  );
}

/** definitionOf is the definition a saved state holds, as the API takes it. */
export function definitionOf(saved: SqlFunction): SqlFunctionInput {
  return {
    name: saved.name,
    description: saved.description,
    params: saved.params,
    returns: saved.returns,
    body: saved.body,
    callRule: saved.callRule,
  };
}
