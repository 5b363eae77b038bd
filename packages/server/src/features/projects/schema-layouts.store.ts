import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

// The SQL of a project's Schema Editor layout (the default one, named DEFAULT_LAYOUT) and its recent versions.

type Db = Kysely<SystemDatabase>;

/** DEFAULT_LAYOUT is the name of the layout the Schema Editor edits (one per project). */
export const DEFAULT_LAYOUT = 'default';

/** LayoutRow is a project's stored layout. */
export interface LayoutRow {
  layout: string;
  version: number;
  deleted_ids: string;
  updated_at: string;
}

/** findLayoutRow reads a project's layout, or undefined when it has none yet. */
export async function findLayoutRow(db: Db, projectId: string): Promise<LayoutRow | undefined> {
  const row = await db
    .selectFrom('schema_layouts')
    .select(['layout', 'version', 'deleted_ids', 'updated_at'])
    .where('project_id', '=', projectId)
    .where('name', '=', DEFAULT_LAYOUT)
    .executeTakeFirst();
  return row ? { ...row, version: Number(row.version) } : undefined;
}

/**
 * lockLayoutRow locks a project's layout row for the rest of the transaction and reads it, in one statement (a
 * write that changes nothing: a row lock on PostgreSQL, the write lock on SQLite). A project without one gets a
 * blank row (version 0) first.
 */
export async function lockLayoutRow(db: Db, projectId: string, createdBy: string, now: string): Promise<LayoutRow> {
  const lockAndRead = async () => {
    const row = await db
      .updateTable('schema_layouts')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('project_id', '=', projectId)
      .where('name', '=', DEFAULT_LAYOUT)
      .returning(['layout', 'version', 'deleted_ids', 'updated_at'])
      .executeTakeFirst();
    return row ? { ...row, version: Number(row.version) } : undefined;
  };
  const found = await lockAndRead();
  if (found) return found;
  await db
    .insertInto('schema_layouts')
    .values({
      project_id: projectId,
      name: DEFAULT_LAYOUT,
      layout: '[]',
      version: 0,
      deleted_ids: '[]',
      is_default: 1,
      created_by: createdBy,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
    .execute();
  const created = await lockAndRead();
  if (!created) throw new Error('lockLayoutRow: the layout row could not be created');
  return created;
}

/** updateLayoutRow stores a project's new layout, version and deleted ids. */
export async function updateLayoutRow(
  db: Db,
  projectId: string,
  row: { layout: string; version: number; deletedIds: string; now: string },
): Promise<void> {
  await db
    .updateTable('schema_layouts')
    .set({ layout: row.layout, version: row.version, deleted_ids: row.deletedIds, updated_at: row.now })
    .where('project_id', '=', projectId)
    .where('name', '=', DEFAULT_LAYOUT)
    .execute();
}

/** insertLayoutVersion keeps one version of a project's layout (the base of later updates). */
export async function insertLayoutVersion(
  db: Db,
  projectId: string,
  version: number,
  layout: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('schema_layout_versions')
    .values({ project_id: projectId, version, layout, created_at: now })
    .execute();
}

/** findLayoutVersions reads kept versions' elements (JSON) by version; versions not kept are absent. */
export async function findLayoutVersions(db: Db, projectId: string, versions: number[]): Promise<Map<number, string>> {
  if (versions.length === 0) return new Map();
  const rows = await db
    .selectFrom('schema_layout_versions')
    .select(['version', 'layout'])
    .where('project_id', '=', projectId)
    .where('version', 'in', versions)
    .execute();
  return new Map(rows.map((row) => [Number(row.version), row.layout]));
}

/** deleteLayoutVersionsBefore drops a project's versions older than `version`. */
export async function deleteLayoutVersionsBefore(db: Db, projectId: string, version: number): Promise<void> {
  await db
    .deleteFrom('schema_layout_versions')
    .where('project_id', '=', projectId)
    .where('version', '<', version)
    .execute();
}
