// `npm run bench:versions -- --before DIR [--after DIR]`: two versions of Basalt in the same run. DIR is a checkout
// (a worktree of an older commit, with its dependencies installed); --after defaults to this one. Each version is
// built, started and seeded by its own bench/setup.mjs (give both the same setup.mjs to measure the same workload).
// As bench:metering does for metering on and off, each round loads both servers AT THE SAME TIME with equal
// autocannon loads, both on one core, so that every swing of this shared machine hits both alike; the ratio of
// their requests is the ratio of their costs per request. Each ratio is the median of the rounds', with a bootstrap
// 95 % interval; the servers' CPU time per request beside it. Which version is loaded first alternates.
// --against TARGET has the "before" server run that target's scenario of each operation instead of the same one:
// with both versions this checkout (the default), two identical servers tell what one target costs against
// another (an app's end user against the owner: `--targets "rest/v1 user" --against rest/v1`).
// --before-env NAME=VALUE (repeatable) starts the "before" server with that environment: one checkout against itself
// with a setting changed (`--before-env FAST_READS=off`).
// --engine postgres runs both on PostgreSQL (the server of BENCH_DATABASE_URL or TEST_DATABASE_URL, default the
// local one), each in a database of its own, dropped at the end.
// Usage: node bench/versions.mjs [--before DIR] [--after DIR] [--rounds 12] [--duration 1] [--warmup 2]
//                                [--connections 10] [--ops get,create] [--targets api/table,rest/v1]
//                                [--against TARGET] [--before-env NAME=VALUE] [--engine sqlite|postgres] [--no-pin]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuMsOf, cpuRatio, interval, median, medianInterval } from './paired.mjs';
import { load, postgresDatabase, root } from './setup.mjs';

