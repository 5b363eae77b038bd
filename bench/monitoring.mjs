// `npm run bench:monitoring`: what request monitoring costs the record APIs — every request counted into its minute
// by account, API and route (REQUEST_METRICS, on by default), every filtered or ordered list and exact count noted
// for the index insights (records/read-shapes.ts, also off with REQUEST_METRICS=off), and Prometheus's counters and
// histograms (METRICS_TOKEN set) — against the same server with all of it off: bench/on-off.mjs's paired method with an A/A
// control. Results go to bench/results/monitoring.json. Target (issue 33): monitored ÷ unmonitored ≥ 0.97.
// Usage: node bench/monitoring.mjs [--rounds 12] [--duration 1] [--warmup 2] [--connections 10] [--no-pin]
//        [--no-prometheus] (the monitored server without METRICS_TOKEN: what a default install does per request)
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { onOffOptions, runOnOff, writeResults } from './on-off.mjs';

const TOKEN = 'bench-metrics-token-0123456789';

const options = onOffOptions({ rounds: 12, extra: { prometheus: { type: 'boolean', default: true } } });
const PROMETHEUS = options.values.prometheus;

const results = await runOnOff({
  label: 'monitoring',
  // The record APIs' commonest calls: gets and lists through /rest/v1 and /api/table, and a create. Both lists
  // filter and order (their shapes are noted); /api/table's also counts exactly (noted too).
  picked: [
    ['get', 'api/table'],
    ['get', 'rest/v1'],
    ['list', 'rest/v1'],
    ['counted', 'api/table'],
    ['create', 'api/table'],
  ],
  envOf: (on) => ({ REQUEST_METRICS: on ? 'on' : 'off', ...(on && PROMETHEUS ? { METRICS_TOKEN: TOKEN } : {}) }),
  target: 0.97,
  options,
  // The monitored server counted what it served: its metrics endpoint answers, with the requests of the run (only
  // Prometheus's endpoint can be read with a token; without it the run checks nothing here).
  async check(on) {
    if (!PROMETHEUS) return;
    const res = await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await res.text();
    if (res.status !== 200 || !/basalt_http_requests_total\{family="rest",status="2xx"\} [1-9]/.test(text)) {
      throw new Error(`the monitored server's /metrics did not count the run (${res.status})`);
    }
  },
});

// What observing one request costs, alone in this process: the request log's observer with metrics and
// Prometheus on, for a mix of routes of one account.
async function observeNs() {
  const unregister = register();
  const src = (file) => new URL(`../packages/server/src/${file}`, import.meta.url).href;
  const { openDatabase, migrateToLatest } = await import(src('db/database.ts'));
  const { loadConfig } = await import(src('config.ts'));
  const { createMonitoring } = await import(src('features/monitoring/metrics-writer.ts'));
  const { createPrometheus } = await import(src('features/monitoring/prometheus.ts'));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-observe-'));
  const db = openDatabase(loadConfig({ BASALT_DATA_DIR: dir, LOG_LEVEL: 'silent' }), {});
  await migrateToLatest(db);
  const monitoring = createMonitoring(db, {
    countRequests: true,
    prometheus: createPrometheus(db),
    flushEveryMs: 3600_000,
  });
  const principal = { kind: 'apiKey', accountId: 'bench', keyId: 1 };
  const requests = [
    { url: '/api/table/items/42', route: '/api/table/:name/:id', params: { name: 'items', id: '42' } },
    { url: '/rest/v1/items?id=eq.42', route: '/rest/v1/:table', params: { table: 'items' } },
    { url: '/rest/v1/items?select=*', route: '/rest/v1/:table', params: { table: 'items' } },
  ].map((r) => ({
    method: 'GET',
    status: 200,
    durationMs: 0.4,
    bytes: 120,
    principal,
    requestId: 'r',
    early: true,
    ...r,
  }));
  const calls = 1_000_000;
  const began = performance.now();
  for (let i = 0; i < calls; i++) monitoring.observe(requests[i % 3]);
  const ns = ((performance.now() - began) * 1e6) / calls;
  await monitoring.close();
  await db.close();
  await fs.rm(dir, { recursive: true, force: true });
  await unregister();
  return Math.round(ns);
}

const ns = await observeNs();
console.log(`observing one request (metrics and Prometheus), alone in this process: ${ns} ns`);
await writeResults(PROMETHEUS ? 'monitoring.json' : 'monitoring-no-prometheus.json', { ...results, observeNs: ns });
