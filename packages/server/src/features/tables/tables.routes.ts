import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { idOf } from '../../http/ids.js';
import { answer, type Call, type Route } from '../../http/routes/route.js';
import { actorOn } from '../project-access/project-access.js';
import { createTable, deleteTable, getTable, listTables, previewTableChange, updateTable } from './tables.service.js';

// The console's table calls:
//   GET    /api/tables                       the caller's tables, newest first (an array)
//   POST   /api/tables                       {name, description?, schema} → 201 the table
//   GET    /api/tables/:id                   one table (404 for unknown ids and other accounts' tables)
//   PATCH  /api/tables/:id                   {name?, description?, schema?, renames?} → the table
//   PUT    /api/tables/:id/schema            {schema, renames?}: the complete new schema → the table
//   POST   /api/tables/:id/schema/preview    {schema, renames?} → {changes, refusal}; changes nothing
//   DELETE /api/tables/:id                   drops the table and its data → {success, message, table}
// A table's `schema` starts with the `id` system column; renames map old → new column names. A project member
// acts on a table another account shares with it with its role there (features/project-access).

function schemaChangeOf(call: Call): { schema: unknown; renames: unknown } {
  const body = call.body;
  const { schema, renames } =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { schema: schema ?? null, renames };
}

/** tablesRoutes are the console's table routes. */
export function tablesRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;
  const actorOf = (call: Call) => actorOn(db, call.actor, { tableId: idOf(call) });
  return [
    { ...user, method: 'GET', url: '/api/tables', handler: (call) => listTables(db, call.actor) },
    {
      ...user,
      method: 'POST',
      url: '/api/tables',
      handler: async (call) => answer(await createTable(db, call.actor, call.body), { status: 201 }),
    },
    {
      ...user,
      method: 'GET',
      url: '/api/tables/:id',
      handler: async (call) => getTable(db, await actorOf(call), idOf(call)),
    },
    {
      ...user,
      method: 'PATCH',
      url: '/api/tables/:id',
      handler: async (call) => updateTable(db, await actorOf(call), idOf(call), call.body),
    },
    {
      ...user,
      method: 'PUT',
      url: '/api/tables/:id/schema',
      handler: async (call) => updateTable(db, await actorOf(call), idOf(call), schemaChangeOf(call)),
    },
    {
      ...user,
      method: 'POST',
      url: '/api/tables/:id/schema/preview',
      handler: async (call) => previewTableChange(db, await actorOf(call), idOf(call), schemaChangeOf(call)),
    },
    {
      ...user,
      method: 'DELETE',
      url: '/api/tables/:id',
      handler: async (call) => {
        const table = await deleteTable(db, await actorOf(call), idOf(call));
        return { success: true, message: 'Table deleted successfully', table };
      },
    },
  ];
}