const { values } = parseArgs({
  options: {
    before: { type: 'string', default: root },
    after: { type: 'string', default: root },
    rounds: { type: 'string', default: '12' },
    duration: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    ops: { type: 'string', default: 'get,create' },
    targets: { type: 'string', default: 'api/table,rest/v1' },
    against: { type: 'string' },
    'before-env': { type: 'string', multiple: true, default: [] },
    engine: { type: 'string', default: 'sqlite' },
    pin: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const OPS = values.ops.split(',');
const TARGETS = values.targets.split(',');
const PINNED = values.pin && os.availableParallelism() >= 2;
if (!['sqlite', 'postgres'].includes(values.engine)) throw new Error('--engine is sqlite or postgres');
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BEFORE_ENV = Object.fromEntries(
  values['before-env'].map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--before-env takes NAME=VALUE, not ${pair}`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);
// An older setup.mjs may not pin its servers: they are pinned here once started, this process on the other CPU.
const pin = (pid, cpu) => {
  if (!PINNED) return;
  const pinned = spawnSync('taskset', ['-a', '-pc', cpu, String(pid)], { encoding: 'utf8' });
  if (pinned.status !== 0) throw new Error(`taskset could not pin ${pid}: ${pinned.stderr}`);
};
pin(process.pid, '0');

// The server reads its environment when it starts: the overrides hold for that moment only.
async function withEnv(env, start) {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await start();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function startVersion(name, dir, env = {}) {
  const setup = await import(pathToFileURL(path.join(path.resolve(dir), 'bench/setup.mjs')).href);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `basalt-versions-${name}-`));
  const database =
    values.engine === 'postgres' ? await postgresDatabase(SERVER_URL, `basalt_versions_${name}_${process.pid}`) : null;
  const { child, port } = await withEnv(env, () =>
    setup.startBasalt(path.join(dataDir, 'data'), [], { databaseUrl: database?.url ?? '' }),
  );
  pin(child.pid, '1');
  const url = `http://127.0.0.1:${port}`;
  const scenarios = setup.basaltScenarios({ url, ...(await setup.seedBasalt(url)) });
  return { name, child, dataDir, database, scenarios };
}

const before = await startVersion('before', values.before, BEFORE_ENV);
const after = await startVersion('after', values.after);
const picked = [];
for (const op of OPS) {
  for (const target of TARGETS) {
    const a = after.scenarios.find((s) => s.op === op && s.target === target);
    const b = before.scenarios.find((s) => s.op === op && s.target === (values.against ?? target));
    if (a && b) picked.push({ op, target: a.target, against: b.target, after: a, before: b, ratios: [], samples: [] });
  }
}
if (picked.length === 0) throw new Error('no scenario of --ops and --targets exists in both versions');

const options = { duration: DURATION, connections: CONNECTIONS };
try {
  // Reads first, before any create grows the tables; each scenario warms up on both servers together.
  for (const p of picked)
    await Promise.all([
      load(p.after, { ...options, duration: WARMUP }),
      load(p.before, { ...options, duration: WARMUP }),
    ]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, p] of picked.entries()) {
      const cpuBefore = await Promise.all([cpuMsOf(after.child.pid), cpuMsOf(before.child.pid)]);
      const afterFirst = (round + i) % 2 === 0;
      const [ra, rb] = afterFirst
        ? await Promise.all([load(p.after, options), load(p.before, options)])
        : await Promise.all([load(p.before, options), load(p.after, options)]).then(([x, y]) => [y, x]);
      const cpuAfter = await Promise.all([cpuMsOf(after.child.pid), cpuMsOf(before.child.pid)]);
      for (const result of [ra, rb]) {
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${p.op} ${p.target}: refused requests`);
      }
      p.ratios.push(ra.requests.total / rb.requests.total);
      p.samples.push([ra.requests.total, cpuAfter[0] - cpuBefore[0], rb.requests.total, cpuAfter[1] - cpuBefore[1]]);
    }
    console.log(`round ${round + 1} of ${ROUNDS} done`);
  }
} finally {
  for (const version of [before, after]) {
    const exited = new Promise((resolve) => version.child.once('exit', resolve));
    version.child.kill('SIGTERM');
    await exited;
    await fs.rm(version.dataDir, { recursive: true, force: true });
    await version.database?.drop();
  }
}

const r3 = (n) => Math.round(n * 1000) / 1000;
const fmt = ([ratio, [low, high]]) => `×${ratio.toFixed(3)} [${low.toFixed(3)}–${high.toFixed(3)}]`;
const perRequestUs = (samples, requests, cpu) =>
  Math.round((samples.reduce((t, s) => t + s[cpu], 0) * 10000) / samples.reduce((t, s) => t + s[requests], 0)) / 10;
const rows = picked.map((p) => ({
  op: p.op,
  target: p.target,
  against: p.against,
  ratio: r3(median(p.ratios)),
  interval: medianInterval(p.ratios).map(r3),
  rounds: p.ratios.map(r3),
  cpu: { ratio: r3(cpuRatio(p.samples)), interval: interval(p.samples, cpuRatio).map(r3) },
  afterCpuUs: perRequestUs(p.samples, 0, 1),
  beforeCpuUs: perRequestUs(p.samples, 2, 3),
}));
console.log(
  '\n| operation | through (after / before) | after ÷ before req/s, median [95 %] | CPU µs per request before / after | requests per CPU-s after ÷ before [95 %] |',
);
console.log('| --- | --- | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(
    `| ${r.op} | \`/${r.target}\`${r.against === r.target ? '' : ` / \`/${r.against}\``} | ${fmt([r.ratio, r.interval])} | ${r.beforeCpuUs} / ${r.afterCpuUs} | ${fmt([r.cpu.ratio, r.cpu.interval])} |`,
  );
}
console.log(
  `\n(${values.engine}; ${ROUNDS} rounds of ${DURATION} s; load average ${os.loadavg()[0].toFixed(1)}; ${PINNED ? 'servers on CPU 1, load generator on CPU 0' : 'not pinned'})`,
);
await fs.writeFile(
  path.join(root, 'bench/results/versions.json'),
  `${JSON.stringify({ at: new Date().toISOString(), engine: values.engine, before: values.before, beforeEnv: BEFORE_ENV, after: values.after, rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS, pinned: PINNED, rows }, null, 2)}\n`,
);
