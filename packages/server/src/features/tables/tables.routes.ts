import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { idParam } from '../../http/ids.js';
import { requireUser } from '../../http/legacy-principal.js';
import { actorForTable } from '../projects/project-access.js';
import { createTable, deleteTable, getTable, listTables, previewTableChange, updateTable } from './tables.service.js';

// The console's table calls:
//   GET    /api/tables                       the caller's tables, newest first (an array)
//   POST   /api/tables                       {name, description?, schema} → 201 the table
//   GET    /api/tables/:id                   one table (404 for unknown ids and other accounts' tables)
//   PATCH  /api/tables/:id                   {name?, description?, schema?, renames?} → the table
//   PUT    /api/tables/:id/schema            {schema, renames?}: the complete new schema → the table
//   POST   /api/tables/:id/schema/preview    {schema, renames?} → {changes, refusal}; changes nothing
//   DELETE /api/tables/:id                   drops the table and its data → {success, message, table}
// A table's `schema` starts with the `id` system column; renames map old → new column names.

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** tablesRoutes registers the console's table endpoints. */
export async function tablesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;
  // The caller, or a project member acting on a table another account shares with it (features/projects).
  const actorOf = (request: FastifyRequest) => actorForTable(db, requireUser(request), idParam(request));

  app.get('/api/tables', async (request) => listTables(db, requireUser(request)));

  app.post('/api/tables', async (request, reply) => {
    const table = await createTable(db, requireUser(request), request.body);
    return reply.status(201).send(table);
  });

  app.get('/api/tables/:id', async (request) => getTable(db, await actorOf(request), idParam(request)));

  app.patch('/api/tables/:id', async (request) =>
    updateTable(db, await actorOf(request), idParam(request), request.body),
  );

  app.put('/api/tables/:id/schema', async (request) => {
    const { schema, renames } = bodyOf(request);
    return updateTable(db, await actorOf(request), idParam(request), { schema: schema ?? null, renames });
  });

  app.post('/api/tables/:id/schema/preview', async (request) => {
    const { schema, renames } = bodyOf(request);
    return previewTableChange(db, await actorOf(request), idParam(request), { schema: schema ?? null, renames });
  });

  app.delete('/api/tables/:id', async (request) => {
    const table = await deleteTable(db, await actorOf(request), idParam(request));
    return { success: true, message: 'Table deleted successfully', table };
  });
}
