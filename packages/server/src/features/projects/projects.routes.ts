import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { addMember, listMembers, removeMember, updateMember } from './project-members.service.js';
import { linkTable, listProjectTables, listSharedTables, unlinkTable } from './project-tables.service.js';
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  transferProject,
  updateProject,
} from './projects.service.js';
import { applyDesign, importTables, planDesign } from './schema-design.service.js';
import { getLayout, saveLayout } from './schema-layouts.service.js';

// The console's project calls:
//   GET    /api/projects                              the caller's projects, with its role in each
//   POST   /api/projects                              {name, description?} → 201 the project (caller is OWNER)
//   GET    /api/projects/:id                          one project
//   PATCH  /api/projects/:id                          {name?, description?, icon?, color?, isActive?} (OWNER, ADMIN)
//   DELETE /api/projects/:id                          (OWNER) → {success, message, project}
//   POST   /api/projects/:id/transfer                 {accountId}: make a member the owner (OWNER)
//   GET    /api/projects/:id/members                  the members
//   POST   /api/projects/:id/members                  {email | username, role?} → 201 the member (OWNER, ADMIN)
//   PATCH  /api/projects/:id/members/:accountId       {role} (OWNER, ADMIN)
//   DELETE /api/projects/:id/members/:accountId       remove, or leave (own id)
//   GET    /api/projects/:id/tables                   the linked tables
//   POST   /api/projects/:id/tables/:tableId          link one of the caller's tables (DEVELOPER and up)
//   DELETE /api/projects/:id/tables/:tableId          unlink (DEVELOPER and up, or the table's owner)
//   GET    /api/projects/:id/schema                   {layout}; 404 when none was saved yet
//   POST   /api/projects/:id/schema                   {layout} merged against layout.version → {layout}
//   POST   /api/projects/:id/schema/plan              what "Create tables from this design" would do
//   POST   /api/projects/:id/schema/apply             do it (one transaction) → the plan; 409 when refused
//   POST   /api/projects/:id/schema/import            lay out the linked tables not shown yet → {layout, imported}
//   GET    /api/shared-tables                         tables other accounts share with the caller
// A project the caller is not a member of answers 404, like an unknown one; a role that may not, 403.

const paramsOf = (request: FastifyRequest) => request.params as { id?: string; accountId?: string; tableId?: string };
const idOf = (request: FastifyRequest) => paramsOf(request).id ?? '';
const tableIdOf = (request: FastifyRequest) => {
  const raw = paramsOf(request).tableId ?? '';
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : -1;
};
const transferTargetOf = (body: unknown) =>
  typeof body === 'object' && body !== null && typeof (body as { accountId?: unknown }).accountId === 'string'
    ? (body as { accountId: string }).accountId
    : '';

/** projectsRoutes registers the console's project, member, table link and layout endpoints. */
export async function projectsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;

  app.get('/api/projects', async (request) => listProjects(db, requireUser(request)));
  app.post('/api/projects', async (request, reply) =>
    reply.status(201).send(await createProject(db, requireUser(request), request.body)),
  );
  app.get('/api/projects/:id', async (request) => getProject(db, requireUser(request), idOf(request)));
  app.patch('/api/projects/:id', async (request) =>
    updateProject(db, requireUser(request), idOf(request), request.body),
  );
  app.delete('/api/projects/:id', async (request) => {
    const project = await deleteProject(db, requireUser(request), idOf(request));
    return { success: true, message: 'Project deleted', project };
  });
  app.post('/api/projects/:id/transfer', async (request) =>
    transferProject(db, requireUser(request), idOf(request), transferTargetOf(request.body)),
  );

  app.get('/api/projects/:id/members', async (request) => listMembers(db, requireUser(request), idOf(request)));
  app.post('/api/projects/:id/members', async (request, reply) =>
    reply.status(201).send(await addMember(db, requireUser(request), idOf(request), request.body)),
  );
  app.patch('/api/projects/:id/members/:accountId', async (request) =>
    updateMember(db, requireUser(request), idOf(request), paramsOf(request).accountId ?? '', request.body),
  );
  app.delete('/api/projects/:id/members/:accountId', async (request) => {
    const member = await removeMember(db, requireUser(request), idOf(request), paramsOf(request).accountId ?? '');
    return { success: true, message: 'Member removed', member };
  });

  app.get('/api/projects/:id/tables', async (request) => listProjectTables(db, requireUser(request), idOf(request)));
  app.post('/api/projects/:id/tables/:tableId', async (request, reply) =>
    reply.status(201).send(await linkTable(db, requireUser(request), idOf(request), tableIdOf(request))),
  );
  app.delete('/api/projects/:id/tables/:tableId', async (request) => {
    const table = await unlinkTable(db, requireUser(request), idOf(request), tableIdOf(request));
    return { success: true, message: 'Table unlinked', table };
  });

  app.get('/api/projects/:id/schema', async (request) => getLayout(db, requireUser(request), idOf(request)));
  app.post('/api/projects/:id/schema', async (request) =>
    saveLayout(db, requireUser(request), idOf(request), request.body),
  );

  app.post('/api/projects/:id/schema/plan', async (request) => planDesign(db, requireUser(request), idOf(request)));
  app.post('/api/projects/:id/schema/apply', async (request) => applyDesign(db, requireUser(request), idOf(request)));
  app.post('/api/projects/:id/schema/import', async (request) => importTables(db, requireUser(request), idOf(request)));

  app.get('/api/shared-tables', async (request) => listSharedTables(db, requireUser(request)));
}
