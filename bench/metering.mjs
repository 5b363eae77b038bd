// `npm run bench:metering`: what metering costs the record APIs. One run starts Basalt twice on SQLite, seeded
// alike (bench/setup.mjs): metering on (every API call counted, its account's quota checked) and METERING=off;
// then, for the second half of the rounds, a fresh pair started the other way round.
// Both servers sell the same free plan without an API-call cap, so that no request is refused. Rounds of the
// same get, list and create loads alternate between the two (which one goes first alternates too), so that the
// machine's swings fall on both; the result is each operation's requests/s with metering on ÷ off, summed over
// the rounds, and written to bench/results/metering.json. Target: ≥ 0.97.
// Usage: node bench/metering.mjs [--rounds 3] [--duration 4] [--warmup 2] [--connections 10]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { buildServer } from '../scripts/build.mjs';
import { basaltScenarios, load, root, seedBasalt, startProcess } from './setup.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
  },
});
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const TARGET = 0.97;

// The free plan without an API-call cap: the quota is still checked on every call, never reached.
const PLANS = JSON.stringify({ free: { limits: { apiCalls: null, storageMb: null } } });

async function startServer(name, metering) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `basalt-metering-${name}-`));
  const { child, port } = await startProcess(['packages/server/dist/main.js', 'serve', '--port', '0'], {
    logFile: path.join(dataDir, 'stdout.log'),
    env: {
      BASALT_DATA_DIR: path.join(dataDir, 'data'),
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT: '1000',
      API_RATE_LIMIT: '100000000',
      METERING: metering ? 'on' : 'off',
      BILLING_PLANS: PLANS,
    },
    pattern: /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
  });
  const url = `http://127.0.0.1:${port}`;
  return { name, child, url, dataDir, scenarios: basaltScenarios({ url, ...(await seedBasalt(url)) }) };
}

// Get, list and create through both record APIs, as the account's key and as its session (/api/table's list
// always counts).
const PICKED = [
  ['get', 'api/table'],
  ['counted', 'api/table'],
  ['get', 'rest/v1'],
  ['list', 'rest/v1'],
  ['create', 'api/table'],
  ['create', 'rest/v1'],
];
const pick = (server) => PICKED.map(([op, target]) => server.scenarios.find((s) => s.op === op && s.target === target));

await buildServer();
process.chdir(root);
const totals = PICKED.map(() => ({ on: 0, off: 0, onP99: [], offP99: [], ratios: [], onCpu: 0, offCpu: 0 }));

