import { randomUUID } from 'node:crypto';
import type { ApiFamily } from '@basalt/shared/monitoring';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Db } from '../../db/database.js';
import { bucketOf, HISTOGRAM_SIZE, LATENCY_BOUNDS_MS } from './request-metrics.js';

// The operator's view of one node, in Prometheus's text format (GET /metrics): requests and their latency per API
// family, function calls, the process (event-loop lag, heap, CPU: prom-client's default metrics), the database's
// connections, and how late the bus delivers another node's events. Each node answers for itself; Prometheus
// scrapes every node and adds them up.

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    /** A node's beat for measuring the bus's lag: when it was published, by which node. */
    'monitoring.beat': { at: number; node: string };
  }
}

/** BEAT_EVERY_MS is how often a node publishes its beat on the bus. */
export const BEAT_EVERY_MS = 15_000;

/** Prometheus is one node's registry and what feeds it. */
export interface Prometheus {
  /** observe counts one answered API request. */
  observe(family: ApiFamily, status: number, durationMs: number): void;
  /** beat publishes this node's beat (a background job). */
  beat(): void;
  /** text is the registry in Prometheus's text format, and its content type. */
  text(): Promise<{ body: string; contentType: string }>;
  close(): void;
}

const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
const classOf = (status: number) => (status >= 500 ? 3 : status >= 400 ? 2 : status >= 300 ? 1 : 0);

/** FamilyCounts are one family's counts since the node started. */
interface FamilyCounts {
  byClass: number[];
  buckets: number[];
  sumMs: number;
}

interface SampleValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

// A metric whose values are read from counts kept here at scrape time. prom-client's own counters and histograms
// hash their labels on every observation (a microsecond per request, measured); these cost a few additions.
function readMetric(name: string, help: string, type: 'counter' | 'histogram', values: () => SampleValue[]) {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset: () => {},
  };
}

/** createPrometheus makes a node's registry; it is only made when METRICS_TOKEN is set. */
export function createPrometheus(db: Db): Prometheus {
  const registry = new Registry();
  const node = randomUUID();
  collectDefaultMetrics({ register: registry, prefix: 'basalt_' });
  const families = new Map<ApiFamily, FamilyCounts>();
  const functionCalls = [0, 0, 0, 0];
  const countsOf = (family: ApiFamily) => {
    let counts = families.get(family);
    if (counts === undefined) {
      counts = { byClass: [0, 0, 0, 0], buckets: new Array(HISTOGRAM_SIZE).fill(0), sumMs: 0 };
      families.set(family, counts);
    }
    return counts;
  };
  const custom = [
    readMetric(
      'basalt_http_requests_total',
      'API requests answered by this node, by API family and status class',
      'counter',
      () =>
        [...families].flatMap(([family, c]) =>
          STATUS_CLASSES.map((status, i) => ({ value: c.byClass[i] as number, labels: { family, status } })).filter(
            (v) => v.value > 0,
          ),
        ),
    ),
    readMetric(
      'basalt_http_request_duration_seconds',
      'Time to answer an API request, by API family',
      'histogram',
      () =>
        [...families].flatMap(([family, c]) => {
          let cumulative = 0;
          const buckets = c.buckets.map((n, i) => {
            cumulative += n;
            const le = i < LATENCY_BOUNDS_MS.length ? (LATENCY_BOUNDS_MS[i] as number) / 1000 : '+Inf';
            return {
              value: cumulative,
              labels: { le, family },
              metricName: 'basalt_http_request_duration_seconds_bucket',
            };
          });
          return [
            ...buckets,
            { value: c.sumMs / 1000, labels: { family }, metricName: 'basalt_http_request_duration_seconds_sum' },
            { value: cumulative, labels: { family }, metricName: 'basalt_http_request_duration_seconds_count' },
          ];
        }),
    ),
    readMetric(
      'basalt_function_calls_total',
      'Edge function calls answered by this node, by status class',
      'counter',
      () => STATUS_CLASSES.map((status, i) => ({ value: functionCalls[i] as number, labels: { status } })),
    ),
  ];
  for (const metric of custom) registry.registerMetric(metric as never);
  // One series per other node, from its first beat on (none on a single node).
  const busLag = new Gauge({
    name: 'basalt_bus_lag_seconds',
    help: "How late each other node's last beat arrived over the bus (the nodes' clocks must agree)",
    labelNames: ['node'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'basalt_bus_reliable',
    help: '1 while events from other nodes are known to arrive, 0 while some may be lost',
    registers: [registry],
    collect() {
      this.set(db.bus.reliable ? 1 : 0);
    },
  });
  new Gauge({
    name: 'basalt_db_connections',
    help: 'Database connections: active, idle and the maximum',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const stats = await db.connectionStats().catch(() => null);
      if (stats === null) return;
      this.set({ state: 'active' }, stats.active);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'max' }, stats.max);
    },
  });
  const unsubscribe = db.bus.subscribe('monitoring.beat', (beat, origin) => {
    if (!origin.local && beat.node !== node) busLag.set({ node: beat.node }, Math.max(0, Date.now() - beat.at) / 1000);
  });

  return {
    observe(family, status, durationMs) {
      const counts = countsOf(family);
      const cls = classOf(status);
      counts.byClass[cls] = (counts.byClass[cls] as number) + 1;
      const slot = bucketOf(durationMs);
      counts.buckets[slot] = (counts.buckets[slot] as number) + 1;
      counts.sumMs += durationMs;
      if (family === 'functions') functionCalls[cls] = (functionCalls[cls] as number) + 1;
    },
    beat() {
      db.bus.publish('monitoring.beat', { at: Date.now(), node });
    },
    async text() {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
    close() {
      unsubscribe();
      registry.clear();
    },
  };
}
