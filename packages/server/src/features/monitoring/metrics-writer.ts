import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { AnsweredRequest } from '../logs/log-events.js';
import '../../db/bus/account-events.js';
import { stopNotingReads } from '../records/read-shapes.js';
import { addMetricsBatch, deleteAccountMetrics } from './metrics.store.js';
import type { Prometheus } from './prometheus.js';
import { createRequestMetrics, familyOf, type MetricCounts, rowsOf } from './request-metrics.js';

// The request metrics of one node: the request log hands every answered request to observe() (request-log.ts);
// the counts are added to `request_metrics` every FLUSH_EVERY_MS, off the requests' path, in one transaction per
// batch. Each batch has an id, stored with it: a batch whose commit succeeded but whose answer was lost is retried
// under the same id and not added twice, so the totals are exact on any number of nodes sharing one database.

const WRITER_DEFAULTS = { flushEveryMs: 5000 };
// Batches that could not be stored wait for the next round; beyond this many the oldest is dropped (and counted).
const MAX_WAITING = 60;

/** MonitoringOptions set the rhythm, the Prometheus registry (null: /metrics is off) and who hears errors. */
export interface MonitoringOptions {
  flushEveryMs?: number;
  /**
   * countRequests: false keeps no request metrics (REQUEST_METRICS=off), nor the record reads' shapes behind the
   * index insights (records/read-shapes.ts); Prometheus still counts, when on.
   */
  countRequests: boolean;
  prometheus: Prometheus | null;
  onError?: (error: unknown) => void;
}

/** Monitoring counts this node's requests for GET /api/metrics and, when on, for Prometheus. */
export interface Monitoring {
  /** observing is false when neither request metrics nor Prometheus are on: the request log skips observe. */
  readonly observing: boolean;
  /** observe hears an answered request (the request log calls it for both paths); it never throws. */
  observe(answered: AnsweredRequest): void;
  /** prometheus is the node's registry, or null when METRICS_TOKEN is not set. */
  readonly prometheus: Prometheus | null;
  /** flush stores every count so far (tests, shutdown). */
  flush(): Promise<void>;
  /** stats counts what was stored and dropped since the start. */
  stats(): { batches: number; dropped: number };
  close(): Promise<void>;
}

/** createMonitoring starts a node's request metrics over a database; close it before the database. */
export function createMonitoring(db: Db, options: MonitoringOptions): Monitoring {
  const { flushEveryMs } = { ...WRITER_DEFAULTS, ...options };
  const { prometheus, countRequests } = options;
  const counts = createRequestMetrics();
  if (!countRequests) stopNotingReads(db);
  let waiting: { id: string; rows: MetricCounts[] }[] = [];
  let batches = 0;
  let dropped = 0;
  let closed = false;
  let chain: Promise<void> = Promise.resolve();
  // A deleted account's metrics go with it (in its deletion's transaction, and whatever a batch of another version
  // stored after); what any node still counts for it is not stored (addMetricsBatch keeps live accounts only).
  const unsubscribe = db.bus.subscribe('account.deleted', ({ accountId }) => {
    void deleteAccountMetrics(db, accountId).catch(options.onError);
  });

  async function drain(): Promise<void> {
    const minutes = counts.take();
    if (minutes.length > 0) waiting.push({ id: randomUUID(), rows: rowsOf(minutes) });
    if (waiting.length > MAX_WAITING) {
      dropped += waiting.length - MAX_WAITING;
      waiting = waiting.slice(waiting.length - MAX_WAITING);
    }
    while (waiting.length > 0) {
      const batch = waiting[0] as { id: string; rows: MetricCounts[] };
      try {
        await addMetricsBatch(db, batch.id, batch.rows);
      } catch (error) {
        options.onError?.(error);
        return;
      }
      waiting.shift();
      batches++;
    }
  }

  function flush(): Promise<void> {
    chain = chain.then(drain).catch((error: unknown) => options.onError?.(error));
    return chain;
  }

  const timer = setInterval(() => void flush(), flushEveryMs);
  timer.unref();

  return {
    observe(answered) {
      if (closed) return;
      try {
        const family = countRequests
          ? counts.observe(answered)
          : answered.method === 'OPTIONS'
            ? null
            : familyOf(answered.url);
        if (prometheus !== null && family !== null) prometheus.observe(family, answered.status, answered.durationMs);
      } catch (error) {
        options.onError?.(error);
      }
    },
    observing: countRequests || prometheus !== null,
    prometheus,
    flush,
    stats: () => ({ batches, dropped }),
    async close() {
      if (closed) return chain;
      closed = true;
      clearInterval(timer);
      unsubscribe();
      prometheus?.close();
      await flush();
    },
  };
}
