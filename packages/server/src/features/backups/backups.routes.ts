import { archiveExpected, isArchiveType } from '../../http/archive-upload.js';
import type { Callers } from '../../http/caller.js';
import { answer, type Call, type Method, type Route } from '../../http/routes/route.js';
import type { BackupDeps } from './backup-deps.js';
import { getSchedule, putSchedule } from './backup-schedule.js';
import { uploadBackup } from './backup-upload.js';
import {
  deleteBackup,
  downloadBackup,
  getBackup,
  listBackupsOf,
  restoreBackup,
  startBackup,
} from './backups.service.js';

// Instance backups, administrators only (docs/backups.md):
//   GET    /api/backups                  every backup, newest first
//   POST   /api/backups                  {name?, description?, includeFiles?} → 202 with the IN_PROGRESS row
//   GET    /api/backups/schedule         {enabled, cron, keep, nextRunAt}
//   PUT    /api/backups/schedule         {enabled, cron, keep}
//   POST   /api/backups/upload           the archive as the body (application/gzip), ?name= → 201
//   GET    /api/backups/:id              status, progress, last restore
//   GET    /api/backups/:id/download     the .tar.gz
//   POST   /api/backups/:id/restore      → 202; checked first (400 damaged, 422 not restorable here)
//   DELETE /api/backups/:id

const idOf = (call: Call) => call.params.id ?? '';

/** backupsRoutes are the backups' routes, on the instance's backup dependencies (made once, in app.ts). */
export function backupsRoutes(ctx: { backups: BackupDeps; callers: Callers }): Route[] {
  const deps = ctx.backups;
  // The service decides who may (administrators only, with the words of this feature).
  const route = (method: Method, url: string, handler: (call: Call) => Promise<unknown>): Route => ({
    method,
    url,
    family: 'console',
    admit: [ctx.callers.user],
    handler,
  });
  return [
    route('GET', '/api/backups', (call) => listBackupsOf(deps, call.actor)),
    route('POST', '/api/backups', async (call) =>
      answer(await startBackup(deps, call.actor, call.body), { status: 202 }),
    ),
    route('GET', '/api/backups/schedule', (call) => getSchedule(deps, call.actor)),
    route('PUT', '/api/backups/schedule', (call) => putSchedule(deps, call.actor, call.body)),
    {
      method: 'POST',
      url: '/api/backups/upload',
      family: 'console',
      admit: [ctx.callers.user],
      // An archive is streamed to disk as it arrives, never held in memory (backup-upload.ts bounds its size).
      body: 'stream',
      handler: async (call, request, reply) => {
        // An upload refused half-way leaves the rest of its body unread: the connection is not reused.
        reply.header('Connection', 'close');
        if (!isArchiveType(call.headers['content-type'])) throw archiveExpected();
        return answer(await uploadBackup(deps, call.actor, request.raw, call.query.name), { status: 201 });
      },
    },
    route('GET', '/api/backups/:id', (call) => getBackup(deps, call.actor, idOf(call))),
    {
      method: 'GET',
      url: '/api/backups/:id/download',
      family: 'console',
      admit: [ctx.callers.user],
      handler: async (call, _request, reply) => {
        const download = await downloadBackup(deps, call.actor, idOf(call));
        return reply
          .header('Content-Type', 'application/gzip')
          .header('Content-Length', String(download.size))
          .header('Content-Disposition', `attachment; filename="${download.fileName}"`)
          .header('Cache-Control', 'no-store')
          .send(download.stream);
      },
    },
    route('POST', '/api/backups/:id/restore', async (call) =>
      answer(await restoreBackup(deps, call.actor, idOf(call)), { status: 202 }),
    ),
    route('DELETE', '/api/backups/:id', async (call) => {
      await deleteBackup(deps, call.actor, idOf(call));
      return answer(undefined, { status: 204 });
    }),
  ];
}