// The CPU time a server process has used, in ms (Linux: /proc/<pid>/stat, utime + stime in clock ticks of 10 ms).
// Requests per CPU-second hardly move with what else runs on the machine, where requests/s swing by tens of %.
async function cpuMsOf(pid) {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

// One pair of servers: warm-up, then `rounds` rounds of every load on both, back to back.
async function runPair(startOrder, rounds) {
  const started = [];
  try {
    for (const metering of startOrder) started.push(await startServer(metering ? 'on' : 'off', metering));
    const on = started.find((s) => s.name === 'on');
    const off = started.find((s) => s.name === 'off');
    // Reads first, on both, before any create grows the tables; each scenario warms up once per server.
    for (const [i] of PICKED.entries()) {
      for (const server of [on, off]) await load(pick(server)[i], { duration: WARMUP, connections: CONNECTIONS });
    }
    for (let round = 0; round < rounds; round++) {
      for (const [i, [op, target]] of PICKED.entries()) {
        const order = (round + i) % 2 === 0 ? [on, off] : [off, on];
        const pair = {};
        for (const server of order) {
          const cpuBefore = await cpuMsOf(server.child.pid);
          const result = await load(pick(server)[i], { duration: DURATION, connections: CONNECTIONS });
          totals[i][`${server.name}Cpu`] += (await cpuMsOf(server.child.pid)) - cpuBefore;
          if (result.non2xx > 0 || result.errors > 0) {
            throw new Error(
              `${op} ${target} (metering ${server.name}): ${result.non2xx} non-2xx, ${result.errors} errors`,
            );
          }
          totals[i][server.name] += result.requests.total;
          totals[i][`${server.name}P99`].push(result.latency.p99);
          pair[server.name] = result.requests.total;
        }
        totals[i].ratios.push(pair.on / pair.off);
      }
      console.log(`round ${round + 1} of ${rounds} done (${startOrder[0] ? 'on' : 'off'} started first)`);
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

// The server started first serves measurably more slowly or faster on a shared machine, whatever it runs (two
// servers both without metering differ by up to 10 %): half the rounds run on a pair started on-then-off, the
// other half on a pair started off-then-on.
const firstHalf = Math.ceil(ROUNDS / 2);
await runPair([true, false], firstHalf);
await runPair([false, true], ROUNDS - firstHalf);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const rows = PICKED.map(([op, target], i) => {
  const t = totals[i];
  const seconds = ROUNDS * DURATION;
  return {
    op,
    through: `/${target}/items`,
    onRps: Math.round(t.on / seconds),
    offRps: Math.round(t.off / seconds),
    ratio: Math.round(median(t.ratios) * 1000) / 1000,
    totalsRatio: Math.round((t.on / t.off) * 1000) / 1000,
    rounds: t.ratios.map((r) => Math.round(r * 1000) / 1000),
    // Requests per CPU-second of the server, metering on ÷ off.
    cpuRatio: Math.round((t.on / t.onCpu / (t.off / t.offCpu)) * 1000) / 1000,
    onCpuUs: Math.round((t.onCpu * 1000) / t.on),
    offCpuUs: Math.round((t.offCpu * 1000) / t.off),
    onP99: median(t.onP99),
    offP99: median(t.offP99),
  };
});
console.log(
  '\n| operation | through | metering on req/s | off req/s | on ÷ off (median of rounds) | ratio of totals | CPU µs per request on / off | req per CPU-s on ÷ off | p99 on / off ms (median) | target ≥ 0.97 |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const r of rows) {
  console.log(
    `| ${r.op} | \`${r.through}\` | ${r.onRps} | ${r.offRps} | ×${r.ratio.toFixed(3)} | ×${r.totalsRatio.toFixed(3)} | ${r.onCpuUs} / ${r.offCpuUs} | ×${r.cpuRatio.toFixed(3)} | ${r.onP99} / ${r.offP99} | ${r.ratio >= TARGET ? 'met' : 'missed'} |`,
  );
}
// What the meter itself costs a request, measured alone in this process: one admit() (the quota check and the
// count) for an account whose usage is known, as every request but an account's first pays it.
async function admitNs() {
  const unregister = register();
  const src = (file) => new URL(`../packages/server/src/${file}`, import.meta.url).href;
  const { loadConfig } = await import(src('config.ts'));
  const { migrateToLatest, openDatabase } = await import(src('db/database.ts'));
  const { createUsageMeter } = await import(src('features/billing/usage-meter.ts'));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-meter-'));
  const config = loadConfig({ BASALT_DATA_DIR: dir, LOG_LEVEL: 'silent', BILLING_PLANS: PLANS });
  const db = openDatabase(config, {});
  await migrateToLatest(db);
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('accounts')
    .values({ id: 'bench', email: 'bench@example.com', created_at: now, updated_at: now })
    .execute();
  const meter = createUsageMeter(db, { plans: config.billing.plans });
  await meter.admit('bench', false);
  const calls = 2_000_000;
  const started = performance.now();
  for (let i = 0; i < calls; i++) meter.admit('bench', i % 3 === 0);
  const ns = ((performance.now() - started) * 1e6) / calls;
  await meter.close();
  await db.close();
  await fs.rm(dir, { recursive: true, force: true });
  await unregister();
  return Math.round(ns);
}
const meterNs = await admitNs();
console.log(`\nthe meter alone: ${meterNs} ns per request (one admit(), measured in this process)`);

const all = median(totals.flatMap((t) => t.ratios));
console.log(`\nall operations, median of every round's ratio: ×${all.toFixed(3)}`);
await fs.writeFile(
  path.join(root, 'bench/results/metering.json'),
  `${JSON.stringify({ at: new Date().toISOString(), rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS, rows, all, meterNs }, null, 2)}\n`,
);
