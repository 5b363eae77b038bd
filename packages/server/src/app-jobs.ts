import type { AppContext } from './app-context.js';
import { achievementUnlocks } from './features/achievements/achievement-unlocks.js';
import { startBackupJobs } from './features/backups/backup-jobs.js';
import { PROBE_WINDOW } from './features/health/probe-timings.js';
import { HISTORY_RETENTION_RHYTHM, runHistoryRetention } from './features/history/history-retention.js';
import { examineTables, INSIGHTS_RHYTHM } from './features/insights/insights.service.js';
import { queryShapesJob } from './features/insights/query-shapes.js';
import { LOG_RETENTION_RHYTHM, runLogRetention } from './features/logs/log-retention.js';
import { MONITORING_RHYTHMS, runMonitoringRetention } from './features/monitoring/monitoring-jobs.js';
import { SCHEMA_PRESENCE_RHYTHM } from './features/projects/schema-room.js';
import { REALTIME_RHYTHMS } from './features/realtime/realtime-hub.js';
import { expireResumableUploads, forgetDeletedAccounts } from './features/storage/storage-cleanup.js';
import { every, type Job } from './lib/jobs/job.js';

// Longer than any request may take (REQUEST_TIMEOUT_SECONDS) by far: a partial file this old is abandoned.
const STORAGE_SWEEP_MS = 10 * 60_000;

// Every piece of background work of a server, in one list: started once the server is ready, stopped when it
// closes, the last started first (app.ts). A feature that needs work done in the background adds it here.

/** backgroundJobs lists the server's background jobs. */
export function backgroundJobs(ctx: AppContext): Job[] {
  const failed = (job: string) => (error: unknown) =>
    ctx.log.warn({ err: error }, `${job} failed; it runs again later`);
  return [
    // What buffers and counts flushes on its own rhythm; stopped last, it stores the rest as the server closes.
    { name: 'system log writer', start: () => () => ctx.logs.close() },
    { name: 'request metrics', start: () => () => ctx.monitoring.close() },
    { name: 'usage meter', start: () => () => ctx.usage?.close() },
    { name: 'API rate-limit counters', start: () => () => ctx.keyLimiter.close() },
    // Performance insights: every account's tables looked at once an hour.
    every('performance insights', INSIGHTS_RHYTHM, async () => examineTables(ctx.db), failed('performance insights')),
    // Milestones reached as their actions' events come over the bus.
    achievementUnlocks(ctx.db, failed('achievement unlocks')),
    // What the record APIs' reads filtered, ordered and counted, written each minute for the insights.
    queryShapesJob(ctx.db, failed('query shapes')),
    // The edge functions' Deno processes, egress gateway and invocation recorder (made on the first call).
    { name: 'functions runtime', start: () => () => ctx.functions.close() },
    // The Schema Editor rooms' presence beats; closing ends their sockets.
    { name: 'schema editor rooms', start: () => () => ctx.rooms.close() },
    every('schema editor presence beat', SCHEMA_PRESENCE_RHYTHM, async () => ctx.rooms.beat(), failed('presence beat')),
    // Realtime: its sockets close first; channels whose token expired close, nodes beat for presence, silent
    // sockets are let go.
    { name: 'realtime sockets', start: () => () => ctx.realtime.close() },
    every(
      'realtime token expiry',
      REALTIME_RHYTHMS.tokens,
      async () => ctx.realtime.sweepTokens(),
      failed('realtime token expiry'),
    ),
    every(
      'realtime presence beat',
      REALTIME_RHYTHMS.beat,
      async () => ctx.realtime.presence.beat(),
      failed('realtime presence beat'),
    ),
    every(
      'realtime idle sockets',
      REALTIME_RHYTHMS.idle,
      async () => ctx.realtime.sweepIdle(),
      failed('realtime idle sockets'),
    ),
    // History older than HISTORY_RETENTION_DAYS that no checkpoint needs.
    every('history retention', HISTORY_RETENTION_RHYTHM, () => runHistoryRetention(ctx), failed('history retention')),
    // The system log beyond LOG_RETENTION_DAYS and LOG_RETENTION_MAX_ROWS.
    every('log retention', LOG_RETENTION_RHYTHM, () => runLogRetention(ctx), failed('log retention')),
    // The database's health each minute; request metrics and health snapshots past their keeping.
    every(
      'database health snapshots',
      MONITORING_RHYTHMS.snapshot,
      async () => void (await ctx.healthHistory.snapshot()),
      failed('database health snapshots'),
    ),
    every(
      'monitoring retention',
      MONITORING_RHYTHMS.retention,
      () => runMonitoringRetention(ctx),
      failed('monitoring retention'),
    ),
    // Each node's beat on the bus, for Prometheus's bus lag (only with METRICS_TOKEN).
    ...(ctx.monitoring.prometheus === null
      ? []
      : [
          every(
            'bus lag beat',
            MONITORING_RHYTHMS.beat,
            async () => ctx.monitoring.prometheus?.beat(),
            () => {},
          ),
        ]),
    // Partial files of uploads a killed server cut off (features/storage): untouched for longer than any request.
    every(
      'storage partial uploads',
      { firstAfterMs: 0, everyMs: STORAGE_SWEEP_MS },
      () => ctx.storage.blobs.sweep(STORAGE_SWEEP_MS),
      failed('storage partial uploads'),
    ),
    // Unfinished resumable uploads past their expiry (any node's), and a deleted account's stored bytes.
    every(
      'storage expired resumable uploads',
      { firstAfterMs: STORAGE_SWEEP_MS, everyMs: STORAGE_SWEEP_MS },
      () => expireResumableUploads(ctx.storage),
      failed('storage expired resumable uploads'),
    ),
    {
      name: 'storage of deleted accounts',
      start: () => forgetDeletedAccounts(ctx.storage, failed('storage of deleted accounts')),
    },
    // Scheduled backups, the watch of restores on other nodes, and the clean-up after one that died.
    { name: 'backups', start: () => startBackupJobs(ctx.backups, ctx.tokens) },
    // The database health's window of recent probe timings.
    every(
      'database health probes',
      { firstAfterMs: PROBE_WINDOW.sampleEveryMs, everyMs: PROBE_WINDOW.sampleEveryMs },
      () => ctx.health.sample(),
      () => {},
    ),
  ];
}
