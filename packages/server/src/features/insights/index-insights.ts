import type { Db } from '../../db/database.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { findTableDefinitionById } from '../table-definitions/table-definitions.store.js';
import { accessOf } from '../tables/table-access.js';
import { readShapeFigures, type ShapeFigures } from './query-shapes.js';

// Findings from what the record APIs' reads did (query-shapes.ts): a column lists filter or order on often or
// slowly that has no index (one Basalt can add: "Apply" sets the column's `indexed` flag), and a table whose exact
// counts are slow. A column already served by an index (its own, a unique one, a reference's, the owner column's)
// is never suggested.

/** IndexInsightLimits say when reads are worth an index, and when counts are slow. */
export interface IndexInsightLimits {
  /** Reads of a column fewer than this say nothing. */
  minReads: number;
  /** At this average a column's reads are slow enough to index it. */
  slowReadMs: number;
  /** This many reads of a column are worth an index whatever their time. */
  frequentReads: number;
  /** At this average exact counts are slow. */
  slowCountMs: number;
}

/** INDEX_INSIGHT_LIMITS are the defaults: over a week, a handful of slow reads or very many reads. */
export const INDEX_INSIGHT_LIMITS: IndexInsightLimits = {
  minReads: 5,
  slowReadMs: 25,
  frequentReads: 10_000,
  slowCountMs: 200,
};

/** IndexFinding is one finding, in the shape the insights job stores. */
export interface IndexFinding {
  accountId: string;
  tableId: number;
  fingerprint: string;
  insightType: 'UNINDEXED_FILTER' | 'UNINDEXED_ORDER' | 'SLOW_COUNT';
  title: string;
  description: string;
  impact: 'HIGH' | 'MEDIUM' | 'LOW';
  suggestedAction: string;
  details: Record<string, unknown>;
}

function hasIndex(table: TableDefinition, column: string): boolean {
  const definition = table.schema[column];
  if (!definition) return true; // not a user column (a system column, or dropped): nothing to add
  return (
    definition.indexed === true ||
    definition.unique ||
    definition.references !== undefined ||
    accessOf(table).ownerColumn === column
  );
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function findingOf(table: TableDefinition, f: ShapeFigures, limits: IndexInsightLimits): IndexFinding | null {
  const figures = { calls: f.calls, avgMs: round(f.avgMs) };
  if (f.kind === 'count') {
    if (f.calls < limits.minReads || f.avgMs < limits.slowCountMs) return null;
    return {
      accountId: table.accountId,
      tableId: table.id,
      fingerprint: `SLOW_COUNT:${table.id}`,
      insightType: 'SLOW_COUNT',
      title: `Counting ${table.name} is slow`,
      description: `${f.calls} exact counts of ${table.name} took ${figures.avgMs} ms on average.`,
      impact: f.avgMs >= limits.slowCountMs * 5 ? 'HIGH' : 'MEDIUM',
      suggestedAction: 'Ask for an estimated count (Prefer: count=estimated), or count on indexed filters only.',
      details: figures,
    };
  }
  if (f.calls < limits.minReads || hasIndex(table, f.column)) return null;
  const slow = f.avgMs >= limits.slowReadMs;
  if (!slow && f.calls < limits.frequentReads) return null;
  const type = f.kind === 'filter' ? 'UNINDEXED_FILTER' : 'UNINDEXED_ORDER';
  const verb = f.kind === 'filter' ? 'filtered' : 'ordered';
  return {
    accountId: table.accountId,
    tableId: table.id,
    fingerprint: `${type}:${table.id}:${f.column}`,
    insightType: type,
    title: `${table.name} is ${verb} on ${f.column}, which has no index`,
    description: `${f.calls} reads ${verb} ${table.name} on ${f.column}, taking ${figures.avgMs} ms on average; without an index each reads the whole table.`,
    impact: slow && f.avgMs >= limits.slowReadMs * 4 ? 'HIGH' : slow ? 'MEDIUM' : 'LOW',
    suggestedAction: `Add an index on ${table.name}(${f.column}).`,
    details: { ...figures, column: f.column, apply: 'addIndex' },
  };
}

/** indexFindings reads the kept read figures and answers what they suggest. */
export async function indexFindings(
  db: Db,
  now: Date,
  limits: IndexInsightLimits = INDEX_INSIGHT_LIMITS,
): Promise<IndexFinding[]> {
  const tables = new Map<number, TableDefinition | null>();
  const findings: IndexFinding[] = [];
  for (const f of await readShapeFigures(db, now)) {
    if (!tables.has(f.tableId)) tables.set(f.tableId, await findTableDefinitionById(db.kysely, f.accountId, f.tableId));
    const table = tables.get(f.tableId);
    const finding = table ? findingOf(table, f, limits) : null;
    if (finding) findings.push(finding);
  }
  return findings;
}
