import type { Kysely, Selectable } from 'kysely';
import type { DatabaseConnectionsTable, SystemDatabase } from '../../db/schema.js';

// The SQL of database connections (the `database_connections` system table), always within one project.

type Db = Kysely<SystemDatabase>;

/** ConnectionRow is one stored connection. */
export type ConnectionRow = Selectable<DatabaseConnectionsTable>;

/** NewConnectionRow is what registering a connection stores. */
export type NewConnectionRow = Omit<ConnectionRow, 'id' | 'last_connected'>;

/** insertConnection stores a connection and returns it with its id. */
export function insertConnection(db: Db, row: NewConnectionRow): Promise<ConnectionRow> {
  return db
    .insertInto('database_connections')
    .values({ ...row, last_connected: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** listConnectionsOf lists a project's connections, oldest first. */
export function listConnectionsOf(db: Db, projectId: string): Promise<ConnectionRow[]> {
  return db
    .selectFrom('database_connections')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id', 'asc')
    .execute();
}

/** findConnectionOf reads one of a project's connections, or undefined. */
export function findConnectionOf(db: Db, projectId: string, id: number): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('database_connections')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** findFirstActiveConnection is a project's oldest active connection: the default of a file run. */
export function findFirstActiveConnection(db: Db, projectId: string): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('database_connections')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('is_active', '=', 1)
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
}

/** updateConnectionOf changes one of a project's connections and returns it, or undefined. */
export function updateConnectionOf(
  db: Db,
  projectId: string,
  id: number,
  changes: Partial<Omit<ConnectionRow, 'id' | 'project_id' | 'user_id' | 'created_at'>>,
): Promise<ConnectionRow | undefined> {
  return db
    .updateTable('database_connections')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** deleteConnectionOf deletes one of a project's connections; false when it had none such. */
export async function deleteConnectionOf(db: Db, projectId: string, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('database_connections')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** listConnectionSecrets lists every connection's sealed secret (sealing them again after a key rotation). */
export function listConnectionSecrets(
  db: Db,
): Promise<Array<{ id: number; project_id: string; secret_sealed: string }>> {
  return db.selectFrom('database_connections').select(['id', 'project_id', 'secret_sealed']).execute();
}

/** updateConnectionSecret stores a connection's secret sealed again. */
export async function updateConnectionSecret(db: Db, id: number, secretSealed: string): Promise<void> {
  await db.updateTable('database_connections').set({ secret_sealed: secretSealed }).where('id', '=', id).execute();
}
