import { type ImportCandidates, importTablesSchema, type LayoutElement, type TableSchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { listTables, schemaWithIdColumn } from '../tables/tables.service.js';
import { linkTable } from './project-tables.service.js';
import { memberProject } from './projects.service.js';
import { listLinkedTableRows } from './projects.store.js';
import { mergeLayoutUpdates, readLayout } from './schema-layouts.service.js';

// "Import existing tables" (issue 35): a new person's tables are their own, not linked to the project, so an
// import that drew only linked tables said "Nothing to import" to someone with tables. The import now offers the
// caller's own tables too: those it names are linked to the project (as "Link table" does: its members then reach
// them by their role) and drawn, with the linked tables the canvas does not show yet.

const EMPTY_LAYOUT = { elements: [], version: 0, lastModified: null };

const shownNames = (elements: readonly LayoutElement[]) => new Set(elements.map((e) => e.name.trim().toLowerCase()));

/** importCandidates tells what an import could draw: linked tables not shown, the caller's own unlinked ones. */
export async function importCandidates(db: Db, actor: Actor, projectId: string): Promise<ImportCandidates> {
  await memberProject(db, actor, projectId, 'schema.write');
  const layout = (await readLayout(db, projectId)) ?? EMPTY_LAYOUT;
  const shown = shownNames(layout.elements);
  const rows = await listLinkedTableRows(db.kysely, projectId);
  const linkedIds = new Set(rows.map((row) => Number(row.id)));
  const own = (await listTables(db, { accountId: actor.accountId })).filter((table) => !linkedIds.has(table.id));
  return {
    linked: rows
      .filter((row) => !shown.has(row.name.toLowerCase()))
      .map((row) => ({ id: Number(row.id), name: row.name })),
    own: own.map((table) => ({ id: table.id, name: table.name })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/**
 * importTables links the caller's own tables the body names to the project (404 for a table that is not the
 * caller's), then adds every linked table the layout does not show yet to it (DEVELOPER and up).
 */
export async function importTables(db: Db, actor: Actor, projectId: string, body?: unknown) {
  const { tableIds = [] } = parseInput(importTablesSchema, body);
  await memberProject(db, actor, projectId, 'schema.write');
  for (const tableId of new Set(tableIds)) await linkTable(db, actor, projectId, tableId);
  const layout = (await readLayout(db, projectId)) ?? EMPTY_LAYOUT;
  const shown = shownNames(layout.elements);
  const added: LayoutElement[] = [];
  const rows = await listLinkedTableRows(db.kysely, projectId);
  for (const row of rows) {
    if (shown.has(row.name.toLowerCase())) continue;
    const index = layout.elements.length + added.length;
    const schema = schemaWithIdColumn(JSON.parse(row.schema) as TableSchema);
    added.push({
      id: `table-${row.id}`,
      name: row.name,
      type: 'table',
      position: { x: 40 + (index % 4) * 300, y: 40 + Math.floor(index / 4) * 260 },
      fields: Object.entries(schema).map(([column, definition]) => ({
        id: `table-${row.id}.${column}`,
        name: column,
        type: column === 'id' ? 'integer' : definition.type,
        ...(column === 'id' ? { primary: true } : {}),
        ...(definition.references
          ? { references: { table: definition.references.table, onDelete: definition.references.onDelete } }
          : {}),
      })),
    });
  }
  if (added.length === 0) return { layout, imported: 0 };
  const outcome = await mergeLayoutUpdates(db, projectId, [
    { actor, elements: [...layout.elements, ...added], version: layout.version, timestamp: Date.now() },
  ]);
  return { layout: outcome.layout, imported: added.length };
}
