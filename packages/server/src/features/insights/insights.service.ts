import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { INDEX_INSIGHT_LIMITS, type IndexInsightLimits, indexFindings } from './index-insights.js';

// Performance insights: a job looks at every account's tables and records what would make them faster or
// smaller. A finding is kept per (account, fingerprint), so later runs refresh it rather than repeat it, and a
// finding marked implemented is not reopened; an open one that a later run no longer finds is withdrawn.

/** The job runs a few minutes after start and then hourly; runs on several nodes write the same rows. */
export const INSIGHTS_RHYTHM = { firstAfterMs: 5 * 60_000, everyMs: 3600_000 };

/** Above these a table is worth a look; they are deliberately generous so an insight means something. */
export const INSIGHT_LIMITS = { wideColumns: 30, largeHistory: 50_000, hugeHistory: 500_000 };

export interface Insight {
  id: number;
  tableId: number | null;
  insightType: string;
  title: string;
  description: string;
  impact: string;
  suggestedAction: string;
  details: Record<string, unknown> | null;
  /** Basalt can do the suggested action itself (POST /api/insights/:id/apply). */
  canApply: boolean;
  implemented: boolean;
  implementedAt: string | null;
  createdAt: string;
}

interface Finding {
  accountId: string;
  tableId: number;
  fingerprint?: string;
  insightType: string;
  title: string;
  description: string;
  impact: 'HIGH' | 'MEDIUM' | 'LOW';
  suggestedAction: string;
  details: Record<string, unknown>;
}

function columnCount(schema: string): number {
  try {
    const parsed: unknown = JSON.parse(schema);
    return parsed && typeof parsed === 'object' ? Object.keys(parsed).length : 0;
  } catch {
    return 0;
  }
}

async function findingsOf(db: Db): Promise<Finding[]> {
  const findings: Finding[] = [];
  const tables = await db.kysely.selectFrom('user_tables').select(['id', 'account_id', 'name', 'schema']).execute();
  for (const t of tables) {
    const columns = columnCount(t.schema);
    if (columns > INSIGHT_LIMITS.wideColumns) {
      findings.push({
        accountId: t.account_id,
        tableId: Number(t.id),
        insightType: 'WIDE_ROWS',
        title: `${t.name} has very wide rows`,
        description: `${t.name} has ${columns} columns. Every read and write carries all of them.`,
        impact: 'MEDIUM',
        suggestedAction: `Move columns that are rarely read together into a related table, and select only the columns you need.`,
        details: { columns },
      });
    }
  }
  const history = await db.kysely
    .selectFrom('change_history_counts')
    .innerJoin('user_tables', 'user_tables.id', 'change_history_counts.table_id')
    .select([
      'change_history_counts.account_id as account_id',
      'change_history_counts.table_id as table_id',
      'user_tables.name as name',
      sql<string | number>`sum(change_history_counts.change_count)`.as('changes'),
    ])
    .groupBy(['change_history_counts.account_id', 'change_history_counts.table_id', 'user_tables.name'])
    .execute();
  for (const h of history) {
    const changes = Number(h.changes);
    if (changes <= INSIGHT_LIMITS.largeHistory) continue;
    findings.push({
      accountId: h.account_id,
      tableId: Number(h.table_id),
      insightType: 'LARGE_HISTORY',
      title: `${h.name} keeps a large history`,
      description: `${h.name} has ${changes} recorded changes, which take space and slow history views and restores.`,
      impact: changes > INSIGHT_LIMITS.hugeHistory ? 'HIGH' : 'MEDIUM',
      suggestedAction: 'Save a checkpoint, then shorten the history retention in Settings.',
      details: { changes },
    });
  }
  return findings;
}

/** examineTables records the current findings of every account; it answers how many it wrote. */
export async function examineTables(
  db: Db,
  now = new Date(),
  limits: IndexInsightLimits = INDEX_INSIGHT_LIMITS,
): Promise<number> {
  const at = now.toISOString();
  const findings: Finding[] = [...(await findingsOf(db)), ...(await indexFindings(db, now, limits))];
  for (const f of findings) {
    const values = {
      table_id: f.tableId,
      insight_type: f.insightType,
      title: f.title,
      description: f.description,
      impact: f.impact,
      suggested_action: f.suggestedAction,
      details: JSON.stringify(f.details),
      updated_at: at,
    };
    await db.kysely
      .insertInto('performance_insights')
      .values({
        ...values,
        account_id: f.accountId,
        fingerprint: f.fingerprint ?? `${f.insightType}:${f.tableId}`,
        created_at: at,
      })
      .onConflict((c) => c.columns(['account_id', 'fingerprint']).doUpdateSet(values))
      .execute();
  }
  // What this run did not find again no longer holds (an index added by hand, a table slimmed down).
  await db.kysely
    .deleteFrom('performance_insights')
    .where('implemented', '=', 0)
    .where('updated_at', '<', at)
    .execute();
  return findings.length;
}

type Row = Awaited<ReturnType<typeof rowsOf>>[number];
const rowsOf = (db: Db, accountId: string) =>
  db.kysely
    .selectFrom('performance_insights')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('implemented')
    .orderBy('id')
    .execute();

/** toInsight is a stored insight as the API answers it. */
export function toInsight(r: Row): Insight {
  const details = r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null;
  return {
    id: Number(r.id),
    tableId: r.table_id === null ? null : Number(r.table_id),
    insightType: r.insight_type,
    title: r.title,
    description: r.description,
    impact: r.impact,
    suggestedAction: r.suggested_action,
    details,
    canApply: details?.apply === 'addIndex',
    implemented: Number(r.implemented) === 1,
    implementedAt: r.implemented_at,
    createdAt: r.created_at,
  };
}

/** listInsights answers the actor's account's insights, open ones first. */
export async function listInsights(db: Db, actor: Actor): Promise<Insight[]> {
  return (await rowsOf(db, actor.accountId)).map(toInsight);
}

/** markImplemented marks one of the actor's account's insights implemented (404 for another account's). */
export async function markImplemented(db: Db, actor: Actor, id: number): Promise<Insight> {
  const at = new Date().toISOString();
  await db.kysely
    .updateTable('performance_insights')
    .set({ implemented: 1, implemented_at: at })
    .where('account_id', '=', actor.accountId)
    .where('id', '=', id)
    .where('implemented', '=', 0)
    .execute();
  const row = await db.kysely
    .selectFrom('performance_insights')
    .selectAll()
    .where('account_id', '=', actor.accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Insight not found', 'insight_not_found');
  return toInsight(row);
}
