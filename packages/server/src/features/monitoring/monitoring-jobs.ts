import { METRIC_BUCKETS } from '@basalt/shared/monitoring';
import type { Db } from '../../db/database.js';
import { HEALTH_RHYTHM, type HealthRecorder } from './health-history.js';
import { deleteMetricsBefore } from './metrics.store.js';
import { BEAT_EVERY_MS } from './prometheus.js';

// Monitoring's background work (app-jobs.ts), on every node: the health snapshot each minute (one node's is kept
// per minute), retention each hour (idempotent deletes, harmless on several nodes), and, with Prometheus on, the
// bus beat that measures how late other nodes' events arrive.

/** MONITORING_RHYTHMS are when the jobs run. */
export const MONITORING_RHYTHMS = {
  snapshot: { firstAfterMs: 5_000, everyMs: HEALTH_RHYTHM.everyMs },
  retention: { firstAfterMs: 90_000, everyMs: 3_600_000 },
  beat: { firstAfterMs: 1_000, everyMs: BEAT_EVERY_MS },
};

/** runMonitoringRetention forgets minute metrics after 24 hours, hour metrics after 90 days, snapshots after 30. */
export async function runMonitoringRetention(
  ctx: { db: Db; healthHistory: HealthRecorder },
  now = Date.now(),
): Promise<void> {
  await deleteMetricsBefore(ctx.db, '1m', now - METRIC_BUCKETS['1m'].keptMs);
  await deleteMetricsBefore(ctx.db, '1h', now - METRIC_BUCKETS['1h'].keptMs);
  await ctx.healthHistory.prune(now);
}
