import { randomUUID } from 'node:crypto';
import type { ApiFamily } from '@basalt/shared';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/database.js';
import { LATENCY_BOUNDS_MS } from './request-metrics.js';

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

const statusClass = (status: number) => (status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx');

/** createPrometheus makes a node's registry; it is only made when METRICS_TOKEN is set. */
export function createPrometheus(db: Db): Prometheus {
  const registry = new Registry();
  const node = randomUUID();
  collectDefaultMetrics({ register: registry, prefix: 'basalt_' });
  const requests = new Counter({
    name: 'basalt_http_requests_total',
    help: 'API requests answered by this node, by API family and status class',
    labelNames: ['family', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'basalt_http_request_duration_seconds',
    help: 'Time to answer an API request, by API family',
    labelNames: ['family'] as const,
    buckets: LATENCY_BOUNDS_MS.map((ms) => ms / 1000),
    registers: [registry],
  });
  const functionCalls = new Counter({
    name: 'basalt_function_calls_total',
    help: 'Edge function calls answered by this node, by status class',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const busLag = new Gauge({
    name: 'basalt_bus_lag_seconds',
    help: "How late the last beat of another node arrived over the bus (nodes' clocks must agree)",
    registers: [registry],
  });
  const busReliable = new Gauge({
    name: 'basalt_bus_reliable',
    help: '1 while events from other nodes are known to arrive, 0 while some may be lost',
    registers: [registry],
    collect() {
      this.set(db.bus.reliable ? 1 : 0);
    },
  });
  void busReliable;
  const connections = new Gauge({
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
  void connections;

  // The children of each label value, found once: a labelled observe would hash its labels on every request.
  const byFamily = new Map<string, { observe(seconds: number): void }>();
  const counted = new Map<string, { inc(): void }>();
  const unsubscribe = db.bus.subscribe('monitoring.beat', (beat, origin) => {
    if (!origin.local && beat.node !== node) busLag.set(Math.max(0, Date.now() - beat.at) / 1000);
  });

  return {
    observe(family, status, durationMs) {
      const cls = statusClass(status);
      const key = `${family} ${cls}`;
      let counter = counted.get(key);
      if (counter === undefined) {
        counter = requests.labels(family, cls);
        counted.set(key, counter);
      }
      counter.inc();
      let histogram = byFamily.get(family);
      if (histogram === undefined) {
        histogram = latency.labels(family);
        byFamily.set(family, histogram);
      }
      histogram.observe(durationMs / 1000);
      if (family === 'functions') functionCalls.labels(cls).inc();
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
