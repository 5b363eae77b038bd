// `npm run bench:cpu`: the server's own CPU time per request, scenario by scenario, for comparing two versions of
// Basalt on a machine that other work loads. Requests per second swing with whatever else runs; the CPU time the
// server process spends on a fixed number of requests (user + system, from /proc) swings less, though not nothing
// (a neighbour sharing the CPU's caches slows every instruction): compare scenarios of the same round. Linux only.
// Usage: node bench/cpu.mjs [--root DIR] [--requests 20000] [--rounds 3] [--ops get,create] [--targets rest/v1]
//                           [--baseline] [--engine sqlite|postgres]
// --engine postgres runs Basalt (and the baseline: bench/baseline-server-pg.mjs) each on a fresh database of the
// local PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL) and counts the CPU of that database's own server
// processes too (its backends, found in pg_stat_activity), which is where most of a write's cost goes.
// --root runs the checkout in DIR (another version's worktree) with its own bench/setup.mjs, so two versions are
// measured by the same script: run it once per version and compare the medians.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: path.resolve(path.dirname(new URL(import.meta.url).pathname), '..') },
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    ops: { type: 'string', default: 'list,counted,get,create' },
    targets: { type: 'string' },
    // Also the bare baseline (bench/baseline-server.mjs), measured the same way: a ratio of CPU per request.
    baseline: { type: 'boolean', default: false },
    engine: { type: 'string', default: 'sqlite' },
  },
});
const ROOT = path.resolve(values.root);
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const TICKS_PER_SECOND = 100;

const { basaltScenarios, baselineScenarios, postgresDatabase, seedBasalt, startBasalt, startProcess } = await import(
  pathToFileURL(path.join(ROOT, 'bench/setup.mjs')).href
);
const POSTGRES = values.engine === 'postgres';
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** cpuMs is a process's user + system CPU time so far, in ms. */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // After the command: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

// One load of `amount` requests, built like bench/setup.mjs's load (a path or a body made per request).
function run(scenario, amount) {
  return autocannon({
    url: scenario.url,
    connections: Number(values.connections),
    amount,
    method: scenario.method,
    headers: scenario.headers,
    requests: [
      {
        method: scenario.method,
        setupRequest: (req) => ({
          ...req,
          ...(scenario.path ? { path: scenario.path() } : {}),
          ...(scenario.body ? { body: scenario.body() } : {}),
        }),
      },
    ],
  });
}

/** databaseCpuMs is the CPU time so far of the server processes serving one database (0 without one). */
async function databaseCpuMs(database) {
  if (!database) return 0;
  const { rows } = await database.admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database.name]);
  let total = 0;
  for (const { pid } of rows) {
    try {
      total += cpuMs(pid);
    } catch {
      // The backend ended between the list and the read.
    }
  }
  return total;
}

/** openDatabase makes a fresh database for one server, with an admin connection that reads its backends. */
async function openDatabase(name) {
  if (!POSTGRES) return null;
  const made = await postgresDatabase(SERVER_URL, name);
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  return { ...made, name, admin };
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-cpu-'));
const basaltDatabase = await openDatabase(`basalt_cpu_basalt_${process.pid}`);
const baselineDatabase = values.baseline ? await openDatabase(`basalt_cpu_baseline_${process.pid}`) : null;
const server = await startBasalt(path.join(work, 'basalt'), [], { databaseUrl: basaltDatabase?.url ?? '' });
const baseline = values.baseline
  ? await startProcess(
      POSTGRES
        ? ['bench/baseline-server-pg.mjs', '0', baselineDatabase.url, '10000']
        : ['bench/baseline-server.mjs', '0', work, '10000'],
      { pattern: /listening (\d+)/, logFile: path.join(work, 'baseline-stdout.log') },
    )
  : null;
try {
  const url = `http://127.0.0.1:${server.port}`;
  const basalt = {
    url,
    ...(await seedBasalt(
      url,
      POSTGRES ? { direct: { dataDir: path.join(work, 'basalt'), databaseUrl: basaltDatabase.url } } : {},
    )),
  };
  const ops = values.ops.split(',');
  const targets = values.targets?.split(',');
  const bare = baseline ? baselineScenarios(`http://127.0.0.1:${baseline.port}`) : [];
  const chosen = bare
    .concat(basaltScenarios(basalt))
    .filter(
      (s) => ops.includes(s.op) && (targets === undefined || s.target === 'baseline' || targets.includes(s.target)),
    );
  // Rounds are interleaved (every scenario of an operation once per round): a spell of load from elsewhere on the
  // machine then weighs on one round of every scenario rather than on all rounds of one. Creates come last, so that
  // no read round runs on a table an earlier create round grew.
  const perRequest = chosen.map(() => []);
  const byOperation = [...new Set(chosen.map((s) => s.op))].sort((a, b) => (a === 'create') - (b === 'create'));
  for (const op of byOperation) {
    // Warm-up: the JIT compiles each path before it is measured.
    for (const scenario of chosen.filter((s) => s.op === op)) await run(scenario, Math.min(REQUESTS, 5000));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, scenario] of chosen.entries()) {
        if (scenario.op !== op) continue;
        const isBaseline = scenario.target === 'baseline';
        const pid = isBaseline ? baseline.child.pid : server.child.pid;
        const database = isBaseline ? baselineDatabase : basaltDatabase;
        const before = cpuMs(pid) + (await databaseCpuMs(database));
        const result = await run(scenario, REQUESTS);
        const spent = cpuMs(pid) + (await databaseCpuMs(database)) - before;
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`${scenario.target} ${scenario.op}: refused requests`);
        perRequest[i].push((spent * 1000) / REQUESTS);
      }
    }
  }
  const results = chosen.map((scenario, i) => ({
    target: scenario.target,
    op: scenario.op,
    microseconds: Math.round(median(perRequest[i])),
    rounds: perRequest[i].map((us) => Math.round(us * 10) / 10),
  }));
  for (const { target, op, rounds } of results) {
    console.log(
      `${target.padEnd(17)} ${op.padEnd(7)} ${median(rounds).toFixed(1)} µs CPU/request${POSTGRES ? ' (server + database)' : ''}  (${rounds.join(', ')})`,
    );
  }
  fs.writeFileSync(
    path.join(ROOT, POSTGRES ? 'bench/results/cpu-postgres.json' : 'bench/results/cpu.json'),
    `${JSON.stringify({ at: new Date().toISOString(), requests: REQUESTS, rounds: ROUNDS, results }, null, 2)}\n`,
  );
} finally {
  for (const child of [server.child, baseline?.child].filter(Boolean)) {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(work, { recursive: true, force: true });
  for (const database of [basaltDatabase, baselineDatabase].filter(Boolean)) {
    await database.admin.end();
    await database.drop();
  }
}
