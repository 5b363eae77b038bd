// `npm run bench:realtime`: realtime's fan-out (docs/realtime.md), measured on one node on SQLite and on two nodes
// on one PostgreSQL database. For each engine:
// 1. create rate: the records bench's create (`POST /rest/v1/items`, wrk if installed, else autocannon) in rounds
//    of one run: without subscribers, with SUBSCRIBERS sockets each with a filter of its own that no insert
//    matches (the cost of deciding), without, with SUBSCRIBERS sockets hearing every insert, without, … (--rounds);
//    each round with subscribers over the mean of the rounds without on either side of it (target ≥ 0.8×), as a
//    rate and as the servers' CPU time per create (the ratio a busy machine skews least);
// 2. latency: SUBSCRIBERS sockets subscribed while RATE inserts a second are written for DURATION seconds; the
//    first SAMPLE sockets time each change from its commit_timestamp to its receipt (p50, p99; target p99 ≤ 50 ms),
//    and every socket counts what it got; the servers' CPU time per delivered message is the measure that a busy
//    machine (other processes on the servers' core) does not skew;
// 3. memory: IDLE sockets each joined to the table with a binding and then idle; the server's resident memory
//    before and after, per socket (target under 20 KB).
// The servers run on CPU 0 and this process and its socket processes (bench/realtime-clients.mjs) on CPU 1
// (--no-pin: anywhere). On two nodes the inserts go to node A and the sockets alternate between A and B, so half
// of them hear the change across the bus. Everything listens on 127.0.0.1; every loop is bounded. Results go to
// bench/results/realtime.json. PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server.
// --profile DIR writes node A's CPU profile (node --cpu-prof) there.
// Usage: node bench/realtime.mjs [--subscribers 1000] [--rate 200] [--duration 20] [--idle 10000]
//   [--create-duration 8] [--rounds 2] [--connections 16] [--runs sqlite,postgres] [--no-pin] [--profile DIR]
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { basaltScenarios, hasWrk, load, pinCpus, root, seedBasalt, startBasalt } from './setup.mjs';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '200' },
    duration: { type: 'string', default: '20' },
    idle: { type: 'string', default: '10000' },
    'create-duration': { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    runs: { type: 'string', default: 'sqlite,postgres' },
    'no-pin': { type: 'boolean', default: false },
    profile: { type: 'string', default: '' },
  },
});
const SUBSCRIBERS = Number(values.subscribers);
const RATE = Number(values.rate);
const DURATION_MS = Number(values.duration) * 1000;
const IDLE = Number(values.idle);
const CREATE_SECONDS = Number(values['create-duration']);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
// wrk (Debian's package) costs the shared core far less than autocannon, which leaves more of it to the sockets.
const LOADER = hasWrk() ? 'wrk' : 'autocannon';
const SAMPLE = Math.min(100, SUBSCRIBERS);
const MAX_IN_FLIGHT = 64;
const DRAIN_MS = 15_000;
const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

if (!values['no-pin']) pinCpus({ server: '0', client: '1' });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** rssOf reads a process's resident memory in bytes. */
function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** cpuOf reads a process's CPU time (user + system) in seconds. */
function cpuOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** clients forks a socket process and opens `count` subscribed sockets on the nodes. */
async function clients({ urls, apikey, token, count, sample, offset, filter = null }) {
  const child = fork(new URL('./realtime-clients.mjs', import.meta.url));
  const waiting = new Map();
  child.on('message', (message) => {
    if (message.type === 'failed') for (const { reject } of waiting.values()) reject(new Error(message.message));
    waiting.get(message.type)?.resolve(message);
    waiting.delete(message.type);
  });
  child.once('exit', (code) => {
    for (const { reject } of waiting.values()) reject(new Error(`the socket process exited (${code})`));
  });
  const next = (type) => new Promise((resolve, reject) => waiting.set(type, { resolve, reject }));
  const ready = next('ready');
  child.send({ type: 'open', urls, apikey, token, table: 'items', filter, count, sample, offset });
  await ready;
  return {
    pid: child.pid,
    start: () => child.send({ type: 'start' }),
    async stop() {
      const stats = next('stats');
      child.send({ type: 'stop' });
      return stats;
    },
    /** take reports what arrived since the last start or take, and goes on counting. */
    async take() {
      const stats = next('stats');
      child.send({ type: 'take' });
      return stats;
    },
    close: () => {
      child.send({ type: 'close' });
      return new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** insertAt writes RATE rows a second for DURATION through /rest/v1, at most MAX_IN_FLIGHT at once. */
async function insertAt(url, headers) {
  const total = Math.round((RATE * DURATION_MS) / 1000);
  const started = performance.now();
  let inFlight = 0;
  let failed = 0;
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    while (inFlight >= MAX_IN_FLIGHT) await sleep(1);
    inFlight++;
    fetch(`${url}/rest/v1/items`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ name: `live ${i}`, qty: i % 1000, done: false }),
    })
      .then((res) => {
        if (!res.ok) failed++;
        return res.arrayBuffer();
      })
      .catch(() => failed++)
      .finally(() => inFlight--);
  }
  for (const deadline = Date.now() + DRAIN_MS; inFlight > 0 && Date.now() < deadline; ) await sleep(5);
  return { total, failed };
}

