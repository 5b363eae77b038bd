import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/principal.js';
import { createTable, deleteTable, getTable, listTables, previewTableChange, updateTable } from './tables.service.js';

// The console's table calls (spec console-core §7; issue 3 §4):
//   GET    /api/tables                       the caller's tables, newest first (an array)
//   POST   /api/tables                       {name, description?, schema} → 201 the table
//   GET    /api/tables/:id                   one table (404 for unknown ids and other accounts' tables)
//   PATCH  /api/tables/:id                   {name?, description?, schema?, renames?} → the table
//   PUT    /api/tables/:id/schema            {schema, renames?}: the complete new schema → the table
//   POST   /api/tables/:id/schema/preview    {schema, renames?} → {changes, refusal}; changes nothing
//   DELETE /api/tables/:id                   drops the table and its data → {success, message, table}
// A table's `schema` starts with the `id` system column; renames map old → new column names.

// An id that is not a positive integer names no table: 404, like an unknown one.
function tableIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : -1;
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** tablesRoutes registers the console's table endpoints. */
export async function tablesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;

  app.get('/api/tables', async (request) => listTables(db, requireUser(request)));

  app.post('/api/tables', async (request, reply) => {
    const table = await createTable(db, requireUser(request), request.body);
    return reply.status(201).send(table);
  });

  app.get('/api/tables/:id', async (request) => getTable(db, requireUser(request), tableIdOf(request)));

  app.patch('/api/tables/:id', async (request) =>
    updateTable(db, requireUser(request), tableIdOf(request), request.body),
  );

  app.put('/api/tables/:id/schema', async (request) => {
    const { schema, renames } = bodyOf(request);
    return updateTable(db, requireUser(request), tableIdOf(request), { schema: schema ?? null, renames });
  });

  app.post('/api/tables/:id/schema/preview', async (request) => {
    const { schema, renames } = bodyOf(request);
    return previewTableChange(db, requireUser(request), tableIdOf(request), { schema: schema ?? null, renames });
  });

  app.delete('/api/tables/:id', async (request) => {
    const table = await deleteTable(db, requireUser(request), tableIdOf(request));
    return { success: true, message: 'Table deleted successfully', table };
  });
}
