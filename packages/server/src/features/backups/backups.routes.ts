import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { ARCHIVE_TYPES, archiveExpected } from '../../lib/archive/archive-upload.js';
import { type ArchivePart, backupDepsOf } from './backup-deps.js';
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

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** backupsRoutes registers the backups' endpoints; `parts` are the other features' parts of an archive. */
export async function backupsRoutes(
  app: FastifyInstance,
  { ctx, parts = [] }: { ctx: AppContext; parts?: ArchivePart[] },
): Promise<void> {
  const deps = backupDepsOf(ctx, parts);
  // An archive is streamed to disk as it arrives, never held in memory (backup-upload.ts bounds its size).
  app.addContentTypeParser(ARCHIVE_TYPES, (_request, payload, done) => done(null, payload));

  app.get('/api/backups', async (request) => listBackupsOf(deps, requireUser(request)));
  app.post('/api/backups', async (request, reply) =>
    reply.status(202).send(await startBackup(deps, requireUser(request), request.body)),
  );
  app.get('/api/backups/schedule', async (request) => getSchedule(deps, requireUser(request)));
  app.put('/api/backups/schedule', async (request) => putSchedule(deps, requireUser(request), request.body));
  app.post('/api/backups/upload', async (request, reply) => {
    // An upload refused half-way leaves the rest of its body unread: the connection is not reused.
    reply.header('Connection', 'close');
    const actor = requireUser(request);
    if (!(request.body instanceof Readable)) throw archiveExpected();
    const name = (request.query as { name?: unknown }).name;
    return reply.status(201).send(await uploadBackup(deps, actor, request.body, name));
  });
  app.get('/api/backups/:id', async (request) => getBackup(deps, requireUser(request), idOf(request)));
  app.get('/api/backups/:id/download', async (request, reply) => {
    const download = await downloadBackup(deps, requireUser(request), idOf(request));
    return reply
      .header('Content-Type', 'application/gzip')
      .header('Content-Length', String(download.size))
      .header('Content-Disposition', `attachment; filename="${download.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(download.stream);
  });
  app.post('/api/backups/:id/restore', async (request, reply) =>
    reply.status(202).send(await restoreBackup(deps, requireUser(request), idOf(request))),
  );
  app.delete('/api/backups/:id', async (request, reply) => {
    await deleteBackup(deps, requireUser(request), idOf(request));
    return reply.status(204).send();
  });
}