/**
 * createRate runs the records bench's create for CREATE_SECONDS: its rate, and the servers' CPU time per create
 * (what a busy machine does not skew: the rate the servers would reach with a core of their own is its inverse).
 */
async function createRate(url, seeded, label, pids, socketPid = null) {
  const scenario = basaltScenarios({ url, ...seeded }).find((s) => s.op === 'create' && s.target === 'rest/v1');
  const cpu = pids.map(cpuOf);
  const sockets = socketPid ? cpuOf(socketPid) : 0;
  const result = await load(scenario, { duration: CREATE_SECONDS, connections: CONNECTIONS, client: LOADER });
  const serverCpu = pids.reduce((sum, pid, i) => sum + cpuOf(pid) - cpu[i], 0);
  const requests = result.requests.average * CREATE_SECONDS;
  const cpuPerCreateUs = requests > 0 ? (serverCpu * 1e6) / requests : null;
  const socketsCpu = socketPid ? (cpuOf(socketPid) - sockets) / CREATE_SECONDS : null;
  console.log(
    `  create ${label}: ${Math.round(result.requests.average)} req/s (${result.non2xx} non-2xx; server ${(serverCpu / CREATE_SECONDS).toFixed(2)} core, ` +
      `${cpuPerCreateUs?.toFixed(0)} µs per create${socketsCpu !== null ? `; sockets process ${socketsCpu.toFixed(2)} core` : ''})`,
  );
  return { rate: result.requests.average, cpuPerCreateUs, socketsCpu };
}

