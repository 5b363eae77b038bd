import { SQL_LIMITS } from '@basalt/shared';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { badRequest, notFound } from '../../http/errors.js';
import { idOf } from '../../http/ids.js';
import { answer, type Call, type Method, type Route } from '../../http/routes/route.js';
import type { Keyring } from '../../lib/crypto/master-key.js';
import {
  connectionTables,
  createConnection,
  deleteConnection,
  listConnections,
  testConnection,
  updateConnection,
} from './sql-connections.service.js';
import { createSqlDeps } from './sql-deps.js';
import { executeDirectSql, executeSqlFile, listQueryHistory } from './sql-execution.service.js';
import { deleteFile, fileTooLarge, listFiles, type Upload, uploadSqlFile } from './sql-files.service.js';

// SQL Execution's calls, all within a project the caller may run SQL in (DEVELOPER and up; sql-access.ts):
//   GET    /api/projects/:id/database-connections                       the project's connections, secrets masked
//   POST   /api/projects/:id/database-connections                       {name, provider, engine, connectionString | connectionDetails} → 201
//   PATCH  /api/projects/:id/database-connections/:connectionId         any of those, and isActive
//   DELETE /api/projects/:id/database-connections/:connectionId
//   POST   /api/projects/:id/database-connections/:connectionId/test    → {success, message, latencyMs, serverVersion, lastConnected}
//   GET    /api/projects/:id/database-connections/:connectionId/tables  → {tables: [{name, columns}]} (editor completion)
//   POST   /api/projects/:id/files/upload                               multipart: file (.sql), description, projectId → 201
//   GET    /api/projects/:id/files?type=sql
//   DELETE /api/projects/:id/files/:fileId
//   POST   /api/projects/:id/files/execute-sql                          {fileId, connectionId?, options} → SQL result
//   POST   /api/projects/:id/execute-direct-sql                         {sql, connectionId, options} → SQL result
//   GET    /api/projects/:id/query-history                              the latest 100 runs, newest first

// Project ids are text (UUIDs); anything longer than this names no project.
const PROJECT_ID = /^[A-Za-z0-9_-]{1,64}$/;

function projectIdOf(call: Call): string {
  const id = call.params.id ?? '';
  if (!PROJECT_ID.test(id)) throw notFound('Project not found', 'project_not_found');
  return id;
}

// The multipart parts of an upload: the file's bytes (within the size limit) and the text fields.
async function readUpload(request: FastifyRequest): Promise<Upload & { projectId: unknown }> {
  const upload: Upload & { projectId: unknown } = {
    fileName: null,
    bytes: null,
    description: undefined,
    projectId: undefined,
  };
  try {
    const limits = { fileSize: SQL_LIMITS.fileMaxBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 };
    for await (const part of request.parts({ limits })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || upload.bytes) {
          await part.toBuffer();
          continue;
        }
        upload.fileName = part.filename;
        upload.bytes = await part.toBuffer();
      } else if (part.fieldname === 'description') upload.description = part.value;
      else if (part.fieldname === 'projectId') upload.projectId = part.value;
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge();
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) throw error;
    // Only the multipart parser runs here: whatever else it throws is a body it could not read.
    throw badRequest('invalid_multipart', 'The upload is not a valid multipart/form-data body');
  }
  return upload;
}

/** SqlRouteDeps is what SQL Execution's routes use of the server. */
export interface SqlRouteDeps {
  db: Db;
  config: Pick<Config, 'dataDir' | 'billing'>;
  /** vault's keyring seals the connections' credentials. */
  vault: { keyring: Keyring };
  callers: Callers;
}

/** sqlRoutes are SQL Execution's routes. */
export function sqlRoutes(ctx: SqlRouteDeps): Route[] {
  const { db } = ctx;
  const deps = createSqlDeps(db, ctx.config, ctx.vault.keyring);
  const route = (method: Method, url: string, handler: (call: Call) => Promise<unknown>): Route => ({
    method,
    url,
    family: 'console',
    admit: [ctx.callers.user],
    handler,
  });
  const base = '/api/projects/:id';
  const connection = `${base}/database-connections/:connectionId`;
  const connectionId = (call: Call) => idOf(call, 'connectionId');
  return [
    route('GET', `${base}/database-connections`, (call) => listConnections(db, call.actor, projectIdOf(call))),
    route('POST', `${base}/database-connections`, async (call) =>
      answer(await createConnection(db, call.actor, projectIdOf(call), call.body, deps), { status: 201 }),
    ),
    route('PATCH', connection, (call) =>
      updateConnection(db, call.actor, projectIdOf(call), connectionId(call), call.body, deps),
    ),
    route('DELETE', connection, async (call) => {
      await deleteConnection(db, call.actor, projectIdOf(call), connectionId(call));
      return { success: true, message: 'Database connection deleted' };
    }),
    route('POST', `${connection}/test`, (call) =>
      testConnection(db, call.actor, projectIdOf(call), connectionId(call), deps),
    ),
    route('GET', `${connection}/tables`, (call) =>
      connectionTables(db, call.actor, projectIdOf(call), connectionId(call), deps),
    ),
    {
      method: 'POST',
      url: `${base}/files/upload`,
      family: 'console',
      admit: [ctx.callers.user],
      handler: async (call, request) => {
        const projectId = projectIdOf(call);
        if (!request.isMultipart()) throw badRequest('multipart_required', 'Send the file as multipart/form-data');
        const upload = await readUpload(request);
        return answer(await uploadSqlFile(db, call.actor, projectId, upload, deps), { status: 201 });
      },
    },
    route('GET', `${base}/files`, (call) => listFiles(db, call.actor, projectIdOf(call), call.query.type)),
    route('DELETE', `${base}/files/:fileId`, async (call) => {
      await deleteFile(db, call.actor, projectIdOf(call), idOf(call, 'fileId'), deps);
      return { success: true, message: 'SQL file deleted' };
    }),
    route('POST', `${base}/files/execute-sql`, (call) =>
      executeSqlFile(db, call.actor, projectIdOf(call), call.body, deps),
    ),
    route('POST', `${base}/execute-direct-sql`, (call) =>
      executeDirectSql(db, call.actor, projectIdOf(call), call.body, deps),
    ),
    route('GET', `${base}/query-history`, (call) => listQueryHistory(db, call.actor, projectIdOf(call))),
  ];
}
