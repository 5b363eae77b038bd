// `npm run bench:monitoring`: what request monitoring costs the record APIs — every request counted into its minute
// by account, API and route (REQUEST_METRICS, on by default) and into Prometheus's counters and histograms
// (METRICS_TOKEN set) — against the same server with both off, in the same run, beside an A/A control pair of two
// servers with both off, which shows the noise floor. The pair method is bench/metering.mjs's (bench/paired.mjs):
// the two servers of a pair, seeded alike (bench/setup.mjs), are loaded AT THE SAME TIME with equal autocannon
// loads on one core, so that every swing of the machine hits both alike; a round's ratio is their requests/s;
// each ratio is the median of many short rounds with a bootstrap 95 % interval. Half the rounds run on servers
// started monitored first, the other half on fresh ones started the other way round. Results go to
// bench/results/monitoring.json. Target (issue 33): monitored ÷ unmonitored ≥ 0.97.
// Usage: node bench/monitoring.mjs [--rounds 12] [--duration 1] [--warmup 2] [--connections 10] [--no-pin]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { buildServer } from '../scripts/build.mjs';
import { cpuMsOf, cpuRatio, interval, median, medianInterval } from './paired.mjs';
import { basaltScenarios, load, pinCpus, root, seedBasalt, startProcess } from './setup.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '12' },
    duration: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    pin: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const PINNED = values.pin && os.availableParallelism() >= 2;
if (PINNED) pinCpus({ server: '1', client: '0' });
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const TARGET = 0.97;
const TOKEN = 'bench-metrics-token-0123456789';

/** A server with monitoring on (request metrics and Prometheus) or off (neither). */
async function startServer(name, monitored) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `basalt-monitoring-${name.replace(' ', '-')}-`));
  const { child, port } = await startProcess(['packages/server/dist/main.js', 'serve', '--port', '0'], {
    logFile: path.join(dataDir, 'stdout.log'),
    env: {
      BASALT_DATA_DIR: path.join(dataDir, 'data'),
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT: '1000',
      API_RATE_LIMIT: '100000000',
      REQUEST_METRICS: monitored ? 'on' : 'off',
      ...(monitored ? { METRICS_TOKEN: TOKEN } : {}),
    },
    pattern: /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
  });
  const url = `http://127.0.0.1:${port}`;
  return { name, child, url, dataDir, scenarios: basaltScenarios({ url, ...(await seedBasalt(url)) }) };
}

// The record APIs' commonest calls: gets and lists through /rest/v1 and /api/table, and a create.
const PICKED = [
  ['get', 'api/table'],
  ['get', 'rest/v1'],
  ['list', 'rest/v1'],
  ['create', 'api/table'],
];
const pick = (server, i) => server.scenarios.find((s) => s.op === PICKED[i][0] && s.target === PICKED[i][1]);
const pairTotals = () => PICKED.map(() => ({ a: 0, b: 0, ratios: [], samples: [] }));
const measured = pairTotals();
const control = pairTotals();

