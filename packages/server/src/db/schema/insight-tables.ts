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
