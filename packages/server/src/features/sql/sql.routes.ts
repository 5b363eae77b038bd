import { SQL_LIMITS } from '@basalt/shared';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { badRequest, notFound } from '../../http/errors.js';
import { idParam } from '../../http/ids.js';
import { requireUser } from '../../http/legacy-principal.js';
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

function projectIdOf(request: FastifyRequest): string {
  const id = (request.params as { id?: string }).id ?? '';
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
    for await (const part of request.parts()) {
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

/** sqlRoutes registers SQL Execution's endpoints. */
export async function sqlRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;
  const deps = createSqlDeps(db, ctx.config);
  await app.register(fastifyMultipart, {
    limits: { fileSize: SQL_LIMITS.fileMaxBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
  });
  const base = '/api/projects/:id';
  const connection = `${base}/database-connections/:connectionId`;

  app.get(`${base}/database-connections`, async (request) =>
    listConnections(db, requireUser(request), projectIdOf(request)),
  );
  app.post(`${base}/database-connections`, async (request, reply) => {
    const created = await createConnection(db, requireUser(request), projectIdOf(request), request.body, deps);
    return reply.status(201).send(created);
  });
  app.patch(connection, async (request) =>
    updateConnection(
      db,
      requireUser(request),
      projectIdOf(request),
      idParam(request, 'connectionId'),
      request.body,
      deps,
    ),
  );
  app.delete(connection, async (request) => {
    await deleteConnection(db, requireUser(request), projectIdOf(request), idParam(request, 'connectionId'));
    return { success: true, message: 'Database connection deleted' };
  });
  app.post(`${connection}/test`, async (request) =>
    testConnection(db, requireUser(request), projectIdOf(request), idParam(request, 'connectionId'), deps),
  );
  app.get(`${connection}/tables`, async (request) =>
    connectionTables(db, requireUser(request), projectIdOf(request), idParam(request, 'connectionId'), deps),
  );

  app.post(`${base}/files/upload`, async (request, reply) => {
    const actor = requireUser(request);
    const projectId = projectIdOf(request);
    if (!request.isMultipart()) {
      throw badRequest('multipart_required', 'Send the file as multipart/form-data');
    }
    const upload = await readUpload(request);
    const stored = await uploadSqlFile(db, actor, projectId, upload, deps);
    return reply.status(201).send(stored);
  });
  app.get(`${base}/files`, async (request) =>
    listFiles(db, requireUser(request), projectIdOf(request), (request.query as { type?: unknown }).type),
  );
  app.delete(`${base}/files/:fileId`, async (request) => {
    await deleteFile(db, requireUser(request), projectIdOf(request), idParam(request, 'fileId'), deps);
    return { success: true, message: 'SQL file deleted' };
  });

  app.post(`${base}/files/execute-sql`, async (request) =>
    executeSqlFile(db, requireUser(request), projectIdOf(request), request.body, deps),
  );
  app.post(`${base}/execute-direct-sql`, async (request) =>
    executeDirectSql(db, requireUser(request), projectIdOf(request), request.body, deps),
  );
  app.get(`${base}/query-history`, async (request) => listQueryHistory(db, requireUser(request), projectIdOf(request)));
}
