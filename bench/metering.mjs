// `npm run bench:metering`: what metering costs the record APIs, resolved finely enough to tell a 3 % difference
// on a busy shared machine. It starts four Basalt servers on SQLite, seeded alike (bench/setup.mjs): the measured
// pair, metering on and METERING=off, and a control pair, both off. Each round loads the two servers of a pair AT
// THE SAME TIME with equal autocannon loads, so that every swing of the machine (other work, CPU frequency, the
// scheduler) hits both alike, and takes the ratio of their requests/s; the pairs take turns, operation by
// operation. The control's ratio (A/A: two identical servers) shows the noise floor beside the measured one.
// Many short rounds; each ratio is the median of its rounds, with a bootstrap 95 % interval of that median.
// Half the rounds run on servers started in the order on, control A, off, control B, the other half on fresh
// ones started off, control B, on, control A: the control's two sides stand to each other as on and off do, and
// which server started first evens out; which side's load starts first alternates from round to round.
// Both servers of the measured pair sell the same free plan without an API-call cap, so that nothing is refused.
// Results go to bench/results/metering.json. Target: on ÷ off ≥ 0.97.
// On a machine of two or more CPUs every server runs on CPU 1 and the load generator on CPU 0 (--no-pin:
// anywhere): the two servers of a pair, both busy, then share one core as the scheduler divides it evenly, so their
// ratio of requests is that of their costs per request, and whatever else runs on that core slows both alike.
// Usage: node bench/metering.mjs [--rounds 15] [--duration 1] [--warmup 2] [--connections 10] [--no-pin]
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
    rounds: { type: 'string', default: '15' },
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
const pick = (server, i) => {
  const [op, target] = PICKED[i];
  return server.scenarios.find((s) => s.op === op && s.target === target);
};

const tally = () => ({ requests: 0, cpuMs: 0 });
// Per round: the requests/s ratio, and each side's requests and CPU ms (for the ratio of CPU per request).
const totalsOf = () => PICKED.map(() => ({ a: tally(), b: tally(), ratios: [], samples: [] }));
// How busy the load generator (this process) was while loading: near 100 % of a core, it may hold both servers
// back alike and pull the ratios towards 1.
let loadingMs = 0;
let generatorCpuMs = 0;
// measured: a = metering on, b = off; control: a and b both off.
const measured = totalsOf();
const control = totalsOf();

// One round of one operation on one pair: both servers under equal loads at once; returns a's requests ÷ b's.
async function loadTogether(a, b, i, aFirst, totals) {
  const cpuBefore = await Promise.all([cpuMsOf(a.child.pid), cpuMsOf(b.child.pid)]);
  const generatorBefore = process.cpuUsage();
  const began = performance.now();
  const options = { duration: DURATION, connections: CONNECTIONS };
  const [ra, rb] = aFirst
    ? await Promise.all([load(pick(a, i), options), load(pick(b, i), options)])
    : await Promise.all([load(pick(b, i), options), load(pick(a, i), options)]).then(([x, y]) => [y, x]);
  const cpuAfter = await Promise.all([cpuMsOf(a.child.pid), cpuMsOf(b.child.pid)]);
  loadingMs += performance.now() - began;
  const generator = process.cpuUsage(generatorBefore);
  generatorCpuMs += (generator.user + generator.system) / 1000;
  for (const [server, result] of [
    [a, ra],
    [b, rb],
  ]) {
    if (result.non2xx > 0 || result.errors > 0) {
      const [op, target] = PICKED[i];
      throw new Error(`${op} ${target} (${server.name}): ${result.non2xx} non-2xx, ${result.errors} errors`);
    }
  }
  totals[i].a.requests += ra.requests.total;
  totals[i].b.requests += rb.requests.total;
  totals[i].a.cpuMs += cpuAfter[0] - cpuBefore[0];
  totals[i].b.cpuMs += cpuAfter[1] - cpuBefore[1];
  totals[i].ratios.push(ra.requests.total / rb.requests.total);
  totals[i].samples.push([
    ra.requests.total,
    cpuAfter[0] - cpuBefore[0],
    rb.requests.total,
    cpuAfter[1] - cpuBefore[1],
  ]);
}

