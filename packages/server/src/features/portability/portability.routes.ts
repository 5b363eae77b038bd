import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { parseInput } from '../../http/validation.js';
import { ARCHIVE_TYPES, archiveExpected } from '../../lib/archive/archive-upload.js';
import { exportAccount, exportQuerySchema } from './account-export.js';
import { importAccount, importQuerySchema } from './account-import.js';

// An account's own data, portable (docs/backups.md), for the signed-in account (never an API key):
//   GET  /api/account/export?history=true|false    the account's tables as one .tar.gz, streamed
//   POST /api/account/import?dryRun=true|false     such an archive as the body (application/gzip) → the report

/** portabilityRoutes registers the account's export and import. */
export async function portabilityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  // The archive is streamed to disk as it arrives (lib/archive/archive-upload.ts bounds its size).
  app.addContentTypeParser(ARCHIVE_TYPES, (_request, payload, done) => done(null, payload));

  app.get('/api/account/export', async (request, reply) => {
    const actor = requireUser(request);
    const query = parseInput(exportQuerySchema, request.query);
    const archive = await exportAccount(ctx.db, ctx.config, actor, query);
    reply.raw.once('close', () => void archive.done());
    return reply
      .header('Content-Type', 'application/gzip')
      .header('Content-Disposition', `attachment; filename="${archive.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(archive.stream);
  });

  app.post('/api/account/import', async (request, reply) => {
    // An import refused half-way leaves the rest of its body unread: the connection is not reused.
    reply.header('Connection', 'close');
    const actor = requireUser(request);
    const { dryRun } = parseInput(importQuerySchema, request.query);
    if (!(request.body instanceof Readable)) throw archiveExpected();
    const report = await importAccount(ctx.db, ctx.config, actor, request.body, dryRun === 'true');
    return reply.status(dryRun === 'true' ? 200 : 201).send(report);
  });
}
