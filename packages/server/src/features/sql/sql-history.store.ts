import type { Kysely, Selectable } from 'kysely';
import type { QueryHistoryTable, SystemDatabase } from '../../db/schema.js';

// The SQL of the query history (the `query_history` system table): one row per run.

type Db = Kysely<SystemDatabase>;

/** HistoryRow is one recorded run. */
export type HistoryRow = Selectable<QueryHistoryTable>;

/** insertHistory records a run. */
export async function insertHistory(db: Db, row: Omit<HistoryRow, 'id'>): Promise<void> {
  await db.insertInto('query_history').values(row).execute();
}

/** listHistoryOf lists a project's latest runs, newest first. */
export function listHistoryOf(db: Db, projectId: string, limit: number): Promise<HistoryRow[]> {
  return db
    .selectFrom('query_history')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