/** drain waits until the subscribers have received everything the servers still had queued for them. */
async function drain(subscribers) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    await sleep(1000);
    if ((await subscribers.take()).received === 0) break;
  }
  await subscribers.stop();
}

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * createRates runs the create in rounds within one run: without subscribers, with SUBSCRIBERS that hear nothing
 * (each with a filter of its own that no insert matches), without, with SUBSCRIBERS hearing every insert, …, ending
 * without; each round with subscribers is compared with the rounds without on either side of it, since the rate
 * drifts over a run (the table grows, the machine's other work comes and goes).
 */
async function createRates({ first, urls, apikey, token, seeded, pids }) {
  const without = [await createRate(first, seeded, 'without subscribers', pids)];
  const deaf = [];
  const all = [];
  for (let round = 0; round < ROUNDS; round++) {
    const quiet = await clients({
      urls,
      apikey,
      token,
      count: SUBSCRIBERS,
      sample: 0,
      offset: 0,
      filter: 'name=eq.nobody {i}',
    });
    deaf.push(await createRate(first, seeded, `with ${SUBSCRIBERS} subscribers hearing nothing`, pids, quiet.pid));
    await quiet.close();
    without.push(await createRate(first, seeded, 'without subscribers', pids));
    const hearing = await clients({ urls, apikey, token, count: SUBSCRIBERS, sample: 0, offset: 0 });
    hearing.start();
    all.push(
      await createRate(first, seeded, `with ${SUBSCRIBERS} subscribers hearing every insert`, pids, hearing.pid),
    );
    await drain(hearing);
    await hearing.close();
    without.push(await createRate(first, seeded, 'without subscribers', pids));
  }
  // Round r with subscribers sits between the rounds without 2r and 2r+1 (hearing nothing) or 2r+1 and 2r+2.
  const ratios = (rounds, at) =>
    rounds.map((r, i) => {
      const around = [without[2 * i + at], without[2 * i + at + 1]];
      return {
        rate: r.rate / mean(around.map((w) => w.rate)),
        cpuPerCreate: mean(around.map((w) => w.cpuPerCreateUs)) / r.cpuPerCreateUs,
      };
    });
  const summary = (list) => ({
    rate: mean(list.map((x) => x.rate)),
    cpuBound: mean(list.map((x) => x.cpuPerCreate)),
    rounds: list,
  });
  const round = (x) => Math.round(x);
  return {
    loader: LOADER,
    without: without.map((w) => ({ rate: round(w.rate), cpuPerCreateUs: round(w.cpuPerCreateUs) })),
    hearingNothing: deaf.map((w) => ({
      rate: round(w.rate),
      cpuPerCreateUs: round(w.cpuPerCreateUs),
      socketsCpu: w.socketsCpu,
    })),
    hearingAll: all.map((w) => ({
      rate: round(w.rate),
      cpuPerCreateUs: round(w.cpuPerCreateUs),
      socketsCpu: w.socketsCpu,
    })),
    ratioHearingNothing: summary(ratios(deaf, 0)),
    ratioHearingAll: summary(ratios(all, 1)),
  };
}

async function runEngine(engine) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `basalt-bench-realtime-${engine}-`));
  const database = engine === 'postgres' ? await createDatabase() : null;
  const nodes = [];
  // The nodes of one deployment share one address: it is the issuer of the tokens each of them checks.
  process.env.SITE_URL = 'http://basalt.bench.test';
  try {
    for (const name of engine === 'postgres' ? ['a', 'b'] : ['a']) {
      const dataDir = path.join(work, name, 'data');
      fs.mkdirSync(dataDir, { recursive: true });
      const profiling =
        values.profile && name === 'a' ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : [];
      nodes.push(await startBasalt(dataDir, profiling, { databaseUrl: database?.url ?? '' }));
    }
    const urls = nodes.map((node) => `http://127.0.0.1:${node.port}`);
    const [first] = urls;
    const pids = nodes.map((node) => node.child.pid);
    const seeded = await seedBasalt(first, { rows: 1000 });
    const token = seeded.rest.authorization.slice('Bearer '.length);
    const apikey = seeded.rest.apikey;
    console.log(`${engine}: ${nodes.length} node(s), ${SUBSCRIBERS} subscribers, ${RATE} inserts/s`);

    // A first round warms the server up (JIT, caches, the table's pages); it is not reported.
    await createRate(first, seeded, 'warm-up (not reported)', pids);
    const creates = await createRates({ first, urls, apikey, token, seeded, pids });
    console.log(
      `  create rate: ×${creates.ratioHearingNothing.rate.toFixed(2)} with subscribers hearing nothing, ` +
        `×${creates.ratioHearingAll.rate.toFixed(2)} hearing every insert; by servers' CPU per create: ` +
        `×${creates.ratioHearingNothing.cpuBound.toFixed(2)} and ×${creates.ratioHearingAll.cpuBound.toFixed(2)}`,
    );

    const subscribers = await clients({ urls, apikey, token, count: SUBSCRIBERS, sample: SAMPLE, offset: 0 });
    const socketsBefore = cpuOf(subscribers.pid);
    const cpuBefore = pids.map(cpuOf);
    subscribers.start();
    const written = await insertAt(first, seeded.rest);
    const expected = (written.total - written.failed) * SUBSCRIBERS;
    let stats = await subscribers.take();
    for (const deadline = Date.now() + DRAIN_MS; stats.received < expected && Date.now() < deadline; ) {
      await sleep(500);
      const more = await subscribers.take();
      stats = { ...more, received: stats.received + more.received, latencies: [...stats.latencies, ...more.latencies] };
    }
    await subscribers.stop();
    const serverCpu = pids.reduce((sum, pid, i) => sum + cpuOf(pid) - cpuBefore[i], 0);
    const cpuPerMessageUs = stats.received > 0 ? (serverCpu * 1e6) / stats.received : null;
    const socketsCpuPerMessageUs =
      stats.received > 0 ? ((cpuOf(subscribers.pid) - socketsBefore) * 1e6) / stats.received : null;
    await subscribers.close();
    const sorted = stats.latencies.sort((a, b) => a - b);
    const latency = { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? null };
    console.log(
      `  latency from commit: p50 ${latency.p50} ms, p99 ${latency.p99} ms (max ${latency.max}); ` +
        `${stats.received}/${expected} messages delivered, ${written.failed} inserts failed; ` +
        `server CPU ${cpuPerMessageUs?.toFixed(2)} µs per delivered message (inserts included), ` +
        `the sockets process's ${socketsCpuPerMessageUs?.toFixed(2)} µs`,
    );
    await sleep(3000);
    const rssBefore = nodes.reduce((sum, node) => sum + rssOf(node.child.pid), 0);
    const idle = await clients({ urls, apikey, token, count: IDLE, sample: 0, offset: SUBSCRIBERS });
    await sleep(5000);
    const rssAfter = nodes.reduce((sum, node) => sum + rssOf(node.child.pid), 0);
    await idle.close();
    const perSocket = Math.round((rssAfter - rssBefore) / IDLE);
    console.log(`  ${IDLE} idle subscribed sockets: ${(perSocket / 1024).toFixed(1)} KB of server memory each`);
    return {
      engine,
      nodes: nodes.length,
      subscribers: SUBSCRIBERS,
      rate: RATE,
      durationSeconds: DURATION_MS / 1000,
      latencyMs: latency,
      serverCpuPerMessageUs: cpuPerMessageUs,
      delivered: { received: stats.received, expected, failedInserts: written.failed },
      socketsCpuPerMessageUs,
      createRate: creates,
      idle: { sockets: IDLE, rssBefore, rssAfter, bytesPerSocket: perSocket },
    };
  } finally {
    for (const node of nodes) node.child.kill('SIGTERM');
    await Promise.all(nodes.map((node) => new Promise((resolve) => node.child.once('exit', resolve))));
    if (database) await query(adminUrl, `DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function query(url, text) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

async function createDatabase() {
  const name = `basalt_bench_rt_${randomBytes(6).toString('hex')}`;
  await query(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

const results = [];
for (const engine of values.runs.split(',')) results.push(await runEngine(engine));
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(root, 'bench/results/realtime.json'),
  `${JSON.stringify({ at: new Date().toISOString(), cpus: os.cpus().length, results }, null, 2)}\n`,
);
console.log('bench/results/realtime.json written');
