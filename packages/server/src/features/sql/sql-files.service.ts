import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { SQL_LIMITS, type StoredFile, uploadDescriptionSchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { FileMissing } from '../../lib/storage/file-storage.js';
import { requireSqlAccess } from './sql-access.js';
import type { SqlDeps } from './sql-deps.js';
import { deleteFileOf, type FileRow, findFileOf, insertFile, listFilesOf } from './sql-files.store.js';

// A project's SQL files: uploaded (.sql, UTF-8 text, at most SQL_LIMITS.fileMaxBytes), listed, deleted, and read
// back for a run. The row is in file_storage; the bytes are in the file storage under `sql/<project>/<uuid>.sql`.

const fileNotFound = () => notFound('SQL file not found', 'file_not_found');

/** fileTooLarge is the upload's answer to a file past the limit. */
export const fileTooLarge = () =>
  new ApiError(413, 'file_too_large', `SQL files can be at most ${SQL_LIMITS.fileMaxBytes / (1024 * 1024)} MB`);

function toFile(row: FileRow): StoredFile {
  let metadata: StoredFile['metadata'] = { description: null };
  try {
    metadata = { description: null, ...JSON.parse(row.metadata) };
  } catch {
    // A metadata text that is not JSON shows as none.
  }
  return {
    id: Number(row.id),
    projectId: row.project_id,
    userId: row.user_id,
    fileName: row.file_name,
    fileType: row.file_type,
    filePath: row.file_path,
    fileSize: Number(row.file_size),
    publicUrl: row.public_url,
    metadata,
    createdAt: row.created_at,
  };
}

/** Upload is a file as the multipart request carried it. */
export interface Upload {
  fileName: string | null;
  bytes: Buffer | null;
  description: unknown;
  /** The form's projectId field: when sent, it must name the project of the address. */
  projectId: unknown;
}

const SAFE_NAME = /[^\p{L}\p{N} ._()-]/gu;

/** uploadSqlFile stores a .sql file in a project. */
export async function uploadSqlFile(
  db: Db,
  actor: Actor,
  projectId: string,
  upload: Upload,
  deps: SqlDeps,
): Promise<StoredFile> {
  await requireSqlAccess(db, actor, projectId);
  const description =
    upload.description === undefined ? undefined : parseInput(uploadDescriptionSchema, upload.description);
  if (upload.projectId !== undefined && upload.projectId !== projectId) {
    throw badRequest('project_mismatch', 'The projectId field does not name the project of this address');
  }
  if (!upload.fileName || !upload.bytes) throw badRequest('file_required', 'Choose a .sql file to upload');
  const fileName = upload.fileName.split(/[\\/]/).pop()?.replace(SAFE_NAME, '_').slice(0, 200) ?? '';
  if (!/\.sql$/i.test(fileName)) throw badRequest('file_type_not_allowed', 'Only .sql files can be uploaded');
  if (upload.bytes.length > SQL_LIMITS.fileMaxBytes) throw fileTooLarge();
  const text = new TextDecoder('utf-8', { fatal: false }).decode(upload.bytes);
  if (text.includes('\u0000') || text.includes('\uFFFD')) {
    throw badRequest('file_not_text', 'The file is not UTF-8 text: a .sql file must be plain text');
  }
  const key = `sql/${projectId.replace(/[^A-Za-z0-9_-]/g, '_')}/${randomUUID()}.sql`;
  await deps.storage.put(key, Readable.from(upload.bytes), { maxBytes: SQL_LIMITS.fileMaxBytes });
  try {
    const row = await insertFile(db.kysely, {
      project_id: projectId,
      user_id: actor.accountId,
      file_name: fileName,
      file_type: 'sql',
      file_path: key,
      file_size: upload.bytes.length,
      public_url: null,
      metadata: JSON.stringify({ description: description?.trim() || null }),
      created_at: new Date().toISOString(),
    });
    return toFile(row);
  } catch (error) {
    await deps.storage.delete(key);
    throw error;
  }
}

/** listFiles lists a project's files, of one type when asked (`?type=sql`). */
export async function listFiles(db: Db, actor: Actor, projectId: string, type: unknown): Promise<StoredFile[]> {
  await requireSqlAccess(db, actor, projectId);
  const fileType = typeof type === 'string' && type ? type.toLowerCase() : null;
  return (await listFilesOf(db.kysely, projectId, fileType)).map(toFile);
}

/** deleteFile deletes a project's file and its bytes. */
export async function deleteFile(db: Db, actor: Actor, projectId: string, id: number, deps: SqlDeps): Promise<void> {
  await requireSqlAccess(db, actor, projectId);
  const row = await deleteFileOf(db.kysely, projectId, id);
  if (!row) throw fileNotFound();
  await deps.storage.delete(row.file_path);
}

/** readSqlFile reads a project's SQL file as text, with its row. */
export async function readSqlFile(
  db: Db,
  projectId: string,
  id: number,
  deps: SqlDeps,
): Promise<{ file: StoredFile; text: string }> {
  const row = await findFileOf(db.kysely, projectId, id);
  if (!row) throw fileNotFound();
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await deps.storage.get(row.file_path)) chunks.push(Buffer.from(chunk));
    return { file: toFile(row), text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    if (error instanceof FileMissing) {
      throw notFound(`The contents of ${row.file_name} are missing from the file storage`, 'file_missing');
    }
    throw error;
  }
}
