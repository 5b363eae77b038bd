import type { Generated } from 'kysely';

// Monitoring (features/monitoring): the requests of the APIs in time buckets, and the database's health each minute.

/** A bigint: PostgreSQL answers it as a string. */
type Big = number | string;

/**
 * RequestMetricsTable adds up the requests of one bucket (a minute or an hour, starting `at`), account, API family
 * and route: counts, errors, bytes, latency sum and maximum, and a latency histogram (h0 … h13, LATENCY_BOUNDS_MS).
 */
export interface RequestMetricsTable {
  bucket: string;
  at: string;
  /** '' for requests of no account (anonymous, refused before one was known). */
  account_id: string;
  family: string;
  route: string;
  requests: Big;
  errors_4xx: Big;
  errors_5xx: Big;
  bytes: Big;
  total_ms: number;
  max_ms: number;
  h0: Big;
  h1: Big;
  h2: Big;
  h3: Big;
  h4: Big;
  h5: Big;
  h6: Big;
  h7: Big;
  h8: Big;
  h9: Big;
  h10: Big;
  h11: Big;
  h12: Big;
  h13: Big;
}

/** RequestMetricBatchesTable holds the ids of the metric batches already added: a retried one is not added twice. */
export interface RequestMetricBatchesTable {
  id: string;
  created_at: string;
}

/** DatabaseHealthTable is one snapshot of the database's health per minute, whichever node took it. */
export interface DatabaseHealthTable {
  id: Generated<number>;
  /** The minute, ISO-8601 UTC; unique. */
  at: string;
  node: string;
  status: string;
  reason: string | null;
  latency_ms: number | null;
  database_bytes: Big | null;
  disk_free_bytes: Big | null;
  disk_total_bytes: Big | null;
  cpu_percent: number;
  rss_bytes: Big;
  heap_used_bytes: Big;
  active_connections: number;
  max_connections: number;
}
