import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { parseId } from '../../http/ids.js';
import { answer, type Call, type Method, type Route } from '../../http/routes/route.js';
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
import { applyDesign, planDesign } from './schema-design.service.js';
import { importCandidates, importTables } from './schema-import.js';
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
//   GET    /api/projects/:id/schema/import            what an import could draw → {linked, own}
//   POST   /api/projects/:id/schema/import            {tableIds?} link those own tables, then lay out the linked
//                                                     tables not shown yet → {layout, imported}
//   GET    /api/shared-tables                         tables other accounts share with the caller
// A project the caller is not a member of answers 404, like an unknown one; a role that may not, 403.

const idOf = (call: Call) => call.params.id ?? '';
const memberOf = (call: Call) => call.params.accountId ?? '';
const transferTargetOf = (body: unknown) =>
  typeof body === 'object' && body !== null && typeof (body as { accountId?: unknown }).accountId === 'string'
    ? (body as { accountId: string }).accountId
    : '';

/** projectsRoutes are the console's project, member, table link and layout routes. */
export function projectsRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  const route = (method: Method, url: string, handler: (call: Call) => Promise<unknown>): Route => ({
    method,
    url,
    family: 'console',
    admit: [callers.user],
    handler,
  });
  const created = async (made: Promise<unknown>) => answer(await made, { status: 201 });
  return [
    route('GET', '/api/projects', (call) => listProjects(db, call.actor)),
    route('POST', '/api/projects', (call) => created(createProject(db, call.actor, call.body))),
    route('GET', '/api/projects/:id', (call) => getProject(db, call.actor, idOf(call))),
    route('PATCH', '/api/projects/:id', (call) => updateProject(db, call.actor, idOf(call), call.body)),
    route('DELETE', '/api/projects/:id', async (call) => {
      const project = await deleteProject(db, call.actor, idOf(call));
      return { success: true, message: 'Project deleted', project };
    }),
    route('POST', '/api/projects/:id/transfer', (call) =>
      transferProject(db, call.actor, idOf(call), transferTargetOf(call.body)),
    ),
    route('GET', '/api/projects/:id/members', (call) => listMembers(db, call.actor, idOf(call))),
    route('POST', '/api/projects/:id/members', (call) => created(addMember(db, call.actor, idOf(call), call.body))),
    route('PATCH', '/api/projects/:id/members/:accountId', (call) =>
      updateMember(db, call.actor, idOf(call), memberOf(call), call.body),
    ),
    route('DELETE', '/api/projects/:id/members/:accountId', async (call) => {
      const member = await removeMember(db, call.actor, idOf(call), memberOf(call));
      return { success: true, message: 'Member removed', member };
    }),
    route('GET', '/api/projects/:id/tables', (call) => listProjectTables(db, call.actor, idOf(call))),
    route('POST', '/api/projects/:id/tables/:tableId', (call) =>
      created(linkTable(db, call.actor, idOf(call), parseId(call.params.tableId))),
    ),
    route('DELETE', '/api/projects/:id/tables/:tableId', async (call) => {
      const table = await unlinkTable(db, call.actor, idOf(call), parseId(call.params.tableId));
      return { success: true, message: 'Table unlinked', table };
    }),
    route('GET', '/api/projects/:id/schema', (call) => getLayout(db, call.actor, idOf(call))),
    route('POST', '/api/projects/:id/schema', (call) => saveLayout(db, call.actor, idOf(call), call.body)),
    route('POST', '/api/projects/:id/schema/plan', (call) => planDesign(db, call.actor, idOf(call))),
    route('POST', '/api/projects/:id/schema/apply', (call) => applyDesign(db, call.actor, idOf(call))),
    route('GET', '/api/projects/:id/schema/import', (call) => importCandidates(db, call.actor, idOf(call))),
    route('POST', '/api/projects/:id/schema/import', (call) => importTables(db, call.actor, idOf(call), call.body)),
    route('GET', '/api/shared-tables', (call) => listSharedTables(db, call.actor)),
  ];
}
