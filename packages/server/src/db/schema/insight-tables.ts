import type { Generated } from 'kysely';

/** PerformanceInsightsTable holds the insight job's findings per account (migration 0037). */
export interface PerformanceInsightsTable {
  id: Generated<number>;
  account_id: string;
  table_id: number | null;
  /** The finding's kind and table: one row per finding, updated by later runs. */
  fingerprint: string;
  insight_type: string;
  title: string;
  description: string;
  /** HIGH, MEDIUM or LOW. */
  impact: string;
  suggested_action: string;
  /** JSON of the figures the finding was made from. */
  details: string | null;
  implemented: Generated<number>;
  implemented_at: string | null;
  created_at: string;
  updated_at: string;
}

/** QueryShapesTable adds up the record APIs' reads per table, kind, column and day (migration 0043). */
export interface QueryShapesTable {
  table_id: number;
  /** filter, order or count. */
  kind: string;
  /** The column filtered or ordered on; '' for a count. */
  column_name: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  account_id: string;
  /** A bigint: PostgreSQL answers it as a string. */
  calls: number | string;
  total_ms: number;
}

/** UserAchievementsTable holds the milestones each account reached, and when (migration 0038). */
export interface UserAchievementsTable {
  account_id: string;
  achievement_id: string;
  unlocked_at: string;
}
