import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import { assertCan } from '../records/records.service.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { cachedTableByName, findTableByName, listTableDefinitionsOf } from '../tables/tables.service.js';
import { RestQueryError } from './rest-query.errors.js';
import type { EmbedItem } from './rest-query.types.js';

// Which relationship an embedded resource means, found from the tables' reference columns as PostgREST finds it
// from foreign keys: a reference of the parent to the target (many-to-one, an object or null), of the target to
// the parent (one-to-many, an array), or two references of a third table, a junction, to both (many-to-many).
// A reference's name is PostgREST's constraint name, `<table>_<column>_fkey`; a hint (`!name`) picks one by
// that name or by the column. Nothing found is PGRST200 (400), more than one PGRST201 (300), in PostgREST's words.

/** Relationship is how a parent's rows meet an embedded table's rows. */
export interface Relationship {
  cardinality: 'many-to-one' | 'one-to-many' | 'many-to-many';
  target: TableDefinition;
  /** many-to-one: parent.column = target.id; one-to-many: target.column = parent.id. */
  column: string;
  constraint: string;
  /** many-to-many: the junction, its column pointing at the parent and the one pointing at the target. */
  junction?: { table: TableDefinition; parentColumn: string; targetColumn: string };
}

/** constraintName is a reference's name, as PostgreSQL would name its foreign key. */
export const constraintName = (table: string, column: string) => `${table}_${column}_fkey`;

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** referencesOf lists a table's reference columns pointing at a table of that name. */
function referencesOf(table: TableDefinition, target: string): string[] {
  return Object.entries(table.schema).flatMap(([column, definition]) =>
    definition.references && sameName(definition.references.table, target) ? [column] : [],
  );
}

function noRelationship(parent: string, child: string, hint: string | null): RestQueryError {
  const using = hint === null ? '' : ` using the hint '${hint}'`;
  return new RestQueryError(
    400,
    'PGRST200',
    `Could not find a relationship between '${parent}' and '${child}' in the schema cache`,
    `Searched for a foreign key relationship between '${parent}' and '${child}'${using} in the schema 'public', but no matches were found.`,
  );
}

function describe(parent: TableDefinition, r: Relationship): string {
  if (r.junction) {
    const j = r.junction;
    return `public.${j.table.name}[${constraintName(j.table.name, j.parentColumn)}][${constraintName(j.table.name, j.targetColumn)}]`;
  }
  return r.cardinality === 'many-to-one'
    ? `${r.constraint} using ${parent.name}(${r.column}) and ${r.target.name}(id)`
    : `${r.constraint} using ${parent.name}(id) and ${r.target.name}(${r.column})`;
}

function ambiguous(parent: TableDefinition, child: string, found: Relationship[]): RestQueryError {
  const error = new RestQueryError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent.name}' and '${child}'`,
    null,
    `Try changing '${child}' to one of the following: ${found.map((r) => `'${child}!${r.junction ? r.junction.table.name : r.constraint}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  );
  // PostgREST's details here are a list, not a sentence.
  error.details.details = found.map((r) => ({
    cardinality: r.cardinality,
    embedding: `${parent.name} with ${child}`,
    relationship: describe(parent, r),
  })) as unknown as string;
  return error;
}

async function tableNamed(db: Db, actor: Actor, name: string): Promise<TableDefinition | null> {
  return cachedTableByName(db, actor, name) ?? (await findTableByName(db, actor, name));
}

// A hint names a constraint or a column of the relationship (the junction's name for many-to-many).
function fitsHint(r: Relationship, hint: string | null): boolean {
  if (hint === null) return true;
  if (r.junction) return sameName(r.junction.table.name, hint);
  return r.constraint === hint || r.column === hint;
}

async function junctions(db: Db, actor: Actor, parent: TableDefinition, target: TableDefinition) {
  const found: Relationship[] = [];
  for (const table of await listTableDefinitionsOf(db, actor)) {
    const toParent = referencesOf(table, parent.name);
    const toTarget = referencesOf(table, target.name);
    for (const parentColumn of toParent) {
      for (const targetColumn of toTarget) {
        if (parentColumn === targetColumn) continue;
        found.push({
          cardinality: 'many-to-many',
          target,
          column: targetColumn,
          constraint: constraintName(table.name, targetColumn),
          junction: { table, parentColumn, targetColumn },
        });
      }
    }
  }
  return found;
}

/** resolveRelationship finds the one relationship an embed means, or throws PGRST200 / PGRST201. */
export async function resolveRelationship(
  db: Db,
  actor: Actor,
  parent: TableDefinition,
  item: EmbedItem,
): Promise<Relationship> {
  const byColumn = parent.schema[item.name]?.references;
  // `author_id(*)`: the column names the many-to-one itself.
  if (byColumn && item.hint === null) {
    const target = await tableNamed(db, actor, byColumn.table);
    if (target) {
      assertCan(actor, 'read', target);
      return {
        cardinality: 'many-to-one',
        target,
        column: item.name,
        constraint: constraintName(parent.name, item.name),
      };
    }
  }
  const target = await tableNamed(db, actor, item.name);
  if (!target) throw noRelationship(parent.name, item.name, item.hint);
  assertCan(actor, 'read', target);
  const direct: Relationship[] = [
    ...referencesOf(parent, target.name).map((column) => ({
      cardinality: 'many-to-one' as const,
      target,
      column,
      constraint: constraintName(parent.name, column),
    })),
    ...referencesOf(target, parent.name).map((column) => ({
      cardinality: 'one-to-many' as const,
      target,
      column,
      constraint: constraintName(target.name, column),
    })),
  ].filter((r) => fitsHint(r, item.hint));
  let found = direct;
  if (found.length === 0) found = (await junctions(db, actor, parent, target)).filter((r) => fitsHint(r, item.hint));
  // A table related to itself has both directions through one column: `children:categories!parent_id` means the
  // rows pointing here (PostgREST's reading); `parent_id(*)` above means the row pointed at.
  if (found.length === 2 && parent.id === target.id && found[0]?.column === found[1]?.column && item.hint !== null) {
    found = found.filter((r) => r.cardinality === 'one-to-many');
  }
  const [only] = found;
  if (!only) throw noRelationship(parent.name, item.name, item.hint);
  if (found.length > 1) throw ambiguous(parent, item.name, found);
  if (only.junction) assertCan(actor, 'read', only.junction.table);
  return only;
}
