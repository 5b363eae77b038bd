import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { RevertConflict } from '../journal/revert-conflict.js';
import type { SqlFunction } from './sql-functions.schemas.js';
import { defineSqlFunction, deleteSqlFunction, replaceSqlFunction } from './sql-functions.service.js';
import { findFunctionById } from './sql-functions.store.js';
import { definitionOf, functionIdOf } from './sql-functions-history.js';

// How history reverts a change of a function's definition (features/history/history-revert.ts calls these inside
// its transaction), through the ordinary definition functions, so a revert is checked and recorded like any change:
//   FUNCTION_CREATE → delete it (only while it is as it was created)
//   FUNCTION_UPDATE → its definition before (only while it is as this change left it)
//   FUNCTION_DELETE → define it again, with its id and creation time

/** SavedChange is what a revert reads of a history entry. */
export interface SavedChange {
  table_id: number | string;
  table_name: string;
  previous_state: string | null;
  new_state: string | null;
}

type Revert = (scope: { db: Db; actor: Actor }, change: SavedChange, note: { revertOf: number }) => Promise<void>;

const stateOf = (text: string | null): SqlFunction => {
  if (text === null) throw new RevertConflict('state_unreadable', 'this change holds no definition');
  return JSON.parse(text) as SqlFunction;
};

async function current(scope: { db: Db; actor: Actor }, change: SavedChange, saved: SqlFunction) {
  const id = functionIdOf(Number(change.table_id));
  const fn = await findFunctionById(scope.db.kysely, scope.actor.accountId, id);
  if (!fn)
    throw new RevertConflict('table_deleted', `the SQL function "${change.table_name}" was deleted after this change`);
  if (!isDeepStrictEqual(definitionOf(fn), definitionOf(saved))) {
    throw new RevertConflict('table_changed', `the SQL function "${fn.name}" was changed after this change`);
  }
  return fn;
}

// A definition the service refuses now (a table it reads is gone, the name taken) conflicts with what changed since.
async function refused<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) throw new RevertConflict('schema_refused', error.message);
    throw error;
  }
}

const revertCreate: Revert = async (scope, change, note) => {
  const fn = await current(scope, change, stateOf(change.new_state));
  await deleteSqlFunction(scope.db, scope.actor, String(fn.id), note);
};

const revertUpdate: Revert = async (scope, change, note) => {
  const fn = await current(scope, change, stateOf(change.new_state));
  const before = definitionOf(stateOf(change.previous_state));
  await refused(() => replaceSqlFunction(scope.db, scope.actor, String(fn.id), before, note));
};

const revertDelete: Revert = async (scope, change, note) => {
  const saved = stateOf(change.previous_state);
  if (await findFunctionById(scope.db.kysely, scope.actor.accountId, saved.id)) {
    throw new RevertConflict('table_exists', `the SQL function "${saved.name}" exists again`);
  }
  const restore = { id: saved.id, createdAt: saved.createdAt };
  await refused(() => defineSqlFunction(scope.db, scope.actor, definitionOf(saved), { ...note, restore }));
};

/** FUNCTION_REVERTS are the reverts of the definition changes of SQL functions, by change type. */
export const FUNCTION_REVERTS: Record<string, Revert> = {
  FUNCTION_CREATE: revertCreate,
  FUNCTION_UPDATE: revertUpdate,
  FUNCTION_DELETE: revertDelete,
};
