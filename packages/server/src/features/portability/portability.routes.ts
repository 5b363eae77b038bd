import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { archiveExpected, isArchiveType } from '../../http/archive-upload.js';
import type { Callers } from '../../http/caller.js';
import { answer, type Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import { exportAccount, exportQuerySchema } from './account-export.js';
import { importAccount, importQuerySchema } from './account-import.js';

// An account's own data, portable (docs/backups.md), for the signed-in account (never an API key):
//   GET  /api/account/export?history=true|false    the account's tables as one .tar.gz, streamed
//   POST /api/account/import?dryRun=true|false     such an archive as the body (application/gzip) → the report

/** portabilityRoutes are the account's export and import. */
export function portabilityRoutes(ctx: {
  db: Db;
  config: Pick<Config, 'dataDir' | 'backups'>;
  callers: Callers;
}): Route[] {
  return [
    {
      method: 'GET',
      url: '/api/account/export',
      family: 'console',
      admit: [ctx.callers.user],
      handler: async (call, _request, reply) => {
        const query = parseInput(exportQuerySchema, call.query);
        const archive = await exportAccount(ctx.db, ctx.config, call.actor, query);
        reply.raw.once('close', () => void archive.done());
        return reply
          .header('Content-Type', 'application/gzip')
          .header('Content-Disposition', `attachment; filename="${archive.fileName}"`)
          .header('Cache-Control', 'no-store')
          .send(archive.stream);
      },
    },
    {
      method: 'POST',
      url: '/api/account/import',
      family: 'console',
      admit: [ctx.callers.user],
      // The archive is streamed to disk as it arrives (lib/archive/archive-upload.ts bounds its size).
      body: 'stream',
      handler: async (call, request, reply) => {
        // An import refused half-way leaves the rest of its body unread: the connection is not reused.
        reply.header('Connection', 'close');
        const { dryRun } = parseInput(importQuerySchema, call.query);
        if (!isArchiveType(call.headers['content-type'])) throw archiveExpected();
        const report = await importAccount(ctx.db, ctx.config, call.actor, request.raw, dryRun === 'true');
        return answer(report, { status: dryRun === 'true' ? 200 : 201 });
      },
    },
  ];
}