async function loadTogether(a, b, i, aFirst, totals) {
  const before = await Promise.all([cpuMsOf(a.child.pid), cpuMsOf(b.child.pid)]);
  const options = { duration: DURATION, connections: CONNECTIONS };
  const [ra, rb] = aFirst
    ? await Promise.all([load(pick(a, i), options), load(pick(b, i), options)])
    : (await Promise.all([load(pick(b, i), options), load(pick(a, i), options)])).reverse();
  const after = await Promise.all([cpuMsOf(a.child.pid), cpuMsOf(b.child.pid)]);
  for (const [server, r] of [
    [a, ra],
    [b, rb],
  ]) {
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${PICKED[i].join(' ')} (${server.name}): ${r.non2xx} non-2xx`);
  }
  const t = totals[i];
  t.a += ra.requests.total;
  t.b += rb.requests.total;
  t.ratios.push(ra.requests.total / rb.requests.total);
  t.samples.push([ra.requests.total, after[0] - before[0], rb.requests.total, after[1] - before[1]]);
}

async function runServers(order, firstRound, rounds) {
  const started = [];
  try {
    const by = {};
    for (const name of order) {
      by[name] = await startServer(name, name === 'on');
      started.push(by[name]);
    }
    const pairs = [
      [by.on, by.off, measured],
      [by['control A'], by['control B'], control],
    ];
    for (const [i] of PICKED.entries()) {
      for (const [a, b] of pairs) {
        await Promise.all([a, b].map((s) => load(pick(s, i), { duration: WARMUP, connections: CONNECTIONS })));
      }
    }
    for (let round = firstRound; round < firstRound + rounds; round++) {
      for (const [i] of PICKED.entries()) {
        const aFirst = (round + i) % 2 === 0;
        for (const [a, b, totals] of round % 2 === 0 ? pairs : [...pairs].reverse()) {
          await loadTogether(a, b, i, aFirst, totals);
        }
      }
      console.log(`round ${round + 1} of ${ROUNDS} done (${order[0]} started first)`);
    }
    // The monitored server counted what it served: its metrics endpoint answers, with the requests of the run.
    const res = await fetch(`${by.on.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await res.text();
    if (res.status !== 200 || !/basalt_http_requests_total\{family="rest",status="2xx"\} [1-9]/.test(text)) {
      throw new Error(`the monitored server's /metrics did not count the run (${res.status})`);
    }
  } finally {
    for (const server of started) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
      await fs.rm(server.dataDir, { recursive: true, force: true });
    }
  }
}

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

await buildServer();
process.chdir(root);
const firstHalf = Math.ceil(ROUNDS / 2);
await runServers(['on', 'control A', 'off', 'control B'], 0, firstHalf);
await runServers(['off', 'control B', 'on', 'control A'], firstHalf, ROUNDS - firstHalf);

const r3 = (n) => Math.round(n * 1000) / 1000;
const summary = (t) => ({
  ratio: r3(median(t.ratios)),
  interval: medianInterval(t.ratios).map(r3),
  cpu: { ratio: r3(cpuRatio(t.samples)), interval: interval(t.samples, cpuRatio).map(r3) },
});
const fmt = (r) => `×${r.ratio.toFixed(3)} [${r.interval[0].toFixed(3)}–${r.interval[1].toFixed(3)}]`;
const verdict = (r) =>
  r.interval[0] >= TARGET
    ? 'met'
    : r.interval[1] < TARGET
      ? 'missed'
      : r.ratio >= TARGET
        ? 'met (unsure)'
        : 'missed (unsure)';
const rows = PICKED.map(([op, target], i) => ({
  op,
  through: `/${target}/items`,
  onRps: Math.round(measured[i].a / (ROUNDS * DURATION)),
  offRps: Math.round(measured[i].b / (ROUNDS * DURATION)),
  ...summary(measured[i]),
  control: summary(control[i]),
}));
console.log(
  '\n| operation | through | on req/s | off req/s | on ÷ off [95 %] | A/A control [95 %] | CPU: requests per CPU-s on ÷ off | target ≥ 0.97 |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const r of rows) {
  console.log(
    `| ${r.op} | \`${r.through}\` | ${r.onRps} | ${r.offRps} | ${fmt(r)} | ${fmt(r.control)} | ${fmt(r.cpu)} | ${verdict(r)} |`,
  );
}
const all = {
  ratio: r3(median(measured.flatMap((t) => t.ratios))),
  interval: medianInterval(measured.flatMap((t) => t.ratios)).map(r3),
};
const allControl = {
  ratio: r3(median(control.flatMap((t) => t.ratios))),
  interval: medianInterval(control.flatMap((t) => t.ratios)).map(r3),
};
console.log(`\nall operations: on ÷ off ${fmt(all)} (${verdict(all)}); A/A control ${fmt(allControl)}`);
const ns = await observeNs();
console.log(`observing one request (metrics and Prometheus), alone in this process: ${ns} ns`);
await fs.mkdir(path.join(root, 'bench/results'), { recursive: true });
await fs.writeFile(
  path.join(root, 'bench/results/monitoring.json'),
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      method: 'simultaneous pairs with an A/A control',
      rounds: ROUNDS,
      duration: DURATION,
      connections: CONNECTIONS,
      pinned: PINNED,
      loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
      rows,
      all,
      allControl,
      observeNs: ns,
    },
    null,
    2,
  )}\n`,
);
