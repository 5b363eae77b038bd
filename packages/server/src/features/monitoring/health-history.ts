import fs from 'node:fs/promises';
import type { HealthHistory, HealthSnapshot, HealthStatus } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { invalid } from '../../http/errors.js';
import { pingDatabase } from '../health/health.store.js';

// The database's health, one snapshot a minute (a background job on every node; the first node to store a minute
// keeps it), kept 30 days: status by thresholds, a round trip's latency, the database's and the data disk's sizes,
// the process's CPU and memory, the connections. GET /api/health/database/history reads them.

/** HEALTH_RHYTHM: a snapshot every minute, kept 30 days. */
export const HEALTH_RHYTHM = { everyMs: 60_000, keptMs: 30 * 24 * 3600_000 };

/** HEALTH_THRESHOLDS decide a snapshot's status (docs/monitoring.md). */
export const HEALTH_THRESHOLDS = {
  latencyWarningMs: 100,
  latencyCriticalMs: 1000,
  diskFreeWarning: 0.15,
  diskFreeCritical: 0.05,
  connectionsWarning: 0.8,
  connectionsCritical: 0.95,
};

/** statusOf ranks a snapshot's measures: CRITICAL, WARNING or HEALTHY, with the first reason found. */
export function statusOf(m: Omit<HealthSnapshot, 'at' | 'status' | 'reason'>): {
  status: HealthStatus;
  reason: string | null;
} {
  const t = HEALTH_THRESHOLDS;
  const diskFree = m.diskFreeBytes !== null && m.diskTotalBytes ? m.diskFreeBytes / m.diskTotalBytes : null;
  const used = m.maxConnections > 1 ? m.activeConnections / m.maxConnections : 0;
  if (m.latencyMs === null) return { status: 'CRITICAL', reason: 'The database did not answer' };
  if (m.latencyMs >= t.latencyCriticalMs) return { status: 'CRITICAL', reason: `A round trip took ${m.latencyMs} ms` };
  if (diskFree !== null && diskFree < t.diskFreeCritical)
    return { status: 'CRITICAL', reason: 'The data disk is almost full' };
  if (used >= t.connectionsCritical) return { status: 'CRITICAL', reason: 'Almost every connection is in use' };
  if (m.latencyMs >= t.latencyWarningMs) return { status: 'WARNING', reason: `A round trip took ${m.latencyMs} ms` };
  if (diskFree !== null && diskFree < t.diskFreeWarning)
    return { status: 'WARNING', reason: 'The data disk is filling up' };
  if (used >= t.connectionsWarning) return { status: 'WARNING', reason: 'Most connections are in use' };
  return { status: 'HEALTHY', reason: null };
}

/** HealthRecorder takes this node's snapshots. */
export interface HealthRecorder {
  /** snapshot measures now and stores the minute's snapshot, unless another node stored it first. */
  snapshot(now?: number): Promise<HealthSnapshot>;
  /** prune forgets snapshots older than 30 days. */
  prune(now?: number): Promise<void>;
}

