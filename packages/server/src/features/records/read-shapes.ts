import type { Db } from '../../db/database.js';
import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';

// The shapes of the record APIs' reads (/rest/v1, /api/tables, the console's grid), for the performance insights:
// which columns of which table lists filter and order on, how often and how long they took, and how long exact
// counts took. Nothing is written on the request path: each read adds to a few numbers in memory, per database,
// and the insights feature takes them away in batches (features/insights/query-shapes.ts). A point read (one id)
// and a read with neither filter nor order note nothing. Only plain column comparisons are noted (=, <, >, IN,
// IS): what a B-tree index on the column serves; patterns, containment and JSON paths are not. REQUEST_METRICS=off
// stops the noting for a database (features/monitoring): its reads then skip even the clock.

/** ReadTally is how many reads there were and how long they took together. */
export interface ReadTally {
  calls: number;
  totalMs: number;
}

/** TableReads is what one table's reads did since they were last taken. */
export interface TableReads {
  accountId: string;
  filters: Map<string, ReadTally>;
  orders: Map<string, ReadTally>;
  counts: ReadTally;
}

// A bound on what one node keeps between flushes: past it, reads of tables not yet seen are not noted.
const MAX_TABLES = 2000;
const MAX_COLUMNS = 64;

const shapesByDb = new WeakMap<Db, Map<number, TableReads>>();
const notNoted = new WeakSet<Db>();
// The last database noted for, and its tables: a server has one, so the WeakMap is rarely asked.
let lastDb: Db | null = null;
let lastTables: Map<number, TableReads> | null = null;

function tablesOf(db: Db): Map<number, TableReads> {
  if (db === lastDb && lastTables) return lastTables;
  let tables = shapesByDb.get(db);
  if (!tables) {
    tables = new Map();
    shapesByDb.set(db, tables);
  }
  lastDb = db;
  lastTables = tables;
  return tables;
}

function tableReads(db: Db, table: TableDefinition): TableReads | null {
  const tables = tablesOf(db);
  let reads = tables.get(table.id);
  if (!reads) {
    if (tables.size >= MAX_TABLES) return null;
    reads = { accountId: table.accountId, filters: new Map(), orders: new Map(), counts: { calls: 0, totalMs: 0 } };
    tables.set(table.id, reads);
  }
  return reads;
}

function tally(into: Map<string, ReadTally>, column: string, ms: number) {
  const found = into.get(column);
  if (found) {
    found.calls += 1;
    found.totalMs += ms;
  } else if (into.size < MAX_COLUMNS) {
    into.set(column, { calls: 1, totalMs: ms });
  }
}

// The columns whose comparisons an index could serve, through AND and OR (each column once: a condition has few).
function filterColumns(condition: Condition, into: string[]) {
  switch (condition.kind) {
    case 'and':
    case 'or':
      for (const inner of condition.conditions) filterColumns(inner, into);
      return;
    case 'compare':
    case 'in':
    case 'is':
      if (!condition.path && condition.column !== 'id' && !into.includes(condition.column)) into.push(condition.column);
      return;
    default:
      return;
  }
}

/** stopNotingReads turns the noting off for a database's reads (REQUEST_METRICS=off), and drops what it held. */
export function stopNotingReads(db: Db): void {
  notNoted.add(db);
  takeReadShapes(db);
  if (lastDb === db) lastDb = null;
}

/** notesReads tells whether a database's reads are noted; the record reads ask before they read the clock. */
export function notesReads(db: Db): boolean {
  return db === lastDb || !notNoted.has(db);
}

/** noteList adds a list read's filtered and ordered columns and its time; only at the root, never in a scope. */
export function noteList(
  db: Db,
  table: TableDefinition,
  where: Condition | undefined,
  order: OrderTerm[] | undefined,
  ms: number,
): void {
  if (!where && !order) return;
  const reads = tableReads(db, table);
  if (!reads) return;
  if (where) {
    const columns: string[] = [];
    filterColumns(where, columns);
    for (const column of columns) tally(reads.filters, column, ms);
  }
  if (order) {
    for (const term of order) if (!term.path && term.column !== 'id') tally(reads.orders, term.column, ms);
  }
}

/** noteCount adds an exact count's time. */
export function noteCount(db: Db, table: TableDefinition, ms: number): void {
  const reads = tableReads(db, table);
  if (!reads) return;
  reads.counts.calls += 1;
  reads.counts.totalMs += ms;
}

/** takeReadShapes hands over what this database's reads noted since the last take, and starts afresh. */
export function takeReadShapes(db: Db): Map<number, TableReads> {
  const tables = shapesByDb.get(db) ?? new Map<number, TableReads>();
  shapesByDb.delete(db);
  if (lastDb === db) lastTables = null;
  return tables;
}
