import type { Kysely, Selectable } from 'kysely';
import type { FileStorageTable, SystemDatabase } from '../../db/schema.js';

// The SQL of uploaded files (the `file_storage` system table); their bytes are in lib/storage.

type Db = Kysely<SystemDatabase>;

/** FileRow is one stored file. */
export type FileRow = Selectable<FileStorageTable>;

/** insertFile stores a file's row and returns it with its id. */
export function insertFile(db: Db, row: Omit<FileRow, 'id'>): Promise<FileRow> {
  return db.insertInto('file_storage').values(row).returningAll().executeTakeFirstOrThrow();
}

/** listFilesOf lists a project's files of one type (or all), newest first. */
export function listFilesOf(db: Db, projectId: string, fileType: string | null): Promise<FileRow[]> {
  let query = db.selectFrom('file_storage').selectAll().where('project_id', '=', projectId);
  if (fileType) query = query.where('file_type', '=', fileType);
  return query.orderBy('id', 'desc').execute();
}

/** findFileOf reads one of a project's files, or undefined. */
export function findFileOf(db: Db, projectId: string, id: number): Promise<FileRow | undefined> {
  return db
    .selectFrom('file_storage')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** deleteFileOf deletes one of a project's files and returns it as it was, or undefined. */
export function deleteFileOf(db: Db, projectId: string, id: number): Promise<FileRow | undefined> {
  return db
    .deleteFrom('file_storage')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