// Four servers, started in `order` (names), then `rounds` rounds: a warm-up first, then each operation on each
// pair, both servers of the pair at once.
async function runServers(order, firstRound, rounds) {
  const started = [];
  try {
    const byName = {};
    for (const name of order) {
      const server = await startServer(name, name === 'on');
      started.push(server);
      byName[name] = server;
    }
    const { on, off } = byName;
    const controlA = byName['control A'];
    const controlB = byName['control B'];
    // Reads first, on all four, before any create grows the tables; each scenario warms up once per server, the
    // servers of a pair together as they will be measured.
    for (const [i] of PICKED.entries()) {
      await Promise.all([on, off].map((s) => load(pick(s, i), { duration: WARMUP, connections: CONNECTIONS })));
      await Promise.all(
        [controlA, controlB].map((s) => load(pick(s, i), { duration: WARMUP, connections: CONNECTIONS })),
      );
    }
    for (let round = firstRound; round < firstRound + rounds; round++) {
      for (const [i] of PICKED.entries()) {
        const aFirst = (round + i) % 2 === 0;
        // The pairs take turns going first too, so that neither always follows the other's creates.
        if (round % 2 === 0) {
          await loadTogether(on, off, i, aFirst, measured);
          await loadTogether(controlA, controlB, i, aFirst, control);
        } else {
          await loadTogether(controlA, controlB, i, aFirst, control);
          await loadTogether(on, off, i, aFirst, measured);
        }
      }
      console.log(`round ${round + 1} of ${ROUNDS} done (${order[0]} started first)`);
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

await buildServer();
process.chdir(root);
// A server started earlier can serve measurably faster or slower on a shared machine, whatever it runs: half the
// rounds run on four servers started with metering first, the other half on four fresh ones started the other
// way round, and each time the control's sides are started as the measured ones are.
const firstHalf = Math.ceil(ROUNDS / 2);
await runServers(['on', 'control A', 'off', 'control B'], 0, firstHalf);
await runServers(['off', 'control B', 'on', 'control A'], firstHalf, ROUNDS - firstHalf);

const r3 = (n) => Math.round(n * 1000) / 1000;
const summary = (t) => ({
  ratio: r3(median(t.ratios)),
  interval: medianInterval(t.ratios).map(r3),
  totalsRatio: r3(t.a.requests / t.b.requests),
  rounds: t.ratios.map(r3),
  cpu: { ratio: r3(cpuRatio(t.samples)), interval: interval(t.samples, cpuRatio).map(r3) },
});
const seconds = ROUNDS * DURATION;
const rows = PICKED.map(([op, target], i) => {
  const m = measured[i];
  return {
    op,
    through: `/${target}/items`,
    onRps: Math.round(m.a.requests / seconds),
    offRps: Math.round(m.b.requests / seconds),
    ...summary(m),
    onCpuUs: Math.round((m.a.cpuMs * 10000) / m.a.requests) / 10,
    offCpuUs: Math.round((m.b.cpuMs * 10000) / m.b.requests) / 10,
    control: summary(control[i]),
  };
});
const verdict = (r) =>
  r.interval[0] >= TARGET
    ? 'met'
    : r.interval[1] < TARGET
      ? 'missed'
      : r.ratio >= TARGET
        ? 'met (unsure)'
        : 'missed (unsure)';
const fmt = (r) => `×${r.ratio.toFixed(3)} [${r.interval[0].toFixed(3)}–${r.interval[1].toFixed(3)}]`;
console.log(
  '\n| operation | through | on req/s | off req/s | on ÷ off, median [95 %] | A/A control, median [95 %] | ratio of totals on ÷ off / A ÷ B | target ≥ 0.97 |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const r of rows) {
  console.log(
    `| ${r.op} | \`${r.through}\` | ${r.onRps} | ${r.offRps} | ${fmt(r)} | ${fmt(r.control)} | ×${r.totalsRatio.toFixed(3)} / ×${r.control.totalsRatio.toFixed(3)} | ${verdict(r)} |`,
  );
}
console.log(
  '\n| operation | through | CPU µs per request on / off | requests per CPU-s on ÷ off [95 %] | A/A control [95 %] |',
);
console.log('| --- | --- | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.op} | \`${r.through}\` | ${r.onCpuUs} / ${r.offCpuUs} | ${fmt(r.cpu)} | ${fmt(r.control.cpu)} |`);
}
const generatorBusy = Math.round((generatorCpuMs / loadingMs) * 100);
console.log(
  `\nthe load generator was busy ${generatorBusy} % of a core while loading (load average ${os.loadavg()[0].toFixed(1)}; ${PINNED ? 'servers on CPU 1, load generator on CPU 0' : 'not pinned'})`,
);

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
  const began = performance.now();
  for (let i = 0; i < calls; i++) meter.admit('bench', i % 3 === 0);
  const ns = ((performance.now() - began) * 1e6) / calls;
  await meter.close();
  await db.close();
  await fs.rm(dir, { recursive: true, force: true });
  await unregister();
  return Math.round(ns);
}
const meterNs = await admitNs();
console.log(`\nthe meter alone: ${meterNs} ns per request (one admit(), measured in this process)`);

const all = {
  ratio: r3(median(measured.flatMap((t) => t.ratios))),
  interval: medianInterval(measured.flatMap((t) => t.ratios)).map(r3),
};
const allControl = {
  ratio: r3(median(control.flatMap((t) => t.ratios))),
  interval: medianInterval(control.flatMap((t) => t.ratios)).map(r3),
};
console.log(`all operations, median of every round's ratio: on ÷ off ${fmt(all)}; A/A control ${fmt(allControl)}`);
await fs.writeFile(
  path.join(root, 'bench/results/metering.json'),
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      method: 'simultaneous pairs with an A/A control',
      rounds: ROUNDS,
      duration: DURATION,
      connections: CONNECTIONS,
      loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
      generatorBusy,
      pinned: PINNED,
      rows,
      all,
      allControl,
      meterNs,
    },
    null,
    2,
  )}\n`,
);
