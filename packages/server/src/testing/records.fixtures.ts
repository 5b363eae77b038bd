import type { Db } from '../db/database.js';
import { createTable, findTableById, type TableDefinition } from '../features/tables/tables.service.js';
import type { SignedInAccount } from './tables.fixtures.js';

/** ITEMS_SCHEMA is the records suites' table: one column of every type, with required and unique flags. */
export const ITEMS_SCHEMA = {
  title: { type: 'text', required: true, unique: true },
  qty: { type: 'number' },
  done: { type: 'boolean' },
  due: { type: 'date' },
  meta: { type: 'json' },
  tags: { type: 'array' },
  note: { type: 'text' },
} as const;

/** createItemsTable creates a fresh items table for an account and returns its definition. */
export async function createItemsTable(
  db: Db,
  owner: SignedInAccount,
  name = `items_${Math.random().toString(36).slice(2, 9)}`,
): Promise<TableDefinition> {
  const created = await createTable(db, owner, { name, schema: ITEMS_SCHEMA });
  const table = await findTableById(db, owner, created.id);
  if (!table) throw new Error('createItemsTable: the table is missing');
  return table;
}