/** createHealthRecorder measures `db` and the disk holding `dataDir`; `node` names this node in the rows. */
export function createHealthRecorder(db: Db, dataDir: string, node: string): HealthRecorder {
  let lastCpu = process.cpuUsage();
  let lastAt = performance.now();

  async function measure(at: string): Promise<HealthSnapshot> {
    let latencyMs: number | null = null;
    try {
      const started = performance.now();
      await pingDatabase(db.kysely);
      latencyMs = Math.round((performance.now() - started) * 100) / 100;
    } catch {
      latencyMs = null;
    }
    const stats = latencyMs === null ? null : await db.connectionStats().catch(() => null);
    const disk = await fs.statfs(dataDir).catch(() => null);
    const cpu = process.cpuUsage(lastCpu);
    const elapsedMs = performance.now() - lastAt;
    lastCpu = process.cpuUsage();
    lastAt = performance.now();
    const memory = process.memoryUsage();
    const sizeBytes = stats?.details.sizeBytes;
    const measures = {
      latencyMs,
      databaseBytes: typeof sizeBytes === 'number' ? sizeBytes : null,
      diskFreeBytes: disk ? disk.bavail * disk.bsize : null,
      diskTotalBytes: disk ? disk.blocks * disk.bsize : null,
      cpuPercent: elapsedMs > 0 ? Math.round(((cpu.user + cpu.system) / 1000 / elapsedMs) * 1000) / 10 : 0,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      activeConnections: stats?.active ?? 0,
      maxConnections: stats?.max ?? 0,
    };
    return { at, ...statusOf(measures), ...measures };
  }

  return {
    async snapshot(now = Date.now()) {
      const at = new Date(now - (now % 60_000)).toISOString();
      const s = await measure(at);
      await db.kysely
        .insertInto('database_health')
        .values({
          at,
          node,
          status: s.status,
          reason: s.reason,
          latency_ms: s.latencyMs,
          database_bytes: s.databaseBytes,
          disk_free_bytes: s.diskFreeBytes,
          disk_total_bytes: s.diskTotalBytes,
          cpu_percent: s.cpuPercent,
          rss_bytes: s.rssBytes,
          heap_used_bytes: s.heapUsedBytes,
          active_connections: s.activeConnections,
          max_connections: s.maxConnections,
        })
        .onConflict((oc) => oc.column('at').doNothing())
        .execute();
      return s;
    },
    async prune(now = Date.now()) {
      const cutoff = new Date(now - HEALTH_RHYTHM.keptMs).toISOString();
      await db.kysely.deleteFrom('database_health').where('at', '<', cutoff).execute();
    },
  };
}

// The most snapshots one answer holds (12 hours of minutes).
const MAX_POINTS = 720;

const big = (v: number | string | null) => (v === null ? null : Number(v));

/** readHealthHistory reads the snapshots of a range (the last 24 hours by default, at most 30 days), oldest first. */
export async function readHealthHistory(
  db: Db,
  range: { from?: string; to?: string },
  now = Date.now(),
): Promise<HealthHistory> {
  const to = range.to !== undefined ? Date.parse(range.to) : now;
  const from = range.from !== undefined ? Date.parse(range.from) : to - 24 * 3600_000;
  if (from >= to) throw invalid({ from: ['from must be before to'] });
  if (to - from > HEALTH_RHYTHM.keptMs) throw invalid({ from: ['A range of health history spans at most 30 days'] });
  const rows = await db.kysely
    .selectFrom('database_health')
    .selectAll()
    .where('at', '>=', new Date(from).toISOString())
    .where('at', '<', new Date(to).toISOString())
    .orderBy('at')
    .execute();
  const snapshots: HealthSnapshot[] = rows.map((r) => ({
    at: r.at,
    status: r.status as HealthStatus,
    reason: r.reason,
    latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
    databaseBytes: big(r.database_bytes),
    diskFreeBytes: big(r.disk_free_bytes),
    diskTotalBytes: big(r.disk_total_bytes),
    cpuPercent: Number(r.cpu_percent),
    rssBytes: Number(r.rss_bytes),
    heapUsedBytes: Number(r.heap_used_bytes),
    activeConnections: Number(r.active_connections),
    maxConnections: Number(r.max_connections),
  }));
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), snapshots: thinned(snapshots) };
}

const RANK: Record<HealthStatus, number> = { HEALTHY: 0, WARNING: 1, CRITICAL: 2 };

// A chart needs a few hundred points, not the 43,200 minutes of 30 days: beyond MAX_POINTS, snapshots are merged
// into stretches of equal length, each as its worst minute (status, reason, latency) and its latest sizes.
function thinned(snapshots: HealthSnapshot[]): HealthSnapshot[] {
  if (snapshots.length <= MAX_POINTS) return snapshots;
  const per = Math.ceil(snapshots.length / MAX_POINTS);
  const merged: HealthSnapshot[] = [];
  for (let start = 0; start < snapshots.length; start += per) {
    const group = snapshots.slice(start, start + per);
    const worst = group.reduce((a, b) => (RANK[b.status] > RANK[a.status] ? b : a));
    const last = group.at(-1) as HealthSnapshot;
    const latencies = group.map((s) => s.latencyMs).filter((ms): ms is number => ms !== null);
    merged.push({
      ...last,
      at: (group[0] as HealthSnapshot).at,
      status: worst.status,
      reason: worst.reason,
      latencyMs: latencies.length === 0 ? null : Math.max(...latencies),
      cpuPercent: Math.max(...group.map((s) => s.cpuPercent)),
    });
  }
  return merged;
}
