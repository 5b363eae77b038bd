// Profiles Basalt under one benchmark load: starts the server with `node --cpu-prof`, seeds it like
// `npm run bench`, runs the chosen scenarios, stops the server and prints the functions with the most self
// time (the fixed per-request costs show up here; see docs/performance.md).
// Usage: node bench/profile.mjs [--op get] [--target api/table] [--duration 10] [--top 40] [--keep]
//        [--engine sqlite|postgres] (PostgreSQL: a database of its own on TEST_DATABASE_URL's server, dropped after)
// --op and --target take a comma-separated list (default: get on both APIs); --keep leaves the .cpuprofile
// in the temporary directory printed at the end, for Chrome's DevTools.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { basaltScenarios, load, postgresDatabase, seedBasalt, startBasalt } from './setup.mjs';

const { values } = parseArgs({
  options: {
    op: { type: 'string', default: 'get' },
    target: { type: 'string', default: 'api/table,rest/v1' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    top: { type: 'string', default: '40' },
    keep: { type: 'boolean', default: false },
    engine: { type: 'string', default: 'sqlite' },
  },
});

/** selfTimes sums each function's self time (ms) in a .cpuprofile, keyed by name and location. */
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const { callFrame } = byId.get(id);
    const file = callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/packages\//, '');
    const key = `${callFrame.functionName || '(anonymous)'}  ${file}:${callFrame.lineNumber + 1}`;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    totals.set(key, (totals.get(key) ?? 0) + ms);
    all += ms;
  });
  return { all, rows: [...totals].sort((a, b) => b[1] - a[1]) };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-profile-'));
const profiles = path.join(work, 'profiles');
const database =
  values.engine === 'postgres'
    ? await postgresDatabase(
        process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
        `basalt_profile_${process.pid}`,
      )
    : null;
const server = await startBasalt(path.join(work, 'basalt'), ['--cpu-prof', `--cpu-prof-dir=${profiles}`], {
  databaseUrl: database?.url ?? '',
});
try {
  const url = `http://127.0.0.1:${server.port}`;
  const basalt = { url, ...(await seedBasalt(url)) };
  const ops = values.op.split(',');
  const targets = values.target.split(',');
  const chosen = basaltScenarios(basalt).filter((s) => ops.includes(s.op) && targets.includes(s.target));
  for (const scenario of chosen) {
    const result = await load(scenario, { duration: Number(values.duration), connections: Number(values.connections) });
    console.log(
      `${scenario.target} ${scenario.op}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`,
    );
  }
} finally {
  const exited = new Promise((resolve) => server.child.on('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
  await database?.drop();
}
// Thread 0 is the main thread (the checkpoint worker writes its own profile).
const file = fs.readdirSync(profiles).find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
const { all, rows } = selfTimes(JSON.parse(fs.readFileSync(path.join(profiles, file), 'utf8')));
console.log(`\nself time, of ${Math.round(all)} ms sampled (seeding included):`);
for (const [key, ms] of rows.slice(0, Number(values.top))) {
  console.log(`${((100 * ms) / all).toFixed(1).padStart(5)}%  ${Math.round(ms).toString().padStart(6)} ms  ${key}`);
}
if (values.keep) console.log(`\nprofile: ${path.join(profiles, file)}`);
else fs.rmSync(work, { recursive: true, force: true });
