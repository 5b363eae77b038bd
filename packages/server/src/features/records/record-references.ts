import { randomUUID } from 'node:crypto';
import type { OnDeleteAction } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { existingIds, referringRows } from '../../db/references.js';
import type { Condition } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { listTableDefinitions } from '../table-definitions/table-definitions.store.js';

// Reference columns kept true by the one records path, on both engines alike: a write may point only at rows that
// exist (409 23503, PostgreSQL's foreign-key violation, naming the value sent), and deleting rows applies each
// referring column's rule: restrict refuses (naming the referring table, never its rows), cascade deletes the
// referring rows and set null empties their column, through the records service itself, so that every row it
// takes is recorded in history with the same actor and event. As in PostgreSQL, the rule runs whatever the
// caller may see of the referring rows (rules never hide a row from a foreign key).
//
// Which columns refer to which table is read from the account's definitions in the write's transaction: an insert
// or update of a table without reference columns costs nothing more; a delete costs one read of the account's
// definitions.

/** Referrer is a reference column of a table, pointing at another (or the same) table. */
interface Referrer {
  table: TableDefinition;
  column: string;
  onDelete: OnDeleteAction;
}

interface AccountReferences {
  byName: Map<string, TableDefinition>;
  /** Referrers by the lower-cased name of the table they point at. */
  referrers: Map<string, Referrer[]>;
}

function indexed(tables: TableDefinition[]): AccountReferences {
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  const referrers = new Map<string, Referrer[]>();
  for (const table of tables) {
    for (const [column, definition] of Object.entries(table.schema)) {
      const ref = definition.references;
      if (!ref) continue;
      const key = ref.table.toLowerCase();
      referrers.set(key, [...(referrers.get(key) ?? []), { table, column, onDelete: ref.onDelete }]);
    }
  }
  return { byName, referrers };
}

// Read in the write's own transaction, never from a cache: a reference added a moment ago on another node must
// hold here at once (a stale cache would let a delete leave rows pointing nowhere).
async function referencesOf(scope: Db, accountId: string): Promise<AccountReferences> {
  return indexed(await listTableDefinitions(scope.kysely, accountId));
}

const hasReferences = (table: TableDefinition) => Object.values(table.schema).some((c) => c.references);

/** foreignKeyMissing is PostgreSQL's 23503 for a value that points at no row. */
function foreignKeyMissing(table: TableDefinition, column: string, value: number, target: string): ApiError {
  return new ApiError(
    409,
    '23503',
    `insert or update on table "${table.name}" violates foreign key constraint "${table.name}_${column}_fkey"`,
    { details: `Key (${column})=(${value}) is not present in table "${target}".`, hint: null },
  );
}

/** stillReferenced is PostgreSQL's 23503 for a restricted delete: it names the parent's id, never a child row. */
function stillReferenced(table: TableDefinition, referrer: Referrer, id: number): ApiError {
  return new ApiError(
    409,
    '23503',
    `update or delete on table "${table.name}" violates foreign key constraint "${referrer.table.name}_${referrer.column}_fkey" on table "${referrer.table.name}"`,
    { details: `Key (id)=(${id}) is still referenced from table "${referrer.table.name}".`, hint: null },
  );
}

/** checkReferencedRows refuses (23503) rows whose reference columns point at ids their tables do not have. */
export async function checkReferencedRows(
  scope: Db,
  table: TableDefinition,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  if (!hasReferences(table)) return;
  const refs = await referencesOf(scope, table.accountId);
  for (const [column, definition] of Object.entries(table.schema)) {
    if (!definition.references) continue;
    const values = [...new Set(rows.map((row) => row[column]).filter((v): v is number => typeof v === 'number'))];
    if (values.length === 0) continue;
    const target = refs.byName.get(definition.references.table.toLowerCase());
    const found = target ? await existingIds(scope.kysely, scope.dialect, target.id, values) : new Set<number>();
    const missing = values.find((v) => !found.has(v));
    if (missing !== undefined) throw foreignKeyMissing(table, column, missing, definition.references.table);
  }
}

/**
 * CascadeLink is what a rule's write carries into history: the group of the delete that started it, and for each
 * row it writes, the `<tableId>:<recordId>` whose delete caused it. A revert of that row's delete finds the entries
 * beneath it by them and reverts them too (features/history/history-cascades.ts).
 */
export interface CascadeLink {
  group: string;
  causes: ReadonlyMap<number, string>;
}

/** cascadeMark is the history mark of one row a write touched: none outside a delete that cascaded. */
export function cascadeMark(link: CascadeLink | undefined, group: string | null, id: number) {
  const shared = link?.group ?? group;
  return shared === null ? null : { group: shared, causedBy: link?.causes.get(id) ?? null };
}

/** ReferringWrites are the records service's own writes, passed in (this module is below it). */
export interface ReferringWrites {
  deleteWhere(scope: Db, actor: Actor, table: TableDefinition, where: Condition, link: CascadeLink): Promise<unknown>;
  nullWhere(
    scope: Db,
    actor: Actor,
    table: TableDefinition,
    where: Condition,
    column: string,
    link: CascadeLink,
  ): Promise<unknown>;
}

// The rules of the tables referring to this one act as the owner would: a foreign key sees every row.
function unlimited(actor: Actor): Actor {
  return actor.app && actor.app.role !== 'service_role'
    ? { ...actor, app: { ...actor.app, role: 'service_role' } }
    : actor;
}

const inFlight = new WeakMap<object, Set<string>>();

/**
 * applyDeleteRules applies the referring columns' on-delete rules to rows about to be deleted, in the scope, and
 * returns the group their history entries share (the one given, or a new one when a rule wrote; null when none).
 */
export async function applyDeleteRules(
  scope: Db,
  actor: Actor,
  table: TableDefinition,
  ids: readonly number[],
  writes: ReferringWrites,
  group: string | null = null,
): Promise<string | null> {
  if (ids.length === 0) return group;
  const refs = await referencesOf(scope, table.accountId);
  const referrers = refs.referrers.get(table.name.toLowerCase()) ?? [];
  if (referrers.length === 0) return group;
  // Rows deleted in this transaction already (a tree, a cycle of cascades) neither hold the delete back nor are
  // deleted twice.
  let deleting = inFlight.get(scope.kysely);
  if (!deleting) {
    deleting = new Set();
    inFlight.set(scope.kysely, deleting);
  }
  for (const id of ids) deleting.add(`${table.id}:${id}`);
  for (const referrer of referrers) {
    const referring = await referringRows(scope.kysely, referrer.table.id, referrer.column, ids);
    const others = referring.filter((r) => !deleting.has(`${referrer.table.id}:${r.id}`));
    const [first] = others;
    if (!first) continue;
    if (referrer.onDelete === 'restrict') throw stillReferenced(table, referrer, first.pointsAt);
    const where: Condition = { kind: 'in', column: 'id', values: others.map((r) => r.id) };
    group ??= randomUUID();
    const link = { group, causes: new Map(others.map((r) => [r.id, `${table.id}:${r.pointsAt}`])) };
    if (referrer.onDelete === 'cascade') await writes.deleteWhere(scope, unlimited(actor), referrer.table, where, link);
    else await writes.nullWhere(scope, unlimited(actor), referrer.table, where, referrer.column, link);
  }
  return group;
}
