import type { Db } from '../../db/database.js';
import { type SearchRowChange, searchColumns, syncSearchRows } from '../../db/text-search/search-index.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { RecordChange } from './record-events.js';

// The one records path keeps the search index of each searchable column in step with every write, in the
// write's transaction (db/text-search/search-index.ts): on SQLite the column's FTS5 table gets the written rows'
// lexemes and loses the deleted rows'; on PostgreSQL the GIN index follows by itself and nothing is written.

/** syncSearch passes a write's record changes to the search index of each searchable column of its table. */
export async function syncSearch(scope: Db, table: TableDefinition, changes: readonly RecordChange[]): Promise<void> {
  if (changes.length === 0) return;
  for (const column of searchColumns(table.schema)) {
    const rows: SearchRowChange[] = [];
    for (const { type, record, oldRecord } of changes) {
      const text = record?.[column];
      if (type === 'UPDATE' && oldRecord && record && oldRecord[column] === text) continue;
      const id = (record ?? oldRecord)?.id;
      if (id === undefined) continue;
      rows.push({ id, text: typeof text === 'string' ? text : null });
    }
    await syncSearchRows(scope.kysely, scope.dialect.name, table.id, column, rows);
  }
}
